// Rina with no INA rack (every member autonomous): plain ring AllReduce over
// RING_DATA and ACKs, on the in-memory network in virtual time. The results
// must be the integers docs/rina.md §5 prescribes (computed independently in
// helpers/expected.ts), bit for bit on every worker, and within the stated
// bound of the float64 sum.
import { describe, expect, it } from 'vitest';
import { RINA_ERROR_CODES } from '../../../src/agent/rina/rina-error.js';
import { boundViolations, expectedRina, rinaTensors, sameBits } from './helpers/expected.js';
import { allreduceAll, autonomousRing } from './helpers/run-ring.js';

const E = 8;

describe('an autonomous ring', () => {
  it.each([2, 3, 4, 5, 6, 7, 8])('of %i members is exact for odd tensor sizes', async (n) => {
    const ring = autonomousRing(n);
    for (const length of [1, 7, 61, 257]) {
      const tensors = rinaTensors(n, length, `n${n}-l${length}`);
      const results = await allreduceAll(ring, tensors);
      const expected = expectedRina(tensors, n, E);
      for (const r of results) expect(sameBits(r.result, expected), `n=${n} length=${length}`).toBe(true);
      expect(boundViolations(results[0]!.result, tensors, n, E)).toBe(0);
      expect(results[0]!.stats).toMatchObject({ algorithm: 'rina', role: 'autonomous', ringLength: n, retransmissions: 0 });
    }
  });

  it('runs call after call, each pass with its own epoch, and a tensor of 0 elements sends nothing', async () => {
    const ring = autonomousRing(3, { poolSize: 2 });
    const epochs: (readonly [number, number])[] = [];
    for (const length of [100, 0, 33]) {
      const tensors = rinaTensors(3, length, `calls-${length}`);
      const results = await allreduceAll(ring, tensors);
      for (const r of results) expect(sameBits(r.result, expectedRina(tensors, 3, E))).toBe(true);
      if (length === 0) expect(results[0]!.stats.messagesSent).toBe(0);
      else epochs.push(results[0]!.stats.epochs);
    }
    expect(epochs).toEqual([[1, 2], [3, 4]]);
  });

  it('a ring of one returns the tensor\'s own quantised values', async () => {
    const ring = autonomousRing(1);
    const tensors = rinaTensors(1, 20, 'one');
    const [r] = await allreduceAll(ring, tensors);
    expect(sameBits(r!.result, expectedRina(tensors, 1, E))).toBe(true);
  });

  it('refuses NaN before anything is sent', async () => {
    const ring = autonomousRing(2);
    const t = new Float32Array([1, Number.NaN]);
    await expect(ring.workers[0]!.allreduce(t)).rejects.toMatchObject({ code: RINA_ERROR_CODES.nonFiniteInput });
    expect(ring.workers[0]!.options.transport.counters.datagramsOut).toBe(0);
  });
});
