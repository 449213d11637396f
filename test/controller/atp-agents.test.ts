// From an ATP plan to the agents' configurations: the values are the plan's
// (worked out by hand in rollout-atp.test.ts from docs/atp.md), and the
// agents' own parsers and layout (src/agent/atp) take them unchanged and
// number the contributors the same way.
import { describe, expect, test } from 'vitest';
import { layoutAtpJob } from '../../src/agent/atp/atp-job-layout.js';
import { checkPlacement, type AtpWorkerOptions } from '../../src/agent/atp/atp-options.js';
import { parseAtpPsArgs } from '../../src/agent/atp/ps-main.js';
import { parseAtpWorkerArgs } from '../../src/agent/atp/worker-args.js';
import type { DatagramTransport } from '../../src/agent/transport/index.js';
import { atpAgentConfigs, atpPsArgs, atpWorkerArgs, defineJob, parseTopology, planRollout, withInaSwitches } from '../../src/controller/index.js';

/** r1 = s1 {h1, h2}, r2 = s2 {h3, h4}, the PS h5 on s3; spine s4. */
const topology = parseTopology({
  hosts: Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5'].map((h, i) => [h, { ip: `10.0.${(i >> 1) + 1}.${(i % 2) + 1}/24`, mac: `02:00:00:00:0${(i >> 1) + 1}:0${(i % 2) + 1}` }])),
  switches: Object.fromEntries(['s1', 's2', 's3', 's4'].map((s, i) => [s, { role: i < 3 ? 'tor' : 'spine', ip: `10.0.9.${i + 1}`, mac: `02:00:00:00:09:0${i + 1}` }])),
  links: [
    { nodes: ['h1', 's1-p1'] },
    { nodes: ['h2', 's1-p2'] },
    { nodes: ['h3', 's2-p1'] },
    { nodes: ['h4', 's2-p2'] },
    { nodes: ['h5', 's3-p1'] },
    { nodes: ['s1-p3', 's4-p1'] },
    { nodes: ['s2-p3', 's4-p2'] },
    { nodes: ['s3-p3', 's4-p3'] },
  ],
});
const jobInput = {
  id: 7,
  algorithm: 'atp',
  workers: ['h1', 'h3', 'h2', 'h4'].map((host, rank) => ({ rank, host, udpPort: 0xbf01 + rank })),
  parameterServer: { host: 'h5', udpPort: 0xbf00 },
  poolSize: 512,
  elementsPerPacket: 32,
  timeouts: { timeoutMs: 30.5, maxRetries: 12 },
  atp: { window: 50, initialWindow: 4, valueRange: 100, reclaimMs: 2000 },
} as const;
const job = defineJob(jobInput);

