// The ids and aliases in the fixture files are not typed in by hand: this test
// recomputes them as p4c does (src/p4info/ids.ts for ids, p4c's shortest
// unique suffix for aliases) from the control-plane names of each program.
import { describe, expect, test } from 'vitest';
import { assignIds, IdPrefix, parseP4Info } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import { FIXTURES, fixtureText, type FixtureName } from './fixtures.js';

/**
 * The symbols p4c's P4RuntimeSymbolTable collects from each .p4 program, by
 * id prefix. Controller headers are hashed by their header *type* name,
 * although their preamble is named after the annotation (packet_in/out).
 */
const SYMBOLS: Record<FixtureName, Partial<Record<keyof typeof IdPrefix, string[]>>> = {
  forwarding: {
    ACTION: ['NoAction', 'MyIngress.drop', 'MyIngress.forward', 'MyIngress.set_nhop'],
    TABLE: ['MyIngress.l2_exact', 'MyIngress.ipv4_lpm'],
  },
  acl: {
    ACTION: ['NoAction', 'MyIngress.drop', 'MyIngress.permit', 'MyIngress.to_cpu', 'MyIngress.clone_to_cpu'],
    TABLE: ['MyIngress.acl'],
  },
  register: {
    ACTION: ['MyIngress.accumulate', 'MyIngress.drop'],
    TABLE: ['MyIngress.slots'],
    REGISTER: ['MyIngress.slot_values'],
  },
  counter: {
    ACTION: ['MyIngress.set_class', 'MyIngress.drop'],
    TABLE: ['MyIngress.classify'],
    COUNTER: ['MyIngress.port_counter'],
    DIRECT_COUNTER: ['MyIngress.classify_counter'],
    METER: ['MyIngress.port_meter'],
  },
  packet_io: {
    ACTION: ['NoAction', 'MyIngress.send_to_cpu', 'MyIngress.learn'],
    TABLE: ['MyIngress.smac'],
    CONTROLLER_HEADER: ['packet_in_header_t', 'packet_out_header_t'],
    DIGEST: ['learn_digest_t'],
  },
};

const HEADER_TYPE: Record<string, string> = { packet_in: 'packet_in_header_t', packet_out: 'packet_out_header_t' };

/** p4c's P4SymbolSuffixSet: the fewest trailing components that no other symbol shares. */
function shortestUniqueSuffix(name: string, all: readonly string[]): string {
  const parts = name.split('.');
  for (let n = 1; n <= parts.length; n++) {
    const suffix = parts.slice(-n);
    const sharing = new Set(all.filter((other) => other.split('.').slice(-n).join('.') === suffix.join('.')));
    if (sharing.size < 2 || n === parts.length) return suffix.join('.');
  }
  return name;
}

interface Preambled {
  preamble: p4i.Preamble__Output | null;
}

function preamblesByKind(info: p4i.P4Info__Output): [keyof typeof IdPrefix, Preambled[]][] {
  return [
    ['ACTION', info.actions],
    ['TABLE', info.tables],
    ['COUNTER', info.counters],
    ['DIRECT_COUNTER', info.direct_counters],
    ['METER', info.meters],
    ['DIRECT_METER', info.direct_meters],
    ['REGISTER', info.registers],
    ['DIGEST', info.digests],
    ['CONTROLLER_HEADER', info.controller_packet_metadata],
  ];
}

describe.each(FIXTURES)('%s.p4info.txtpb', (name) => {
  const info = parseP4Info(fixtureText(name), 'text', name);
  const symbols = SYMBOLS[name];
  const everything = Object.values(symbols).flat();

  test('every id is the one p4c assigns', () => {
    for (const [kind, objects] of preamblesByKind(info)) {
      const ids = assignIds(IdPrefix[kind], symbols[kind] ?? []);
      expect(objects.length, kind).toBe(ids.size);
      for (const { preamble } of objects) {
        const symbol = kind === 'CONTROLLER_HEADER' ? HEADER_TYPE[preamble!.name]! : preamble!.name;
        expect(preamble!.id, `${kind} ${symbol}`).toBe(ids.get(symbol));
      }
    }
  });

  test('every alias is the shortest unique suffix among all the symbols', () => {
    for (const [kind, objects] of preamblesByKind(info)) {
      for (const { preamble } of objects) {
        const expected = kind === 'CONTROLLER_HEADER' ? preamble!.name : shortestUniqueSuffix(preamble!.name, everything);
        expect(preamble!.alias, preamble!.name).toBe(expected);
      }
    }
  });

  test('references resolve and fields are numbered 1..n', () => {
    const actionIds = new Set(info.actions.map((a) => a.preamble!.id));
    const directIds = new Set([...info.direct_counters, ...info.direct_meters].map((d) => d.preamble!.id));
    for (const table of info.tables) {
      expect(table.match_fields.map((f) => f.id)).toEqual(table.match_fields.map((_f, i) => i + 1));
      for (const ref of table.action_refs) expect(actionIds.has(ref.id)).toBe(true);
      for (const id of table.direct_resource_ids) expect(directIds.has(id)).toBe(true);
      expect(actionIds.has(table.initial_default_action!.action_id)).toBe(true);
    }
    for (const action of info.actions) expect(action.params.map((p) => p.id)).toEqual(action.params.map((_p, i) => i + 1));
    for (const counter of info.direct_counters) expect(info.tables.some((t) => t.preamble!.id === counter.direct_table_id)).toBe(true);
  });
});

test('the alias rule on p4c examples: a name shared by two controls keeps its control', () => {
  const all = ['ingress.on_miss', 'egress.on_miss', 'ingress.set_vrf', 'ingress.bd'];
  expect(shortestUniqueSuffix('ingress.on_miss', all)).toBe('ingress.on_miss');
  expect(shortestUniqueSuffix('ingress.set_vrf', all)).toBe('set_vrf');
});
