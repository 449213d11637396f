/**
 * OmniReduce job specs (docs/topology.md, "omnireduce") and their plans:
 * host aggregator shards, the switch variant, and what runs where no switch
 * can aggregate.
 */
import { describe, expect, test } from 'vitest';
import { defineJob, omniReduceAgentCommands, parseJobSpec, planRollout, withInaSwitches } from '../../src/controller/index.js';
import { formatRolloutPlan } from '../../src/controller/plan-text.js';
import { fixture, problemsOf } from './helpers.js';

const oneSpine = fixture('leaf-spine-1.json');

const base = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 3,
  algorithm: 'omnireduce',
  workers: [
    { rank: 0, host: 'h1', udp_port: 48864 },
    { rank: 1, host: 'h2', udp_port: 48864 },
  ],
  ...extra,
});

describe('OmniReduce job specs', () => {
  test('the short form: the parameter server is one aggregator owning every slot; DPDK\'s block of 256 by default', () => {
    const job = parseJobSpec(base({ parameter_server: { host: 'h4', udp_port: 48880 } }));
    expect(job).toMatchObject({ poolSize: 64, elementsPerPacket: 256 });
    expect(job.omnireduce).toEqual({ aggregator: 'hosts', zeroThreshold: 0, shards: [{ host: 'h4', ip: undefined, udpPort: 48880, firstSlot: 0, slotCount: 64 }] });
    expect(parseJobSpec(base({ parameter_server: { host: 'h4', udp_port: 48880 }, pool_size: 8 })).omnireduce?.shards[0]?.slotCount).toBe(8);
  });

  test('shards own consecutive slot ranges in list order, and set the pool size when it is not given', () => {
    const shards = [
      { host: 'h3', udp_port: 48880, slots: 16 },
      { host: 'h4', udp_port: 48881, slots: 48 },
    ];
    const job = parseJobSpec(base({ omnireduce: { shards, zero_threshold: 0.001 } }));
    expect(job.poolSize).toBe(64);
    expect(job.omnireduce).toEqual({
      aggregator: 'hosts',
      zeroThreshold: 0.001,
      shards: [
        { host: 'h3', ip: undefined, udpPort: 48880, firstSlot: 0, slotCount: 16 },
        { host: 'h4', ip: undefined, udpPort: 48881, firstSlot: 16, slotCount: 48 },
      ],
    });
    // The TypeScript form reads the same.
    const ts = defineJob({ id: 3, algorithm: 'omnireduce', workers: [{ rank: 0, host: 'h1', udpPort: 48864 }], omnireduce: { shards: [{ host: 'h3', udpPort: 48880, slots: 4 }] } });
    expect(ts.omnireduce?.shards).toEqual([{ host: 'h3', ip: undefined, udpPort: 48880, firstSlot: 0, slotCount: 4 }]);
  });

  test('the switch variant needs no host aggregator, and defaults to omnireduce.p4\'s shipped block of 64', () => {
    const job = parseJobSpec(base({ omnireduce: { aggregator: 'switch' } }));
    expect(job.omnireduce).toEqual({ aggregator: 'switch', zeroThreshold: 0, shards: [] });
    expect(job.elementsPerPacket).toBe(64);
    expect(parseJobSpec(base({ elements_per_packet: 128, omnireduce: { aggregator: 'switch' } })).elementsPerPacket).toBe(128);
  });

  test.each([
    ['no aggregator at all', base(), [['JOB_NEEDS_PARAMETER_SERVER', '$.parameter_server']]],
    ['shards that do not add up to pool_size', base({ pool_size: 10, omnireduce: { shards: [{ host: 'h3', udp_port: 1, slots: 4 }] } }), [['JOB_BAD_VALUE', '$.omnireduce.shards']]],
    ['both forms', base({ parameter_server: { host: 'h4', udp_port: 2 }, omnireduce: { shards: [{ host: 'h3', udp_port: 1, slots: 4 }] } }), [['JOB_BAD_VALUE', '$.omnireduce.shards']]],
    ['a shard without slots', base({ omnireduce: { shards: [{ host: 'h3', udp_port: 1 }] } }), [['JOB_MISSING_FIELD', '$.omnireduce.shards[0].slots']]],
    ['an empty shard list', base({ omnireduce: { shards: [] } }), [['JOB_BAD_VALUE', '$.omnireduce.shards']]],
    ['an unknown aggregator', base({ omnireduce: { aggregator: 'nic' } }), [['JOB_BAD_VALUE', '$.omnireduce.aggregator']]],
    ['a negative zero threshold', base({ parameter_server: { host: 'h4', udp_port: 2 }, omnireduce: { zero_threshold: -1 } }), [['JOB_BAD_VALUE', '$.omnireduce.zero_threshold']]],
    ['an unknown field', base({ parameter_server: { host: 'h4', udp_port: 2 }, omnireduce: { block: 4 } }), [['JOB_UNKNOWN_FIELD', '$.omnireduce.block']]],
    ['"omnireduce" on another algorithm', { ...base({ omnireduce: {} }), algorithm: 'ring' }, [['JOB_UNKNOWN_FIELD', '$.omnireduce']]],
  ])('refused: %s', (_what, spec, problems) => {
    expect(problemsOf(() => parseJobSpec(spec))).toEqual(problems);
  });
});

