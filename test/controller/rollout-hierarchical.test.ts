import { describe, expect, test } from 'vitest';
import { HierarchicalLayout } from '../../src/agent/baseline/hierarchical-layout.js';
import { defineJob, jobDemand, parseJobSpec, planRollout, rolloutStages, withInaSwitches, type RolloutPlan, type Topology } from '../../src/controller/index.js';
import { fixture } from './helpers.js';

const oneSpine = fixture('leaf-spine-1.json');
const twoSpines = fixture('leaf-spine-2.json');
const oneSwitch = fixture('single-switch.json');

const job = (hosts: readonly string[]) => defineJob({ id: 9, algorithm: 'hierarchical', workers: hosts.map((host, rank) => ({ rank, host, udpPort: 48864 })) });

const ringOf = (plan: RolloutPlan): string[] => plan.ring!.map((m) => `${m.position}:${m.kind}:${m.rack}:${m.agentRank}:[${m.ranks.join(',')}]`);
const rolesOf = (plan: RolloutPlan): unknown[] => plan.workers.map((w) => [w.rank, w.host, w.rack, w.role, w.ringPosition, w.aggregationPoint]);

/** Every stage of both leaf-spines, spines INA-capable or not: the plan must not change. */
const everyStage: Topology[] = [oneSpine, withInaSwitches(oneSpine, ['s3']), twoSpines, withInaSwitches(twoSpines, ['s3', 's4'])].flatMap((t) => rolloutStages(t).map((s) => s.topology));

describe('hierarchical: every rack reduced on its lowest rank, a ring of those leaders, no switch state', () => {
  test('two racks of two, ranks interleaved: the same plan at every stage of rollout', () => {
    for (const topology of everyStage) {
      const plan = planRollout(topology, job(['h1', 'h3', 'h2', 'h4']));
      expect(plan).toMatchObject({ requested: 'hierarchical', runs: 'hierarchical', inNetwork: 'none', aggregationPoints: [], expectedRingLength: 2, parameterServer: undefined });
      expect(plan.reasons).toEqual([
        'rack r1: its 2 workers send to their leader, the lowest rank, 0 on h1',
        'rack r2: its 2 workers send to their leader, the lowest rank, 1 on h3',
        'ring AllReduce among 2 rack leaders in rank order, each sending the result back to its rack, with no switch state',
      ]);
      expect(ringOf(plan)).toEqual(['0:rack:r1:0:[0,2]', '1:rack:r2:1:[1,3]']);
      expect(rolesOf(plan)).toEqual([
        [0, 'h1', 'r1', 'rack-agent', 0, undefined],
        [1, 'h3', 'r2', 'rack-agent', 1, undefined],
        [2, 'h2', 'r1', 'rack-member', undefined, undefined],
        [3, 'h4', 'r2', 'rack-member', undefined, undefined],
      ]);
      expect(jobDemand(plan)).toEqual({ jobId: 9, switches: [] });
    }
  });

  test('unequal racks with a one-worker rack; the ring runs in leader-rank order, not rack-name order', () => {
    const plan = planRollout(oneSpine, job(['h3', 'h1', 'h2']));
    expect(plan.reasons).toEqual([
      'rack r1: its 2 workers send to their leader, the lowest rank, 1 on h1',
      'rack r2: its one worker, rank 0 on h3, is its own leader',
      'ring AllReduce among 2 rack leaders in rank order, each sending the result back to its rack, with no switch state',
    ]);
    expect(ringOf(plan)).toEqual(['0:rack:r2:0:[0]', '1:rack:r1:1:[1,2]']);
    expect(plan.workers.map((w) => w.role)).toEqual(['rack-agent', 'rack-agent', 'rack-member']);
  });

  test('one rack: its leader sums and sends back, no ring', () => {
    const plan = planRollout(oneSwitch, job(['h2', 'h1', 'h4', 'h3']));
    expect(plan.reasons.at(-1)).toBe('all 4 workers share one rack: its leader sums and sends the result back, with no ring and no switch state');
    expect(plan.expectedRingLength).toBe(1);
    expect(plan.workers.map((w) => [w.host, w.role, w.ringPosition])).toEqual([['h2', 'rack-agent', 0], ['h1', 'rack-member', undefined], ['h4', 'rack-member', undefined], ['h3', 'rack-member', undefined]]);
  });

  test('racks of one worker each: plain ring AllReduce', () => {
    const plan = planRollout(oneSpine, job(['h3', 'h1']));
    expect(plan.reasons).toEqual([
      'rack r1: its one worker, rank 1 on h1, is its own leader',
      'rack r2: its one worker, rank 0 on h3, is its own leader',
      'every rack has one worker: ring AllReduce among 2 workers in rank order, as plain ring AllReduce, with no switch state',
    ]);
    expect(ringOf(plan)).toEqual(['0:rack:r2:0:[0]', '1:rack:r1:1:[1]']);
  });

  test.each([
    [oneSpine, ['h1', 'h3', 'h2', 'h4']],
    [oneSpine, ['h4', 'h1', 'h2']],
    [oneSwitch, ['h3', 'h1']],
    [twoSpines, ['h2']],
  ] as const)('the agents given the plan\'s racks by rank derive the plan\'s leaders and ring (%#)', (topology, hosts) => {
    const plan = planRollout(topology, job(hosts));
    const layout = new HierarchicalLayout(plan.workers.map((w) => w.rack));
    expect(layout.racks.map((r) => [r.ranks[0], r.ranks])).toEqual(plan.ring!.map((m) => [m.agentRank, m.ranks]));
  });

  test('"hierarchical" is a job spec algorithm in JSON too', () => {
    const spec = parseJobSpec({ id: 3, algorithm: 'hierarchical', workers: [{ rank: 0, host: 'h1', udp_port: 48864 }] });
    expect(spec.algorithm).toBe('hierarchical');
  });
});