describe('ATP agent configurations from a plan', () => {
  test('a mixed stage: the rack behind s1 at level 0, the workers behind legacy s2 on their own', () => {
    const { workers, ps } = atpAgentConfigs(job, planRollout(withInaSwitches(topology, ['s1']), job));
    const constants = { jobId: 7, poolSize: 512, poolBase: 0, elementsPerPacket: 32, maxWindow: 50, valueRange: 100 };
    const timing = { timeoutMs: 30.5, backoff: { factor: 2, minTimeoutMs: 20, maxTimeoutMs: 1000 }, maxRetries: 12, initialWindow: 4 };
    const common = { ...constants, ...timing, worldSize: 4, psAddress: '10.0.3.1', psPort: 0xbf00, fanIn1: 3 };
    expect(workers).toEqual([
      { ...common, rank: 0, host: 'h1', localAddress: '10.0.1.1', localPort: 0xbf01, bitmap0Bit: 0, bitmap1Bit: 0, fanIn0: 2 },
      { ...common, rank: 1, host: 'h3', localAddress: '10.0.2.1', localPort: 0xbf02, bitmap0Bit: undefined, bitmap1Bit: 1, fanIn0: 0 },
      { ...common, rank: 2, host: 'h2', localAddress: '10.0.1.2', localPort: 0xbf03, bitmap0Bit: 1, bitmap1Bit: 0, fanIn0: 2 },
      { ...common, rank: 3, host: 'h4', localAddress: '10.0.2.2', localPort: 0xbf04, bitmap0Bit: undefined, bitmap1Bit: 2, fanIn0: 0 },
    ]);
    expect(ps).toEqual({
      ...constants,
      host: 'h5',
      listenAddress: '10.0.3.1',
      listenPort: 0xbf00,
      racks: [
        { aggregating: true, workers: [{ address: '10.0.1.1', port: 0xbf01 }, { address: '10.0.1.2', port: 0xbf03 }] },
        { aggregating: false, workers: [{ address: '10.0.2.1', port: 0xbf02 }] },
        { aggregating: false, workers: [{ address: '10.0.2.2', port: 0xbf04 }] },
      ],
    });
    expect(atpWorkerArgs(workers[0]!)).toEqual(
      '--local 10.0.1.1:48897 --ps 10.0.3.1:48896 --job 7 --pool 512 --elements 32 --window 50 --range 100 --rank 0 --workers 4 --bitmap1-bit 0 --fan-in1 3 --bitmap0-bit 0 --fan-in0 2 --initial-window 4 --timeout 31 --max-retries 12'.split(' '),
    );
    expect(atpPsArgs(ps)).toEqual(
      '--listen 10.0.3.1:48896 --job 7 --pool 512 --elements 32 --window 50 --range 100 --rack ina:10.0.1.1:48897,10.0.1.2:48899 --rack legacy:10.0.2.1:48898 --rack legacy:10.0.2.2:48900'.split(' '),
    );
  });

  test('the agents take the configurations: their parsers accept the arguments and their layout gives the plan’s bits', () => {
    for (const ina of [[], ['s1'], ['s1', 's2'], ['s1', 's2', 's4']]) {
      const plan = planRollout(withInaSwitches(topology, ina), job);
      const { workers, ps } = atpAgentConfigs(job, plan);
      for (const w of workers) {
        const parsed = parseAtpWorkerArgs([...atpWorkerArgs(w), '--length', '10'])!;
        expect(checkPlacement(parsed)).toEqual({ bitmap0Bit: w.bitmap0Bit, bitmap1Bit: w.bitmap1Bit, fanIn0: w.fanIn0, fanIn1: w.fanIn1 });
        expect(parsed).toMatchObject({ jobId: 7, rank: w.rank, worldSize: 4, poolSize: 512, elementsPerPacket: 32, maxWindow: 50, valueRange: 100, psAddress: '10.0.3.1', psPort: 0xbf00 });
        // The class's options take a configuration as it is, plus a transport.
        const options = { ...w, transport: undefined as unknown as DatagramTransport } satisfies AtpWorkerOptions;
        expect(options.fanIn1).toBe(plan.atp!.fanIn1);
      }
      const racks = parseAtpPsArgs(atpPsArgs(ps))!.racks;
      const layout = layoutAtpJob(racks);
      expect(layout.contributors.map((c) => [c.aggregating, c.workers.map((a) => `${a.address}:${a.port}`)])).toEqual(
        plan.atp!.contributors.map((c) => [c.kind === 'rack', c.ranks.map((r) => `${workers[r]!.localAddress}:${workers[r]!.localPort}`)]),
      );
      // The agents' layout numbers ranks its own way; per worker address, its bits are the plan's.
      const byAddress = new Map(layout.contributors.flatMap((c, bit) => c.workers.map((a, i) => [`${a.address}:${a.port}`, [c.aggregating ? i : undefined, bit]] as const)));
      expect(workers.map((w) => byAddress.get(`${w.localAddress}:${w.localPort}`))).toEqual(workers.map((w) => [w.bitmap0Bit, w.bitmap1Bit]));
    }
  });

  test('a static split: pool_base reaches both agents, and their parsers read it back', () => {
    const split = defineJob({ ...jobInput, atp: { ...jobInput.atp, poolBase: 1000 } });
    const { workers, ps } = atpAgentConfigs(split, planRollout(withInaSwitches(topology, ['s1']), split));
    expect(workers.map((w) => w.poolBase)).toEqual([1000, 1000, 1000, 1000]);
    expect(ps.poolBase).toBe(1000);
    expect(parseAtpWorkerArgs([...atpWorkerArgs(workers[0]!), '--length', '10'])).toMatchObject({ poolBase: 1000, poolSize: 512 });
    expect(parseAtpPsArgs(atpPsArgs(ps))).toMatchObject({ poolBase: 1000, poolSize: 512 });
    // Shared (0, the default): no flag, the agents' own default.
    expect(atpWorkerArgs(atpAgentConfigs(job, planRollout(topology, job)).workers[0]!)).not.toContain('--pool-base');
  });

  test('a pool_base that puts the job past the 16-bit index is refused with the field named', () => {
    expect(() => defineJob({ ...jobInput, atp: { ...jobInput.atp, poolBase: 0x1_0000 - 511 } })).toThrow(/poolBase.*below 65536/s);
    expect(defineJob({ ...jobInput, atp: { ...jobInput.atp, poolBase: 0x1_0000 - 512 } }).atp!.poolBase).toBe(0x1_0000 - 512);
  });

  test('another algorithm’s plan is a misuse', () => {
    const ring = defineJob({ id: 7, algorithm: 'ring', workers: [{ rank: 0, host: 'h1', udpPort: 9000 }] });
    expect(() => atpAgentConfigs(ring, planRollout(topology, ring))).toThrow(TypeError);
  });
});