describe('OmniReduce plans', () => {
  const shards = [
    { host: 'h3', udp_port: 48880, slots: 2 },
    { host: 'h4', udp_port: 48880, slots: 6 },
  ];

  test('hosts: every worker sends to the shards, with the block layout in the plan', () => {
    const plan = planRollout(withInaSwitches(oneSpine, ['s1']), parseJobSpec(base({ elements_per_packet: 64, omnireduce: { shards } })));
    expect(plan).toMatchObject({ runs: 'omnireduce', inNetwork: 'none', aggregationPoints: [], parameterServer: undefined });
    expect(plan.workers.map((w) => w.role)).toEqual(['to-host-aggregator', 'to-host-aggregator']);
    expect(plan.omnireduce).toMatchObject({ aggregator: 'hosts', blockSize: 64, slots: 8, zeroThreshold: 0 });
    expect(plan.omnireduce?.shards.map((s) => [s.host, s.firstSlot, s.slotCount, s.rack])).toEqual([['h3', 0, 2, 'r2'], ['h4', 2, 6, 'r2']]);
    expect(plan.reasons.at(-1)).toBe('2 workers send to 2 OmniReduce aggregator shards on h3 and h4, with no switch state');
    expect(formatRolloutPlan(plan)).toContain('host aggregator: h4 (10.0.2.2:48880), slots 2..7');
  });

  test('switch: the INA-capable ToR of the workers\' rack aggregates the whole job', () => {
    const plan = planRollout(withInaSwitches(oneSpine, ['s1']), parseJobSpec(base({ omnireduce: { aggregator: 'switch', shards } })));
    expect(plan).toMatchObject({ requested: 'omnireduce', runs: 'omnireduce', inNetwork: 'full' });
    expect(plan.aggregationPoints.map((p) => [p.switch, p.slots, p.members.map((m) => m.rank)])).toEqual([['s1', 8, [0, 1]]]);
    expect(plan.workers.map((w) => [w.role, w.aggregationPoint])).toEqual([['switch-aggregated', 's1'], ['switch-aggregated', 's1']]);
    expect(plan.omnireduce).toMatchObject({ aggregator: 'switch', shards: [] });
  });

  test('switch, but no INA-capable switch: the listed shards take over; without shards, the fallback', () => {
    const onHosts = planRollout(oneSpine, parseJobSpec(base({ omnireduce: { aggregator: 'switch', shards } })));
    expect(onHosts).toMatchObject({ runs: 'omnireduce', inNetwork: 'none', omnireduce: { aggregator: 'hosts' } });
    expect(onHosts.reasons[0]).toBe('all 2 workers are in rack r1, whose ToR s1 is not INA-capable');
    const ring = planRollout(oneSpine, parseJobSpec(base({ omnireduce: { aggregator: 'switch' } })));
    expect(ring).toMatchObject({ requested: 'omnireduce', runs: 'ring' });
    expect(ring.omnireduce).toBeUndefined();
    expect(ring.reasons).toContain('the job lists no host aggregators to fall back on');
  });

  test('switch, but the INA-capable ToR does not run omnireduce.p4: the shards take over, saying why', () => {
    const spec = parseJobSpec(base({ omnireduce: { aggregator: 'switch', shards } }));
    const plan = planRollout(withInaSwitches(oneSpine, ['s1']), spec, { omniReduceCapable: (sw) => sw !== 's1' });
    expect(plan).toMatchObject({ runs: 'omnireduce', inNetwork: 'none', omnireduce: { aggregator: 'hosts' } });
    expect(plan.reasons[0]).toBe('all 2 workers are in rack r1, whose ToR s1 is INA-capable but does not run omnireduce.p4');
  });

  test('switch across racks: an INA-capable spine on every path, as for SwitchML', () => {
    const spec = parseJobSpec({ ...base({ omnireduce: { aggregator: 'switch' } }), workers: [{ rank: 0, host: 'h1', udp_port: 1 }, { rank: 1, host: 'h3', udp_port: 1 }] });
    expect(planRollout(withInaSwitches(oneSpine, ['s3']), spec).aggregationPoints.map((p) => p.switch)).toEqual(['s3']);
  });
});

