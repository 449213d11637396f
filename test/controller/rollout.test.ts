import { describe, expect, test } from 'vitest';
import {
  defineJob,
  jobDemand,
  planRollout,
  rolloutStages,
  withInaSwitches,
  type Algorithm,
  type JobSpec,
  type RolloutPlan,
  type Topology,
} from '../../src/controller/index.js';
import { fixture, problemsOf } from './helpers.js';

const oneSpine = fixture('leaf-spine-1.json');
const twoSpines = fixture('leaf-spine-2.json');

/** One job spec, used unchanged at every stage. Ranks interleave the racks: h1 0, h3 1, h2 2, h4 3. */
function job(algorithm: Algorithm, hosts = ['h1', 'h3', 'h2', 'h4'], extra: Partial<Parameters<typeof defineJob>[0]> = {}): JobSpec {
  return defineJob({
    id: 7,
    algorithm,
    workers: hosts.map((host, rank) => ({ rank, host, udpPort: 48864 })),
    poolSize: 128,
    parameterServer: { host: 'h4', udpPort: 48880 },
    ...extra,
  });
}

const summary = (plan: RolloutPlan): unknown => ({
  runs: plan.runs,
  inNetwork: plan.inNetwork,
  points: plan.aggregationPoints.map((p) => `${p.switch}:${p.scope}:${p.members.map((m) => `${m.rank}@${m.port}#${m.workerId}`).join(',')}`),
  reasons: plan.reasons,
});

const RING_OF_4 = 'ring AllReduce among 4 workers in rank order, with no switch state';

describe('rollout stages', () => {
  test('0, 1, … all ToRs INA-capable, in name order; spines keep what the file says', () => {
    const stages = rolloutStages(oneSpine);
    expect(stages.map((s) => s.inaTors)).toEqual([[], ['s1'], ['s1', 's2']]);
    expect(stages.map((s) => [...s.topology.switches.values()].filter((sw) => sw.ina).map((sw) => sw.name))).toEqual([[], ['s1'], ['s1', 's2']]);
    const withSpine = rolloutStages(withInaSwitches(oneSpine, ['s3']));
    expect(withSpine.map((s) => [...s.topology.switches.values()].filter((sw) => sw.ina).map((sw) => sw.name))).toEqual([['s3'], ['s1', 's3'], ['s1', 's2', 's3']]);
    expect(oneSpine.switches.get('s1')!.ina).toBe(false);
  });

  test('only switches with an address can become INA-capable', () => {
    expect(problemsOf(() => withInaSwitches(fixture('tutorial-pod.json'), ['s1']))).toEqual([['TOPOLOGY_INA_WITHOUT_ADDRESS', '$.switches.s1']]);
    expect(problemsOf(() => withInaSwitches(oneSpine, ['s9']))).toEqual([['TOPOLOGY_NO_SUCH_NODE', '$.switches']]);
  });
});

describe('SwitchML: one switch for the whole job', () => {
  test('across racks, ToRs do not help: the job falls back to the ring at every ToR stage', () => {
    for (const stage of rolloutStages(oneSpine)) {
      expect(summary(planRollout(stage.topology, job('switchml')))).toEqual({
        runs: 'ring',
        inNetwork: 'none',
        points: [],
        reasons: [
          'workers span racks r1 and r2; spine s3 is on every path between them but not INA-capable',
          'no switch can aggregate for switchml: falling back to ring AllReduce',
          RING_OF_4,
        ],
      });
    }
  });

  test('an INA-capable spine on every path aggregates all workers, at every ToR stage', () => {
    for (const stage of rolloutStages(withInaSwitches(oneSpine, ['s3']))) {
      const plan = planRollout(stage.topology, job('switchml'));
      expect(summary(plan)).toEqual({
        runs: 'switchml',
        inNetwork: 'full',
        points: ['s3:job:0@1#0,1@2#1,2@1#2,3@2#3'],
        reasons: ['workers span racks r1 and r2; spine s3 is INA-capable and on every path between them', 's3 aggregates all 4 workers of job 7'],
      });
      expect(plan.workers.map((w) => [w.rank, w.host, w.role, w.aggregationPoint, w.workerId])).toEqual([
        [0, 'h1', 'switch-aggregated', 's3', 0],
        [1, 'h3', 'switch-aggregated', 's3', 1],
        [2, 'h2', 'switch-aggregated', 's3', 2],
        [3, 'h4', 'switch-aggregated', 's3', 3],
      ]);
      expect(jobDemand(plan)).toEqual({ jobId: 7, switches: [{ switch: 's3', slots: 128, workers: 4 }] });
    }
  });

  test('two spines: neither is on every path, unless the rule allows any shortest path', () => {
    const both = withInaSwitches(twoSpines, ['s3', 's4']);
    expect(planRollout(both, job('switchml')).reasons).toEqual([
      'workers span racks r1 and r2, and no spine or core switch is on every path between them',
      'no switch can aggregate for switchml: falling back to ring AllReduce',
      RING_OF_4,
    ]);
    expect(summary(planRollout(both, job('switchml'), { ancestorRule: 'some-shortest-path' }))).toMatchObject({
      runs: 'switchml',
      points: ['s3:job:0@1#0,1@2#1,2@1#2,3@2#3'],
      reasons: ['workers span racks r1 and r2; spine s3 is INA-capable and on a shortest path between them (nearest of s3 and s4)', 's3 aggregates all 4 workers of job 7'],
    });
    expect(planRollout(withInaSwitches(twoSpines, ['s4']), job('switchml'), { ancestorRule: 'some-shortest-path' }).aggregationPoints[0]!.switch).toBe('s4');
  });

  test('all workers in one rack: its ToR, once it is INA-capable', () => {
    const rackJob = job('switchml', ['h2', 'h1']);
    const [none, first, all] = rolloutStages(oneSpine).map((s) => planRollout(s.topology, rackJob));
    expect(summary(none!)).toEqual({
      runs: 'ring',
      inNetwork: 'none',
      points: [],
      reasons: [
        'all 2 workers are in rack r1, whose ToR s1 is not INA-capable',
        'no switch can aggregate for switchml: falling back to ring AllReduce',
        'ring AllReduce among 2 workers in rank order, with no switch state',
      ],
    });
    for (const plan of [first!, all!]) {
      expect(summary(plan)).toEqual({
        runs: 'switchml',
        inNetwork: 'full',
        points: ['s1:job:0@2#0,1@1#1'],
        reasons: ['all 2 workers are in rack r1, whose ToR s1 is INA-capable', 's1 aggregates all 2 workers of job 7'],
      });
    }
    expect(planRollout(withInaSwitches(oneSpine, ['s3']), rackJob).runs).toBe('ring');
  });

  test('the fallback may be a parameter server', () => {
    const plan = planRollout(oneSpine, job('switchml', undefined, { fallback: 'ps' }));
    expect(plan.runs).toBe('ps');
    expect(plan.parameterServer).toMatchObject({ host: 'h4', udpPort: 48880, tor: 's2' });
    expect(plan.reasons.slice(1)).toEqual(['no switch can aggregate for switchml: falling back to a parameter server', '4 workers send to the parameter server on h4, with no switch state']);
    expect(plan.workers.map((w) => w.role)).toEqual(Array(4).fill('to-host-aggregator'));
  });

  test('more workers than the bitmap has bits cannot use one switch', () => {
    const topo = fixture('single-switch.json');
    const many = defineJob({ id: 1, algorithm: 'switchml', workers: Array.from({ length: 33 }, (_, rank) => ({ rank, host: `h${(rank % 4) + 1}`, udpPort: 40000 + rank })) });
    expect(planRollout(topo, many).reasons[0]).toBe('33 workers exceed the 32 that one switch\'s seen bitmap can track');
    const four = defineJob({ id: 1, algorithm: 'switchml', workers: [1, 2, 3, 4].map((h, rank) => ({ rank, host: `h${h}`, udpPort: 48864 })) });
    expect(summary(planRollout(topo, four))).toMatchObject({ runs: 'switchml', points: ['s1:job:0@1#0,1@2#1,2@3#2,3@4#3'] });
  });
});

describe('Rina: INA racks as abstracted workers, the rest individually', () => {
  const ringOf = (plan: RolloutPlan): string[] => plan.ring!.map((m) => `${m.position}:${m.kind}:${m.rack}:${m.agentRank}:[${m.ranks.join(',')}]`);

  test('0, 1 and 2 INA-capable ToRs', () => {
    const [none, one, all] = rolloutStages(oneSpine).map((s) => planRollout(s.topology, job('rina')));
    expect(none!.runs).toBe('ring');
    expect(none!.expectedRingLength).toBe(4);
    expect(none!.reasons).toEqual([
      'rack r1: ToR s1 is not INA-capable, its 2 workers join the ring individually',
      'rack r2: ToR s2 is not INA-capable, its 2 workers join the ring individually',
      'no rack has an INA-capable ToR: Rina is plain ring AllReduce',
      RING_OF_4,
    ]);

    expect(summary(one!)).toEqual({
      runs: 'rina',
      inNetwork: 'partial',
      points: ['s1:rack:0@1#0,2@2#1'],
      reasons: [
        'rack r1: ToR s1 is INA-capable, its 2 workers form one ring member whose agent is rank 0 on h1',
        'rack r2: ToR s2 is not INA-capable, its 2 workers join the ring individually',
        'the ring has 3 members instead of 4: 1 INA rack and 2 individual workers',
      ],
    });
    expect(one!.expectedRingLength).toBe(3);
    expect(ringOf(one!)).toEqual(['0:rack:r1:0:[0,2]', '1:worker:r2:1:[1]', '2:worker:r2:3:[3]']);
    expect(one!.workers.map((w) => [w.rank, w.role, w.aggregationPoint, w.workerId, w.ringPosition])).toEqual([
      [0, 'rack-agent', 's1', 0, 0],
      [1, 'ring-member', undefined, undefined, 1],
      [2, 'rack-member', 's1', 1, undefined],
      [3, 'ring-member', undefined, undefined, 2],
    ]);

    expect(all!.inNetwork).toBe('full');
    expect(all!.expectedRingLength).toBe(2);
    expect(ringOf(all!)).toEqual(['0:rack:r1:0:[0,2]', '1:rack:r2:1:[1,3]']);
    expect(all!.reasons.at(-1)).toBe('the ring has 2 members instead of 4: 2 INA racks and 0 individual workers');
    expect(all!.workers.map((w) => w.role)).toEqual(['rack-agent', 'rack-agent', 'rack-member', 'rack-member']);
  });

  test('only the second rack INA-capable: the ring still runs in agent-rank order', () => {
    const plan = planRollout(withInaSwitches(oneSpine, ['s2']), job('rina'));
    expect(ringOf(plan)).toEqual(['0:worker:r1:0:[0]', '1:rack:r2:1:[1,3]', '2:worker:r1:2:[2]']);
    expect(plan.reasons[1]).toBe('rack r2: ToR s2 is INA-capable, its 2 workers form one ring member whose agent is rank 1 on h3');
  });
});

describe('algorithms without switch state plan the same at every stage', () => {
  const stages: Topology[] = [...rolloutStages(withInaSwitches(twoSpines, ['s3'])).map((s) => s.topology)];

  test.each([
    ['ring', 'ring', [RING_OF_4]],
    ['ps', 'ps', ['4 workers send to the parameter server on h4, with no switch state']],
    ['omnireduce', 'omnireduce', ['OmniReduce aggregates on hosts, as in the paper', '4 workers send to the OmniReduce aggregator on h4, with no switch state']],
  ] as const)('%s', (algorithm, runs, reasons) => {
    for (const topo of stages) {
      const plan = planRollout(topo, job(algorithm));
      expect(summary(plan)).toEqual({ runs, inNetwork: 'none', points: [], reasons });
      expect(jobDemand(plan)).toEqual({ jobId: 7, switches: [] });
    }
  });

  test('a ring lists every worker in rank order', () => {
    const plan = planRollout(oneSpine, job('ring'));
    expect(plan.expectedRingLength).toBe(4);
    expect(plan.workers.map((w) => [w.host, w.ringPosition])).toEqual([['h1', 0], ['h3', 1], ['h2', 2], ['h4', 3]]);
  });
});

test('a job whose hosts are not in the topology is refused with the path', () => {
  expect(problemsOf(() => planRollout(oneSpine, job('ring', ['h1', 'h8'])))).toEqual([['JOB_UNKNOWN_HOST', '$.workers[1].host']]);
});
