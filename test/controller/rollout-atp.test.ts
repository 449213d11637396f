// ATP's rollout rule, with expectations worked out by hand from docs/atp.md
// ("Roles and levels") and the planner's documented choice of levels: the
// same spec at every stage, level 0 at INA ToRs, level 1 at an INA switch on
// every path to the parameter server, the bits and fan-ins of every worker,
// and refusals where the 5-bit fan-in cannot count the contributors.
import { describe, expect, test } from 'vitest';
import { defineJob, parseTopology, planRollout, withInaSwitches, type JobSpec, type RolloutPlan, type Topology } from '../../src/controller/index.js';
import { problemsOf } from './helpers.js';

const host = (rack: number, n: number) => ({ ip: `10.0.${rack}.${n}/24`, mac: `02:00:00:00:0${rack}:0${n}` });
const tor = (rack: number, extra: Record<string, unknown> = {}) => ({ role: 'tor', rack: `r${rack}`, ip: `10.0.${rack}.254`, mac: `02:00:00:00:0${rack}:fe`, ...extra });
const spine = (n: number) => ({ role: 'spine', ip: `10.0.0.${n}`, mac: `02:00:00:00:00:0${n}` });

/**
 * Three racks under spine s4 (and s5 when `spines` is 2): r1 = s1 {h1, h2}, r2 = s2 {h3, h4},
 * r3 = s3 {h5, h6}. Ports: hosts on 1 and 2, s4 on 3, s5 on 4.
 */
function leafSpine(spines: 1 | 2 = 1): Topology {
  const links: { nodes: string[] }[] = [];
  for (const r of [1, 2, 3]) {
    links.push({ nodes: [`h${2 * r - 1}`, `s${r}-p1`] }, { nodes: [`h${2 * r}`, `s${r}-p2`] }, { nodes: [`s${r}-p3`, `s4-p${r}`] });
    if (spines === 2) links.push({ nodes: [`s${r}-p4`, `s5-p${r}`] });
  }
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(2, 1), h4: host(2, 2), h5: host(3, 1), h6: host(3, 2) },
    switches: { s1: tor(1), s2: tor(2), s3: tor(3), s4: spine(4), ...(spines === 2 ? { s5: spine(5) } : {}) },
    links,
  });
}

/** Ranks interleave the racks: h1 0, h3 1, h2 2, h4 3. */
function atpJob(hosts = ['h1', 'h3', 'h2', 'h4'], ps = 'h5'): JobSpec {
  return defineJob({ id: 7, algorithm: 'atp', workers: hosts.map((h, rank) => ({ rank, host: h, udpPort: 0xbf00 + (rank % 16) })), parameterServer: { host: ps, udpPort: 0xbf00 } });
}

const plan = (topology: Topology, ina: string[], job = atpJob(), options = {}): RolloutPlan => planRollout(withInaSwitches(topology, ina), job, options);

/** Per rank: [bitmap0 bit, bitmap1 bit, fanIn0, fanIn1]. */
const bitsOf = (p: RolloutPlan) => p.atp!.workers.map((w) => [w.bitmap0Bit, w.bitmap1Bit, w.fanIn0, w.fanIn1]);
const levels = (p: RolloutPlan) => ({ level0: p.atp!.level0.map((l) => `${l.switch}:${l.ranks.join(',')}@${l.bitmap1Bit}`), level1: p.atp!.level1, fanIn1: p.atp!.fanIn1, inNetwork: p.inNetwork });

