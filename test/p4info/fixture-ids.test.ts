// Our id and alias functions (src/p4info/ids.ts, the front end's alias rule)
// checked against ids and aliases that the real p4c wrote: every object of
// every P4Info in ../shared/p4c-outputs (p4c 1.2.4.8 on this repository's
// programs; skipped when missing or stale), and ids copied as literals from
// p4c's published goldens (testdata/p4_16_samples_outputs/*.p4info.txtpb,
// sample named in each case). Nothing here is computed by the function under
// test to produce the expected value.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import { aliases } from '../../src/p4c/control-plane/names.js';
import { assignIds, idFor, IdPrefix, parseP4Info } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import { p4cOutput, REPO_ROOT, reportUncompared, repositoryPrograms } from '../helpers/p4c-outputs.js';

interface Preambled {
  preamble: p4i.Preamble__Output | null;
}

function preamblesByKind(info: p4i.P4Info__Output): [keyof typeof IdPrefix, Preambled[]][] {
  return [
    ['ACTION', info.actions],
    ['TABLE', info.tables],
    ['VALUE_SET', info.value_sets],
    ['COUNTER', info.counters],
    ['DIRECT_COUNTER', info.direct_counters],
    ['METER', info.meters],
    ['DIRECT_METER', info.direct_meters],
    ['REGISTER', info.registers],
    ['ACTION_PROFILE', info.action_profiles],
    ['DIGEST', info.digests],
    ['CONTROLLER_HEADER', info.controller_packet_metadata],
  ];
}

/** `@controller_header("packet_in") header packet_in_header_t` → packet_in → packet_in_header_t: p4c hashes the type name. */
function controllerHeaderTypes(program: string): Map<string, string> {
  const source = readFileSync(path.join(REPO_ROOT, program), 'utf8');
  const out = new Map<string, string>();
  for (const m of source.matchAll(/@controller_header\(\s*"([^"]+)"\s*\)\s*header\s+(\w+)/g)) out.set(m[1]!, m[2]!);
  return out;
}

/** The values of the program's `@id(...)` annotations. */
function idAnnotations(program: string): Set<number> {
  const source = readFileSync(path.join(REPO_ROOT, program), 'utf8');
  return new Set([...source.matchAll(/@id\(\s*(0x[0-9a-fA-F]+|\d+)\s*\)/g)].map((m) => Number(m[1])));
}

describe('ids and aliases in the P4Info p4c 1.2.4.8 wrote for our programs', () => {
  // The skipped programs named on stderr: the default reporter does not name skipped tests.
  const unchecked: string[] = [];
  afterAll(() => reportUncompared('ids and aliases of p4c', unchecked));

  for (const program of repositoryPrograms()) {
    const lookup = p4cOutput(program);
    if (!lookup.output || lookup.output.p4infoText === null) {
      const why = lookup.output ? `p4c wrote no P4Info for ${program} (it refused it)` : lookup.reason;
      if (!lookup.output) unchecked.push(why);
      it.skip(`${program}: ${why}`, () => {});
      continue;
    }
    const info = parseP4Info(lookup.output.p4infoText, 'text', program);

    it(`${program}: every id is the one assignIds gives for p4c's names`, () => {
      const headerTypes = controllerHeaderTypes(program);
      const given = idAnnotations(program);
      let checked = 0;
      for (const [kind, objects] of preamblesByKind(info)) {
        const hashName = (p: p4i.Preamble__Output): string => (kind === 'CONTROLLER_HEADER' ? headerTypes.get(p.name)! : p.name);
        // Objects carrying an @id of the source keep it; the others are hashed around them.
        const fixed = new Map(objects.filter((o) => given.has(o.preamble!.id)).map((o) => [hashName(o.preamble!), o.preamble!.id]));
        const ids = assignIds(IdPrefix[kind], objects.map((o) => hashName(o.preamble!)), fixed);
        for (const { preamble } of objects) {
          expect(preamble!.id, `${kind} ${preamble!.name}`).toBe(ids.get(hashName(preamble!)));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });

    it(`${program}: every alias is the shortest unique suffix over all the names`, () => {
      const all = preamblesByKind(info).flatMap(([kind, objects]) => (kind === 'CONTROLLER_HEADER' ? [] : objects.map((o) => o.preamble!.name)));
      const expected = aliases(all);
      for (const [kind, objects] of preamblesByKind(info)) {
        for (const { preamble } of objects) {
          // A controller header's alias is its annotation's name, as its preamble name.
          expect(preamble!.alias, preamble!.name).toBe(kind === 'CONTROLLER_HEADER' ? preamble!.name : expected.get(preamble!.name));
        }
      }
    });
  }
});

describe("ids in p4c's published goldens (testdata/p4_16_samples_outputs)", () => {
  test('name_annotations_to_p4info-bmv2.p4: table IngressI.red, action IngressI.blue, NoAction', () => {
    expect(idFor(IdPrefix.TABLE, 'IngressI.red')).toBe(49805857);
    expect(idFor(IdPrefix.ACTION, 'IngressI.blue')).toBe(23079077);
    expect(idFor(IdPrefix.ACTION, 'NoAction')).toBe(21257015);
  });

  test('issue1097-bmv2.p4: the top-level register r', () => {
    expect(idFor(IdPrefix.REGISTER, 'r')).toBe(369183714);
  });

  test('issue561-1-bmv2.p4: table ingress.debug_hdr', () => {
    expect(idFor(IdPrefix.TABLE, 'ingress.debug_hdr')).toBe(47159577);
  });

  test('crc32-bmv2.p4: table MyIngress.calculate and its actions', () => {
    expect(idFor(IdPrefix.TABLE, 'MyIngress.calculate')).toBe(35792087);
    const actions = assignIds(IdPrefix.ACTION, ['MyIngress.operation_add', 'MyIngress.operation_crc', 'MyIngress.operation_drop']);
    expect(actions.get('MyIngress.operation_add')).toBe(24785092);
    expect(actions.get('MyIngress.operation_crc')).toBe(24997060);
    expect(actions.get('MyIngress.operation_drop')).toBe(32121835);
  });
});

test('the alias rule on p4c examples: a name shared by two controls keeps its control', () => {
  const result = aliases(['ingress.on_miss', 'egress.on_miss', 'ingress.set_vrf', 'ingress.bd']);
  expect(result.get('ingress.on_miss')).toBe('ingress.on_miss');
  expect(result.get('ingress.set_vrf')).toBe('set_vrf');
  expect(result.get('ingress.bd')).toBe('bd');
});
