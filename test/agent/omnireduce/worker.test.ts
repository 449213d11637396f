import { describe, expect, it } from 'vitest';
import { OmniReduceWorker } from '../../../src/agent/omnireduce/omnireduce-worker.js';
import { socketAddress } from '../../../src/agent/transport/index.js';
import { expectedSwitchMlResult, sameBits } from '../switchml/helpers/numbers.js';
import { VirtualTime } from '../atp/helpers/virtual-time.js';
import { makeJob, runVirtual, VIRTUAL_TIMING } from './helpers/run-job.js';
import { sparseTensors } from './helpers/sparse-tensors.js';

describe('OmniReduce worker', () => {
  it('with a zero threshold above 0 skips small blocks (but never a slot\'s first block) and sums the rest exactly', async () => {
    const blockSize = 16;
    const slots = 4;
    const tensors = sparseTensors(3, 800, blockSize, 0.6, 'random', 'threshold');
    // Make some blocks small: every third block of every tensor scaled below the threshold.
    const threshold = 2 ** -14;
    for (const t of tensors) for (let b = 0; b < 50; b += 3) for (let i = b * blockSize; i < (b + 1) * blockSize; i++) t[i] = t[i]! * 2 ** -40;
    const skipped = tensors.map((t) => {
      const kept = Float32Array.from(t);
      for (let b = slots; b < 50; b++) {
        const block = kept.subarray(b * blockSize, (b + 1) * blockSize);
        if (block.every((x) => Math.abs(x) <= threshold)) block.fill(0);
      }
      return kept;
    });
    expect(skipped.some((t, r) => !sameBits(t, tensors[r]!))).toBe(true);
    const job = makeJob({ workers: 3, blockSize, shards: [slots], worker: { zeroThreshold: threshold } });
    const { value } = await runVirtual(job.net, job.time, Promise.all(job.workers.map((w, r) => w.allreduce(tensors[r]!))));
    const expected = expectedSwitchMlResult(skipped, blockSize);
    for (const { result } of value) expect(sameBits(result, expected)).toBe(true);
  });

  it('can run several calls in a row, the slots\' sets carrying on', async () => {
    const job = makeJob({ workers: 3, blockSize: 8, shards: [2, 3], impair: { loss: 0.05, duplicate: 0.05, reorder: 0.05 }, seed: 'calls' });
    for (let call = 0; call < 3; call++) {
      const tensors = sparseTensors(3, 333, 8, 0.3, 'clustered', `call-${call}`);
      const { value } = await runVirtual(job.net, job.time, Promise.all(job.workers.map((w, r) => w.allreduce(tensors[r]!))));
      const expected = expectedSwitchMlResult(tensors, 8);
      for (const { result } of value) expect(sameBits(result, expected)).toBe(true);
    }
  });

  it('drops a reply that comes from elsewhere than its slot\'s aggregator, and counts it', async () => {
    const job = makeJob({ workers: 2, blockSize: 8, shards: [2], seed: 'strangers' });
    const stranger = job.net.host();
    // Ahead of every reply of the shard, the stranger sends the same reply with its last value changed.
    const shard = job.shardHosts[0]!;
    const send = shard.sendTo.bind(shard);
    let forged = 0;
    shard.sendTo = (to, payload, length = payload.length) => {
      const copy = Buffer.from(payload.subarray(0, length));
      copy[length - 1] = copy[length - 1]! ^ 0x01;
      stranger.sendTo(to, copy);
      forged++;
      return send(to, payload, length);
    };
    const tensors = sparseTensors(2, 96, 8, 1, 'random', 'strangers');
    const { value } = await runVirtual(job.net, job.time, Promise.all(job.workers.map((w, r) => w.allreduce(tensors[r]!))));
    const expected = expectedSwitchMlResult(tensors, 8);
    for (const { result } of value) expect(sameBits(result, expected)).toBe(true);
    expect(forged).toBeGreaterThan(0);
    expect(value.reduce((n, { stats }) => n + stats.strangers, 0)).toBe(forged);
  });

  it('rejects NaN before sending anything, and a second call while one runs', async () => {
    const job = makeJob({ workers: 2, blockSize: 8, shards: [2] });
    const bad = new Float32Array(20);
    bad[13] = NaN;
    await expect(job.workers[0]!.allreduce(bad)).rejects.toMatchObject({ code: 'OMNIREDUCE_NON_FINITE_INPUT' });
    expect(job.workerHosts[0]!.datagramsOut).toBe(0);
    const running = job.workers[0]!.allreduce(new Float32Array(20));
    await expect(job.workers[0]!.allreduce(new Float32Array(20))).rejects.toMatchObject({ code: 'OMNIREDUCE_BUSY' });
    await job.workers[0]!.close();
    await expect(running).rejects.toMatchObject({ code: 'OMNIREDUCE_UNUSABLE' });
  });

  it('refuses shards that leave a gap in the slots', () => {
    const time = new VirtualTime();
    const address = socketAddress('10.0.0.1', 48880, 'aggregator');
    const transport = { sendTo: () => true, onDatagram: () => undefined };
    const make = (aggregators: { address: typeof address; firstSlot: number; slotCount: number }[]) =>
      new OmniReduceWorker({ transport, rank: 0, worldSize: 1, aggregators, blockSize: 8, clock: time, timers: time, ...VIRTUAL_TIMING });
    expect(() => make([{ address, firstSlot: 0, slotCount: 2 }, { address, firstSlot: 3, slotCount: 1 }])).toThrow(expect.objectContaining({ code: 'OMNIREDUCE_BAD_CONFIG' }));
    expect(() => make([{ address, firstSlot: 0, slotCount: 2 }, { address, firstSlot: 2, slotCount: 1 }])).not.toThrow();
  });
});