describe('ATP rollout: levels and bits', () => {
  test('no INA switch: every worker is a level-1 contributor of its own, the PS sums everything, and ATP still runs', () => {
    const p = plan(leafSpine(), []);
    expect(p.runs).toBe('atp');
    expect(levels(p)).toEqual({ level0: [], level1: undefined, fanIn1: 4, inNetwork: 'none' });
    // Racks in order (r1: ranks 0, 2; r2: ranks 1, 3), one bit per worker by rank.
    expect(bitsOf(p)).toEqual([
      [undefined, 0, 0, 4],
      [undefined, 2, 0, 4],
      [undefined, 1, 0, 4],
      [undefined, 3, 0, 4],
    ]);
    expect(p.aggregationPoints).toEqual([]);
    expect(p.workers.map((w) => w.role)).toEqual(['to-host-aggregator', 'to-host-aggregator', 'to-host-aggregator', 'to-host-aggregator']);
    expect(p.reasons).toEqual([
      'rack r1: ToR s1 is not INA-capable; its 2 workers are level-1 contributors of their own (bits 0 and 1)',
      'rack r2: ToR s2 is not INA-capable; its 2 workers are level-1 contributors of their own (bits 2 and 3)',
      'no level 1: no other switch runs atp.p4 between the 4 level-1 contributors and the parameter server on h5',
      'no switch aggregates: every worker sends to the parameter server on h5, which sums in software',
    ]);
  });

  test('a mixed stage: one INA ToR aggregates its rack at level 0, the legacy rack’s workers go on their own', () => {
    const p = plan(leafSpine(), ['s1']);
    expect(levels(p)).toEqual({ level0: ['s1:0,2@0'], level1: undefined, fanIn1: 3, inNetwork: 'partial' });
    expect(bitsOf(p)).toEqual([
      [0, 0, 2, 3],
      [undefined, 1, 0, 3],
      [1, 0, 2, 3],
      [undefined, 2, 0, 3],
    ]);
    expect(p.atp!.contributors).toEqual([
      { bitmap1Bit: 0, kind: 'rack', rack: 'r1', ranks: [0, 2], level0: 's1' },
      { bitmap1Bit: 1, kind: 'worker', rack: 'r2', ranks: [1], level0: undefined },
      { bitmap1Bit: 2, kind: 'worker', rack: 'r2', ranks: [3], level0: undefined },
    ]);
    expect(p.aggregationPoints.map((a) => [a.switch, a.scope, a.slots, a.members.map((m) => `${m.rank}@${m.port}#${m.workerId}`)])).toEqual([['s1', 'rack', 0, ['0@1#0', '2@2#1']]]);
    expect(p.reasons[0]).toBe('rack r1: ToR s1 aggregates its 2 workers at level 0, as bitmap1 bit 0');
    expect(p.reasons.at(-1)).toBe('the parameter server on h5 gets up to 3 pieces per sequence and completes the sum');
  });

  test('two INA ToRs and an INA spine: level 0 at both ToRs, level 1 at the spine, one packet per sequence at the PS', () => {
    const p = plan(leafSpine(), ['s1', 's2', 's4']);
    expect(levels(p)).toEqual({ level0: ['s1:0,2@0', 's2:1,3@1'], level1: 's4', fanIn1: 2, inNetwork: 'full' });
    expect(bitsOf(p)).toEqual([
      [0, 0, 2, 2],
      [0, 1, 2, 2],
      [1, 0, 2, 2],
      [1, 1, 2, 2],
    ]);
    // The level-1 point: every worker with its bitmap1 bit and the spine's port towards it.
    const l1 = p.aggregationPoints.find((a) => a.switch === 's4')!;
    expect([l1.scope, l1.members.map((m) => `${m.rank}@${m.port}#${m.workerId}`)]).toEqual(['job', ['0@1#0', '1@2#1', '2@1#0', '3@2#1']]);
    expect(p.workers.map((w) => [w.role, w.aggregationPoint, w.workerId])).toEqual([
      ['switch-aggregated', 's1', 0],
      ['switch-aggregated', 's2', 0],
      ['switch-aggregated', 's1', 1],
      ['switch-aggregated', 's2', 1],
    ]);
    expect(p.reasons.slice(2)).toEqual([
      'level 1: spine s4 runs atp.p4 and is on every path between the 2 level-1 contributors and the parameter server on h5; it sums them, so the parameter server gets one packet per sequence',
      'the parameter server on h5 gets one aggregate per sequence',
    ]);
  });

  test('of the PS’s ToR and the spine, the spine is level 1 (nearer the workers); the PS’s ToR alone serves too', () => {
    const both = plan(leafSpine(), ['s1', 's2', 's3', 's4']);
    expect(levels(both)).toMatchObject({ level1: 's4', fanIn1: 2 });
    expect(both.reasons[2]).toMatch(/\(also possible: s3; s4 is nearer the workers, so the sum crosses fewer links\)$/);
    expect(levels(plan(leafSpine(), ['s1', 's2', 's3']))).toEqual({ level0: ['s1:0,2@0', 's2:1,3@1'], level1: 's3', fanIn1: 2, inNetwork: 'full' });
  });

  test('a mixed rack under an INA spine: the spine adds the rack’s sum to the legacy workers’ packets', () => {
    const p = plan(leafSpine(), ['s1', 's4']);
    expect(levels(p)).toEqual({ level0: ['s1:0,2@0'], level1: 's4', fanIn1: 3, inNetwork: 'full' });
    expect(bitsOf(p)).toEqual([
      [0, 0, 2, 3],
      [undefined, 1, 0, 3],
      [1, 0, 2, 3],
      [undefined, 2, 0, 3],
    ]);
    expect(p.workers.map((w) => [w.aggregationPoint, w.workerId])).toEqual([
      ['s1', 0],
      ['s4', 1],
      ['s1', 1],
      ['s4', 2],
    ]);
  });

  test('two spines: neither is on every path, so no level 1', () => {
    const p = plan(leafSpine(2), ['s1', 's2', 's4', 's5']);
    expect(levels(p)).toEqual({ level0: ['s1:0,2@0', 's2:1,3@1'], level1: undefined, fanIn1: 2, inNetwork: 'partial' });
    expect(p.reasons[2]).toBe('no level 1: s4 and s5 run atp.p4 but are not on every path between the 2 level-1 contributors and the parameter server on h5');
  });

  test('the PS in a worker rack: its ToR is in the other racks’ way at level 0, so it becomes level 1', () => {
    // Workers h1, h2 (r1) and h3 (r2); the PS is h4, in r2.
    const p = plan(leafSpine(), ['s1', 's2'], atpJob(['h1', 'h2', 'h3'], 'h4'));
    expect(levels(p)).toEqual({ level0: ['s1:0,1@0'], level1: 's2', fanIn1: 2, inNetwork: 'full' });
    expect(p.reasons[1]).toBe("rack r2: ToR s2 is the job's level-1 switch (one level per switch); its worker is a level-1 contributor of its own (bit 1)");
    // Without an entry for level 1 there (s2 does not run atp.p4), s2 stays out of the way entirely.
    const noAtp = plan(leafSpine(), ['s1', 's2'], atpJob(['h1', 'h2', 'h3'], 'h4'), { atpCapable: (sw: string) => sw !== 's2' });
    expect(levels(noAtp)).toEqual({ level0: ['s1:0,1@0'], level1: undefined, fanIn1: 2, inNetwork: 'partial' });
    expect(noAtp.reasons[1]).toBe('rack r2: ToR s2 is INA-capable but does not run atp.p4; its worker is a level-1 contributor of its own (bit 1)');
  });

  test('every worker in the PS’s rack: its ToR is level 0 and the PS gets one aggregate', () => {
    const p = plan(leafSpine(), ['s3', 's4'], atpJob(['h6'], 'h5'));
    expect(levels(p)).toEqual({ level0: ['s3:0@0'], level1: undefined, fanIn1: 1, inNetwork: 'full' });
    expect(p.reasons).toEqual(['rack r3: ToR s3 aggregates its 1 worker at level 0, as bitmap1 bit 0', 'the parameter server on h5 gets one aggregate per sequence']);
  });

  test('the same spec at every stage of a rollout', () => {
    const job = atpJob();
    const stages = [[], ['s1'], ['s1', 's2'], ['s1', 's2', 's4']].map((ina) => plan(leafSpine(), ina, job));
    expect(stages.map((p) => [p.runs, p.inNetwork, p.atp!.fanIn1])).toEqual([
      ['atp', 'none', 4],
      ['atp', 'partial', 3],
      ['atp', 'partial', 2],
      ['atp', 'full', 2],
    ]);
  });
});