describe('OmniReduce agents from the plan', () => {
  const shards = [
    { host: 'h3', udp_port: 48880, slots: 2 },
    { host: 'h4', udp_port: 48881, slots: 6 },
  ];

  test('hosts: each shard listens where the workers send, owns its range, and knows the workers in rank order', () => {
    const spec = parseJobSpec(base({ elements_per_packet: 64, omnireduce: { shards, zero_threshold: 0.5 } }));
    const commands = omniReduceAgentCommands(spec, planRollout(oneSpine, spec), oneSpine);
    const aggregators = ['--aggregator', '10.0.2.1:48880@0+2', '--aggregator', '10.0.2.2:48881@2+6'];
    expect(commands.workers).toEqual([
      { rank: 0, host: 'h1', args: ['--local', '10.0.1.1:48864', '--rank', '0', '--workers', '2', ...aggregators, '--block-size', '64', '--zero-threshold', '0.5'] },
      { rank: 1, host: 'h2', args: ['--local', '10.0.1.2:48864', '--rank', '1', '--workers', '2', ...aggregators, '--block-size', '64', '--zero-threshold', '0.5'] },
    ]);
    expect(commands.aggregators).toEqual([
      { host: 'h3', firstSlot: 0, slotCount: 2, args: ['--listen', '10.0.2.1:48880', '--workers', '10.0.1.1:48864,10.0.1.2:48864', '--first-slot', '0', '--slots', '2', '--block-size', '64'] },
      { host: 'h4', firstSlot: 2, slotCount: 6, args: ['--listen', '10.0.2.2:48881', '--workers', '10.0.1.1:48864,10.0.1.2:48864', '--first-slot', '2', '--slots', '6', '--block-size', '64'] },
    ]);
  });

  test('switch: one aggregator, the switch\'s own address on the OmniReduce port block, owning every slot', () => {
    const topology = withInaSwitches(oneSpine, ['s1']);
    const spec = parseJobSpec(base({ pool_size: 16, omnireduce: { aggregator: 'switch' } }));
    const commands = omniReduceAgentCommands(spec, planRollout(topology, spec), topology);
    expect(commands.aggregators).toEqual([]);
    expect(commands.workers[1]!.args).toEqual(['--local', '10.0.1.2:48864', '--rank', '1', '--workers', '2', '--aggregator', `10.0.1.254:${0xbef0}@0+16`, '--block-size', '64', '--zero-threshold', '0']);
  });

  test('a plan that falls back runs other agents', () => {
    const spec = parseJobSpec(base({ omnireduce: { aggregator: 'switch' } }));
    expect(() => omniReduceAgentCommands(spec, planRollout(oneSpine, spec), oneSpine)).toThrow(/runs ring, not OmniReduce/);
  });
});
