// The `--topo` shorthand on loopback against the Mininet testbed's own code
// (mininet/p4ina_mininet/topologies.py, run by Python): the same shorthand
// must parse to the same settings or fail with the same message, and give
// the same hosts (names, addresses), switches (names, roles, INA, an INA
// switch's address) and cables (ends and ports, in order). The one
// difference is documented: on loopback legacy switches have an address too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { FabricError, parseTopoShorthand, shorthandDocument, shorthandTopology, type ShorthandOptions } from '../../src/fabric/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = '/usr/bin/python3';

interface Case {
  readonly topo: string;
  readonly prefix: string;
  /** Racks with an INA ToR. */
  readonly ina: readonly number[];
  readonly spine: 'p4' | 'ina';
  readonly ps: number;
  readonly bw?: number;
}

interface MininetDocument {
  readonly hosts: Record<string, { ip: string; mac: string }>;
  readonly switches: Record<string, { role: string; ina: boolean; ip?: string; mac?: string }>;
  readonly links: { nodes: string[]; bandwidth_mbps?: number }[];
}

const PY = `
import json, sys
sys.path.insert(0, ${JSON.stringify(path.join(ROOT, 'mininet'))})
from p4ina_mininet.topologies import TopologyError, parse_topo, plan_single, plan_leafspine, topology_json
class Options: pass
out = []
for c in json.loads(sys.argv[1]):
    try:
        kind, v = parse_topo(c['topo'])
    except TopologyError as err:
        out.append({'error': str(err)})
        continue
    ina = set(c['ina'])
    if kind == 'single':
        plan = plan_single(c['prefix'], v['hosts'], ina=bool(ina), legacy='p4', ps=c['ps'])
    else:
        plan = plan_leafspine(c['prefix'], v['racks'], v['hosts'], v['spines'], ina, 'p4', c['spine'], ps=c['ps'])
    o = Options(); o.topo = c['topo']; o.bw = c.get('bw'); o.delay = None
    out.append({'settings': v, 'doc': topology_json(plan, o, lambda n: '127.0.0.1:1', lambda n: 0, lambda s: None, 'p4ina')})
print(json.dumps(out))
`;

function mininet(cases: readonly Case[]): ({ error: string } | { settings: Record<string, number>; doc: MininetDocument })[] {
  const run = spawnSync(PYTHON, ['-c', PY, JSON.stringify(cases)], { encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0) throw new Error(`python: ${run.stderr}`);
  return JSON.parse(run.stdout) as ReturnType<typeof mininet>;
}

const CASES: Case[] = [
  { topo: 'single,hosts=3', prefix: 'p4i', ina: [1], spine: 'p4', ps: 0 },
  { topo: 'single', prefix: 'x', ina: [], spine: 'p4', ps: 2 },
  { topo: 'leafspine,racks=2,hosts=2,spines=1', prefix: 'p4i', ina: [1, 2], spine: 'p4', ps: 0 },
  { topo: 'leafspine,racks=4,hosts=2,spines=1', prefix: 'p4i', ina: [2, 3], spine: 'p4', ps: 0 },
  { topo: 'leafspine,racks=3,hosts=1,spines=2', prefix: 'ab1', ina: [1], spine: 'ina', ps: 1, bw: 20 },
  { topo: ' leafspine , spines=3 ,hosts=4', prefix: 'p4i', ina: [1, 2], spine: 'ina', ps: 2 },
  { topo: 'leafspine,racks=32,hosts=1,spines=1', prefix: 'p4i', ina: [32], spine: 'p4', ps: 0 },
];

const BAD = ['star', '', 'single,racks=2', 'leafspine,hosts=0', 'leafspine,hosts=33', 'single,hosts', 'leafspine,spines=x', 'single,hosts=-1', 'leafspine,racks=2,,hosts=1.5'];

describe('the --topo shorthand, as Mininet reads and builds it', () => {
  test('each shorthand gives the settings, hosts, switches and cables of topologies.py', () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is needed to read the Mininet testbed's topologies`);
    const expected = mininet(CASES);
    for (const [i, c] of CASES.entries()) {
      const want = expected[i]!;
      if ('error' in want) throw new Error(`Mininet refused ${c.topo}: ${want.error}`);
      const topo = parseTopoShorthand(c.topo);
      expect(topo).toEqual({ kind: topo.kind, ...want.settings });
      const options: ShorthandOptions = { prefix: c.prefix, inaRacks: c.ina, spine: c.spine, psHosts: c.ps, ...(c.bw === undefined ? {} : { bandwidthMbps: c.bw }) };
      const ours = shorthandDocument(topo, options) as unknown as MininetDocument;
      expect(ours.hosts).toEqual(want.doc.hosts);
      expect(Object.keys(ours.switches)).toEqual(Object.keys(want.doc.switches));
      for (const [name, sw] of Object.entries(want.doc.switches)) {
        const mine = ours.switches[name]!;
        expect({ name, role: mine.role, ina: mine.ina }).toEqual({ name, role: sw.role, ina: sw.ina });
        // Mininet gives addresses to INA switches only; loopback gives every switch the address it would have as INA.
        if (sw.ina) expect({ name, ip: mine.ip, mac: mine.mac }).toEqual({ name, ip: sw.ip, mac: sw.mac });
        else expect(mine.ip).toBeDefined();
      }
      expect(ours.links).toEqual(want.doc.links);
      // And the controller takes it.
      expect(shorthandTopology(topo, options).hosts.size).toBe(Object.keys(want.doc.hosts).length);
    }
  });

  test('a bad shorthand is refused with Mininet’s message', () => {
    const expected = mininet(BAD.map((topo) => ({ topo, prefix: 'p4i', ina: [], spine: 'p4', ps: 0 })));
    for (const [i, text] of BAD.entries()) {
      const want = expected[i]!;
      if (!('error' in want)) throw new Error(`Mininet took "${text}"`);
      let thrown: unknown;
      try {
        parseTopoShorthand(text);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(FabricError);
      expect({ text, code: (thrown as FabricError).code, message: (thrown as FabricError).message }).toEqual({ text, code: 'FABRIC_BAD_TOPO', message: want.error });
    }
  });

  test('options out of range are FABRIC_BAD_TOPO, saying what to give', () => {
    const topo = parseTopoShorthand('leafspine,racks=2');
    expect(() => shorthandDocument(topo, { inaRacks: [3] })).toThrow(/INA racks: 3 is not a rack of leafspine,racks=2,hosts=2,spines=1; give racks from 1 to 2/);
    expect(() => shorthandDocument(topo, { psHosts: -1 })).toThrow(/parameter-server hosts: -1/);
  });
});