describe('ATP rollout: refusals', () => {
  const single = (workers: number): Topology =>
    parseTopology({
      hosts: Object.fromEntries(Array.from({ length: workers + 1 }, (_, i) => [`h${i + 1}`, { ip: `10.0.${1 + (i >> 8)}.${(i % 256) + 1}/16`, mac: `02:00:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')}` }])),
      switches: { s1: { ip: '10.0.0.254', mac: '02:00:00:00:ff:fe' } },
      links: Array.from({ length: workers + 1 }, (_, i) => ({ nodes: [`h${i + 1}`, `s1-p${i + 1}`] })),
    });
  const many = (n: number): JobSpec =>
    defineJob({ id: 9, algorithm: 'atp', workers: Array.from({ length: n }, (_, rank) => ({ rank, host: `h${rank + 1}`, udpPort: 0xbf00 })), parameterServer: { host: `h${n + 1}`, udpPort: 0xbf00 } });

  test('31 workers fit a level; 32 do not, with or without INA', () => {
    expect(plan(single(31), [], many(31)).atp!.fanIn1).toBe(31);
    expect(levels(plan(single(31), ['s1'], many(31)))).toMatchObject({ level0: [expect.stringMatching(/^s1:/)], fanIn1: 1 });
    for (const ina of [[], ['s1']]) {
      expect(problemsOf(() => plan(single(32), ina, many(32)))).toEqual([['ATP_TOO_MANY_CONTRIBUTORS', '$.workers']]);
    }
  });

  test('a parameter server on a worker’s host', () => {
    expect(problemsOf(() => plan(leafSpine(), ['s1'], atpJob(['h1', 'h2'], 'h2')))).toEqual([['ATP_PS_ON_WORKER_HOST', '$.parameter_server']]);
  });
});
