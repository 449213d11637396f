// An autonomous Rina ring under seeded loss, duplication and reordering on
// every link, in virtual time: results stay the exact integers of
// docs/rina.md §5 on every worker, and each run ends within a bounded number
// of clock steps (runVirtual's bound), several calls in a row.
import { describe, expect, it } from 'vitest';
import { expectedRina, rinaTensors, sameBits } from './helpers/expected.js';
import { allreduceAll, autonomousRing } from './helpers/run-ring.js';

const E = 8;

describe('faults', () => {
  it.each([
    ['1% loss', { loss: 0.01 }],
    ['5% loss', { loss: 0.05 }],
    ['10% loss', { loss: 0.1 }],
    ['10% duplication', { duplicate: 0.1 }],
    ['20% reordering', { reorder: 0.2 }],
    ['5% loss, 5% duplication, 10% reordering', { loss: 0.05, duplicate: 0.05, reorder: 0.1 }],
  ])('%s: exact on every worker, three calls in a row', async (_name, impair) => {
    for (const n of [3, 5]) {
      const ring = autonomousRing(n, { impair, seed: `faults-${n}`, poolSize: 3 });
      for (const length of [97, 300, 45]) {
        const tensors = rinaTensors(n, length, `${n}-${length}`);
        const results = await allreduceAll(ring, tensors);
        const expected = expectedRina(tensors, n, E);
        for (const r of results) expect(sameBits(r.result, expected), `n=${n} length=${length}`).toBe(true);
      }
      if ('loss' in impair) expect(ring.net.lost).toBeGreaterThan(0);
    }
  });

  it('a member that never answers fails the others\' calls with RINA_TIMEOUT after the retries', async () => {
    const ring = autonomousRing(3, { worker: { maxRetries: 3 } });
    const tensors = rinaTensors(3, 40, 'silent');
    const { runVirtual } = await import('./helpers/run-ring.js');
    const calls = ring.workers.slice(0, 2).map((w, r) => w.allreduce(tensors[r]!).then(() => 'done', (err: { code?: string }) => err.code));
    await ring.workers[2]!.close();
    const { value } = await runVirtual(ring.net, ring.time, Promise.all(calls));
    expect(value).toEqual(['RINA_TIMEOUT', 'RINA_TIMEOUT']);
  });
});

describe('junk on the wire', () => {
  it('datagrams that are not this pass\'s packets are ignored and counted; the ring stays exact', async () => {
    const { encodeRina, rinaChunkField, RinaMessageType, RinaPhase } = await import('../../../src/wire/index.js');
    const { runVirtual } = await import('./helpers/run-ring.js');
    const ring = autonomousRing(3);
    const tensors = rinaTensors(3, 50, 'junk');
    const calls = Promise.all(ring.workers.map((w, r) => w.allreduce(tensors[r]!)));
    const junk = (fields: Partial<Parameters<typeof encodeRina>[2]>, count: number): Buffer => {
      const buf = Buffer.alloc(20 + 4 * count);
      encodeRina(buf, 0, {
        messageType: RinaMessageType.RING_DATA, phase: RinaPhase.SCATTER_REDUCE, jobId: 5, senderRank: 2, workerId: 0, exponent: -128,
        step: 0, segment: 2, chunk: rinaChunkField(1, 0), slot: 0, set: 0, elementCount: count, values: new Array<number>(count).fill(7), ...fields,
      });
      return buf;
    };
    const target = ring.workers[0]!.options.ring[0]!.workers[0]!;
    const sender = ring.net.host(9);
    for (const buf of [
      junk({}, 0), junk({}, 3), junk({ step: 9 }, 8), junk({ segment: 1 }, 8), junk({ chunk: rinaChunkField(1, 999) }, 8),
      junk({ jobId: 6 }, 8), junk({ messageType: RinaMessageType.ACK, senderRank: 1 }, 4), Buffer.from('not a rina packet'),
    ]) sender.sendTo(target, buf);
    const { value } = await runVirtual(ring.net, ring.time, calls);
    const expected = expectedRina(tensors, 3, E);
    for (const r of value) expect(sameBits(r.result, expected)).toBe(true);
    expect(value[0]!.stats.ignored).toBeGreaterThanOrEqual(7);
  });
});
