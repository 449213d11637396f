// ATP job specs: the `atp` object and ATP's rules on the common fields
// (docs/atp.md "Roles and levels" and "Workers"; docs/p4-programs.md §4), in
// JSON and in TypeScript, every problem reported at once with its path.
import { describe, expect, test } from 'vitest';
import { DEFAULT_TIMEOUTS, defineJob, parseJobSpec } from '../../src/controller/index.js';
import * as agentLimits from '../../src/agent/atp/atp-limits.js';
import { ATP_DEFAULT_VALUE_RANGE } from '../../src/agent/atp/atp-scale.js';
import * as controllerLimits from '../../src/controller/atp-limits.js';
import { problemsOf } from './helpers.js';

const atpJson = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 5,
  algorithm: 'atp',
  workers: [
    { rank: 0, host: 'h1', udp_port: 0xbf00 },
    { rank: 1, host: 'h2', udp_port: 0xbf01 },
  ],
  parameter_server: { host: 'h5', udp_port: 0xbf00 },
  ...extra,
});

describe('ATP job specs', () => {
  test('defaults: the whole shipped pool, 64 values, 100 window positions, R = 213, no marking, 1 s reclaim', () => {
    const job = parseJobSpec(atpJson());
    expect(job).toMatchObject({ poolSize: 4096, elementsPerPacket: 64, timeouts: DEFAULT_TIMEOUTS, fallback: 'ring' });
    expect(job.atp).toEqual({ window: 100, initialWindow: undefined, valueRange: 213, ecnThreshold: undefined, reclaimMs: 1000, poolBase: 0 });
  });

  test('the atp object in JSON and in TypeScript gives the same spec', () => {
    const json = parseJobSpec(atpJson({ pool_size: 65536, elements_per_packet: 32, atp: { window: 64, initial_window: 8, value_range: 256.5, ecn_threshold: 40, reclaim_ms: 5000 } }));
    const ts = defineJob({
      id: 5,
      algorithm: 'atp',
      workers: [
        { rank: 0, host: 'h1', udpPort: 0xbf00 },
        { rank: 1, host: 'h2', udpPort: 0xbf01 },
      ],
      parameterServer: { host: 'h5', udpPort: 0xbf00 },
      poolSize: 65536,
      elementsPerPacket: 32,
      atp: { window: 64, initialWindow: 8, valueRange: 256.5, ecnThreshold: 40, reclaimMs: 5000 },
    });
    expect(ts).toEqual(json);
    expect(json.atp).toEqual({ window: 64, initialWindow: 8, valueRange: 256.5, ecnThreshold: 40, reclaimMs: 5000, poolBase: 0 });
    expect(json.poolSize).toBe(65536);
  });

  test('every problem at once, at its path', () => {
    const bad = atpJson({
      id: 0,
      pool_size: 65537,
      workers: [
        { rank: 0, host: 'h1', udp_port: 48864 },
        { rank: 1, host: 'h2', udp_port: 0xbf10 },
      ],
      parameter_server: { host: 'h5', udp_port: 0xbeff },
      atp: { window: 4097, initial_window: 0, value_range: 0, ecn_threshold: 524287, reclaim_ms: 0, windw: 3 },
    });
    expect(problemsOf(() => parseJobSpec(bad))).toEqual([
      ['JOB_BAD_VALUE', '$.pool_size'],
      ['JOB_UNKNOWN_FIELD', '$.atp.windw'],
      ['JOB_BAD_VALUE', '$.atp.window'],
      ['JOB_BAD_VALUE', '$.atp.initial_window'],
      ['JOB_BAD_VALUE', '$.atp.value_range'],
      ['JOB_BAD_VALUE', '$.atp.ecn_threshold'],
      ['JOB_BAD_VALUE', '$.atp.reclaim_ms'],
      ['JOB_BAD_VALUE', '$.id'],
      ['JOB_BAD_VALUE', '$.workers[0].udp_port'],
      ['JOB_BAD_VALUE', '$.workers[1].udp_port'],
      ['JOB_BAD_VALUE', '$.parameter_server.udp_port'],
    ]);
  });

  test('the reclaim time must cover the longest resend timeout; an atp object on another algorithm is refused', () => {
    expect(problemsOf(() => parseJobSpec(atpJson({ timeouts: { max_timeout_ms: 2000 }, atp: { reclaim_ms: 1999 } })))).toEqual([['JOB_BAD_VALUE', '$.atp.reclaim_ms']]);
    expect(parseJobSpec(atpJson({ timeouts: { max_timeout_ms: 2000 }, atp: { reclaim_ms: 2000 } })).atp!.reclaimMs).toBe(2000);
    // The default follows the longest timeout, up to the 60 s limit.
    expect(parseJobSpec(atpJson({ timeouts: { max_timeout_ms: 2000 } })).atp!.reclaimMs).toBe(2000);
    expect(problemsOf(() => parseJobSpec(atpJson({ timeouts: { max_timeout_ms: 60_001 } })))).toEqual([['JOB_BAD_VALUE', '$.atp.reclaim_ms']]);
    expect(problemsOf(() => parseJobSpec({ ...atpJson(), algorithm: 'switchml', atp: {} }))).toEqual([['JOB_UNKNOWN_FIELD', '$.atp']]);
    expect(parseJobSpec({ ...atpJson(), algorithm: 'switchml' }).atp).toBeUndefined();
  });

  test("the controller's ATP numbers are the agents' and atp.p4's", () => {
    expect(controllerLimits.ATP_MAX_CONTRIBUTORS).toBe(agentLimits.ATP_MAX_CONTRIBUTORS);
    expect(controllerLimits.ATP_MAX_POOL).toBe(agentLimits.ATP_MAX_POOL);
    expect(controllerLimits.ATP_DEFAULT_WINDOW).toBe(agentLimits.ATP_DEFAULT_WINDOW);
    expect(controllerLimits.ATP_MAX_WINDOW).toBe(agentLimits.ATP_MAX_WINDOW);
    expect(controllerLimits.ATP_DEFAULT_VALUE_RANGE).toBe(ATP_DEFAULT_VALUE_RANGE);
    // docs/p4-programs.md §4: ecn_threshold is bit<19>, the default reclaim time 1 s, the pool 4096.
    expect(controllerLimits.ATP_ECN_THRESHOLD_OFF).toBe(2 ** 19 - 1);
    expect(controllerLimits.ATP_DEFAULT_RECLAIM_MS).toBe(1000);
    expect(controllerLimits.ATP_DEFAULT_POOL).toBe(4096);
  });
});
