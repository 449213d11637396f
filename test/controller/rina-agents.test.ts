// From a Rina plan to each worker's `p4ina agent rina-worker` arguments: the ring
// and places are worked out by hand from Rina's rule (docs/rina.md: an INA rack is
// one member whose agent is its lowest rank, members in order of their agent's
// rank), and the agent's own parser takes them unchanged.
import { describe, expect, test } from 'vitest';
import { parseRinaWorkerArgs } from '../../src/agent/rina/worker-args.js';
import { defineJob, parseTopology, planRollout, rinaWorkerCommands, withInaSwitches } from '../../src/controller/index.js';

/** r1 = s1 {h1, h2}, r2 = s2 {h3, h4}; spine s3. Host addresses carry a prefix length, which no argument may. */
const topology = parseTopology({
  hosts: Object.fromEntries(['h1', 'h2', 'h3', 'h4'].map((h, i) => [h, { ip: `10.0.${(i >> 1) + 1}.${(i % 2) + 1}/8`, mac: `02:00:00:00:0${(i >> 1) + 1}:0${(i % 2) + 1}` }])),
  switches: Object.fromEntries(['s1', 's2', 's3'].map((s, i) => [s, { role: i < 2 ? 'tor' : 'spine', ip: `10.0.${i + 1}.254`, mac: `02:00:00:00:09:0${i + 1}` }])),
  links: [
    { nodes: ['h1', 's1-p1'] },
    { nodes: ['h2', 's1-p2'] },
    { nodes: ['h3', 's2-p1'] },
    { nodes: ['h4', 's2-p2'] },
    { nodes: ['s1-p3', 's3-p1'] },
    { nodes: ['s2-p3', 's3-p2'] },
  ],
});
// Ranks interleave the racks, so that ring order (by agent rank) differs from rack order.
const job = defineJob({ id: 9, algorithm: 'rina', workers: ['h1', 'h3', 'h2', 'h4'].map((host, rank) => ({ rank, host, udpPort: 0xbf11 + rank })), poolSize: 48 });
const P = (rank: number): number => 0xbf11 + rank;

function argsOf(ina: string[]): string[][] {
  return rinaWorkerCommands(job, planRollout(withInaSwitches(topology, ina), job), topology).map((c) => [...c.args]);
}

describe('Rina workers\' arguments from a plan', () => {
  test('one INA rack: it is member 0 with its agent first, the legacy rack\'s workers are members 1 and 2, the agent sends to its ToR', () => {
    const commands = rinaWorkerCommands(job, planRollout(withInaSwitches(topology, ['s1']), job), topology);
    const members = ['--member', `rack:10.0.1.1:${P(0)},10.0.1.2:${P(2)}`, '--member', `worker:10.0.2.1:${P(1)}`, '--member', `worker:10.0.2.2:${P(3)}`];
    const tail = (rank: number): string[] => ['--rank', String(rank), '--job', '9', '--pool', '48'];
    expect(commands).toEqual([
      { rank: 0, host: 'h1', args: [...members, '--position', '0', '--worker-id', '0', '--tor', `10.0.1.254:${P(0)}`, ...tail(0)] },
      { rank: 1, host: 'h3', args: [...members, '--position', '1', '--worker-id', '0', ...tail(1)] },
      { rank: 2, host: 'h2', args: [...members, '--position', '0', '--worker-id', '1', ...tail(2)] },
      { rank: 3, host: 'h4', args: [...members, '--position', '2', '--worker-id', '0', ...tail(3)] },
    ]);
  });

  test('the agent\'s parser takes every worker\'s arguments: the same ring everywhere, each its own place and role', () => {
    const parsed = argsOf(['s1']).map((args) => parseRinaWorkerArgs([...args, '--length', '64'])!);
    const ring = parsed[0]!.ring;
    expect(ring.map((m) => [m.kind, m.workers.map((w) => `${w.address}:${w.port}`)])).toEqual([
      ['rack', [`10.0.1.1:${P(0)}`, `10.0.1.2:${P(2)}`]],
      ['worker', [`10.0.2.1:${P(1)}`]],
      ['worker', [`10.0.2.2:${P(3)}`]],
    ]);
    for (const p of parsed) expect(p.ring).toEqual(ring);
    expect(parsed.map((p) => [p.rank, p.place.position, p.place.workerId, p.torAddress && `${p.torAddress.address}:${p.torAddress.port}`])).toEqual([
      [0, 0, 0, `10.0.1.254:${P(0)}`],
      [1, 1, 0, undefined],
      [2, 0, 1, undefined],
      [3, 2, 0, undefined],
    ]);
  });

  test('both racks INA: a ring of two racks, each agent sends to its own ToR', () => {
    const args = argsOf(['s1', 's2']);
    expect(args[0]!.slice(0, 4)).toEqual(['--member', `rack:10.0.1.1:${P(0)},10.0.1.2:${P(2)}`, '--member', `rack:10.0.2.1:${P(1)},10.0.2.2:${P(3)}`]);
    const tors = args.map((a) => (a.includes('--tor') ? a[a.indexOf('--tor') + 1] : undefined));
    expect(tors).toEqual([`10.0.1.254:${P(0)}`, `10.0.2.254:${P(1)}`, undefined, undefined]);
  });

  test('no INA rack: a plain ring of four autonomous workers in rank order, nobody gets --tor', () => {
    const args = argsOf([]);
    expect(args[0]!.filter((_, i) => i % 2 === 1).slice(0, 4)).toEqual([0, 1, 2, 3].map((r) => `worker:${['10.0.1.1', '10.0.2.1', '10.0.1.2', '10.0.2.2'][r]}:${P(r)}`));
    expect(args.some((a) => a.includes('--tor'))).toBe(false);
    expect(args.map((a) => a[a.indexOf('--position') + 1])).toEqual(['0', '1', '2', '3']);
  });

  test('a plan without a ring (an ATP job) is a programmer\'s mistake', () => {
    const atp = defineJob({ id: 3, algorithm: 'atp', workers: [{ rank: 0, host: 'h1', udpPort: 0xbf01 }], parameterServer: { host: 'h4', udpPort: 0xbf00 } });
    expect(() => rinaWorkerCommands(atp, planRollout(withInaSwitches(topology, ['s1']), atp), topology)).toThrow(/has no ring/);
  });
});
