import { afterEach, describe, expect, test } from 'vitest';
import { ReferenceSwitchMl } from './reference/reference-switch.js';
import { SwitchMlWorker } from '../../../src/agent/switchml/switchml-worker.js';
import { createMemoryTransportPair, type MemoryTransport } from '../../../src/agent/transport/index.js';
import { decodeSwitchMl, encodeSwitchMlHeader, SwitchMlMessageType } from '../../../src/wire/index.js';
import { expectedSwitchMlResult, sameBits, seededTensors } from './helpers/numbers.js';
import { FAST_TIMING } from './helpers/run-job.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A worker on one end of a memory pair; the test plays the switch on the other end. */
function harness(options: Partial<ConstructorParameters<typeof SwitchMlWorker>[0]> = {}): { worker: SwitchMlWorker; port: MemoryTransport; workerEnd: MemoryTransport } {
  const [workerEnd, port] = createMemoryTransportPair({ names: ['worker', 'switch'] });
  const worker = new SwitchMlWorker({ ...FAST_TIMING, transport: workerEnd, jobId: 1, workerId: 0, numWorkers: 1, poolSize: 4, ...options });
  cleanups.push(() => Promise.all([worker.close(), workerEnd.close(), port.close()]));
  return { worker, port, workerEnd };
}

/** Answers with the reference model (one worker), also passing each answer to `extra` for mischief. */
function answerWithModel(port: MemoryTransport, extra?: (result: Buffer, update: Buffer) => void): ReferenceSwitchMl {
  const model = new ReferenceSwitchMl({ capacity: 8, elementsPerPacket: 64 });
  model.addJob({ jobId: 1, slotBase: 0, poolSize: 4, workerIds: [0] });
  port.onDatagram((buf, offset, length) => {
    const update = Buffer.from(buf.subarray(offset, offset + length));
    const verdict = model.process(update);
    if (verdict.action === 'multicast' || verdict.action === 'unicast') {
      port.send(verdict.packet);
      extra?.(verdict.packet, update);
    }
  });
  return model;
}

describe('SwitchML worker: what it drops', () => {
  test('stale epochs, duplicates, other jobs, updates and garbage are counted and ignored', async () => {
    const { worker, port } = harness();
    answerWithModel(port, (result) => {
      port.send(result); // a duplicate
      const stale = Buffer.from(result);
      stale[13] = (stale[13]! + 255) & 0xff; // the previous epoch
      port.send(stale);
      const otherJob = Buffer.from(result);
      otherJob.writeUInt16BE(2, 2);
      port.send(otherJob);
      const asUpdate = Buffer.from(result);
      asUpdate[0] = 0x11;
      port.send(asUpdate);
      port.send(Buffer.from([1, 2, 3]));
    });
    const tensors = seededTensors(1, 500, 'drops');
    const { result, stats } = await worker.allreduce(tensors[0]!);
    expect(sameBits(result, expectedSwitchMlResult(tensors, 64))).toBe(true);
    const packets = stats.packets;
    expect(packets).toBe(8 + 4);
    expect(stats.duplicates).toBeGreaterThanOrEqual(packets - 1);
    expect(stats.staleResults).toBeGreaterThanOrEqual(packets - 1);
    expect(stats.ignored).toBeGreaterThanOrEqual(3 * (packets - 1));
  });

  test('a result with an exponent below the worker’s own is refused as SWITCHML_BAD_RESULT', async () => {
    const { worker, port } = harness();
    port.onDatagram((buf, offset, length) => {
      const p = decodeSwitchMl(buf, offset, offset + length);
      if (!p.ok) return;
      const out = Buffer.from(buf.subarray(offset, offset + length));
      encodeSwitchMlHeader(out, 0, { ...p, messageType: SwitchMlMessageType.RESULT, exponent: -100 });
      port.send(out);
    });
    await expect(worker.allreduce(new Float32Array(100).fill(3))).rejects.toMatchObject({ code: 'SWITCHML_BAD_RESULT' });
    await expect(worker.allreduce(new Float32Array(1))).rejects.toMatchObject({ code: 'SWITCHML_UNUSABLE' });
  });
});

describe('SwitchML worker: bounded failure', () => {
  test('no switch: SWITCHML_TIMEOUT after maxRetries, then SWITCHML_UNUSABLE', async () => {
    const { worker, workerEnd } = harness({ timeoutMs: 1, backoff: { maxTimeoutMs: 2 }, maxRetries: 3 });
    await expect(worker.allreduce(new Float32Array(300))).rejects.toMatchObject({ code: 'SWITCHML_TIMEOUT', message: expect.stringMatching(/after 3 retransmissions/) });
    // 4 first transmissions, then 3 retransmissions of the packet that failed first (at least).
    expect(workerEnd.counters.datagramsOut).toBeGreaterThanOrEqual(4 + 3);
    await expect(worker.allreduce(new Float32Array(1))).rejects.toMatchObject({ code: 'SWITCHML_UNUSABLE' });
  });

  test('aborting rejects with SWITCHML_ABORTED (before and during the call)', async () => {
    const { worker } = harness();
    await expect(worker.allreduce(new Float32Array(10), { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'SWITCHML_ABORTED' });
    const second = harness();
    const controller = new AbortController();
    const call = second.worker.allreduce(new Float32Array(10), { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'SWITCHML_ABORTED' });
  });

  test('a second call while one runs is SWITCHML_BUSY; close() fails the running one', async () => {
    const { worker } = harness();
    const first = worker.allreduce(new Float32Array(10));
    await expect(worker.allreduce(new Float32Array(10))).rejects.toMatchObject({ code: 'SWITCHML_BUSY' });
    await worker.close();
    await expect(first).rejects.toMatchObject({ code: 'SWITCHML_UNUSABLE' });
  });

  test('close() closes the transport only with closeTransport', async () => {
    const { worker, workerEnd } = harness();
    await worker.close();
    expect(workerEnd.closed).toBe(false);
    const owned = harness({ closeTransport: true });
    await owned.worker.close();
    await owned.worker.close();
    expect(owned.workerEnd.closed).toBe(true);
  });

  test('a closed transport fails the call at once', async () => {
    const { worker, workerEnd } = harness();
    await workerEnd.close();
    await expect(worker.allreduce(new Float32Array(10))).rejects.toMatchObject({ code: 'SWITCHML_UNUSABLE', message: expect.stringMatching(/closed/) });
  });

  test('tensors of different lengths: the shorter worker reports SWITCHML_TENSOR_MISMATCH, the other times out', async () => {
    const model = new ReferenceSwitchMl({ capacity: 4, elementsPerPacket: 64 });
    model.addJob({ jobId: 1, slotBase: 0, poolSize: 1, workerIds: [0, 1] });
    const pairs = [0, 1].map((w) => createMemoryTransportPair({ names: [`w${w}`, `p${w}`] }));
    const ports = pairs.map(([, port]) => port);
    ports.forEach((port) =>
      port.onDatagram((buf, offset, length) => {
        const v = model.process(buf, offset, length);
        if (v.action === 'multicast') for (const w of v.workerIds) ports[w]!.send(v.packet);
        else if (v.action === 'unicast') port.send(v.packet);
      }),
    );
    const workers = pairs.map(
      ([end], w) => new SwitchMlWorker({ transport: end, jobId: 1, workerId: w, numWorkers: 2, poolSize: 1, timeoutMs: 1, backoff: { maxTimeoutMs: 2 }, maxRetries: 5 }),
    );
    cleanups.push(() => Promise.all([...workers.map((w) => w.close()), ...pairs.flat().map((t) => t.close())]));
    const [short, long] = await Promise.allSettled([workers[0]!.allreduce(new Float32Array(64).fill(1)), workers[1]!.allreduce(new Float32Array(128).fill(1))]);
    expect(short).toMatchObject({ status: 'rejected', reason: { code: 'SWITCHML_TENSOR_MISMATCH' } });
    expect(long).toMatchObject({ status: 'rejected', reason: { code: 'SWITCHML_TIMEOUT' } });
  });
});

describe('SwitchML worker: options and progress', () => {
  test('invalid options are RangeErrors', () => {
    const [end] = createMemoryTransportPair({ maxPayload: 200 });
    const base = { transport: end, jobId: 1, workerId: 0, numWorkers: 2, poolSize: 4, elementsPerPacket: 16 };
    expect(() => new SwitchMlWorker({ ...base, workerId: 2 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, numWorkers: 33 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, poolSize: 0 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, poolSize: 32769 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, jobId: 65536 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, epoch: 256 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, backoff: { factor: 0.5 } })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, backoff: { minTimeoutMs: 0 } })).toThrow(RangeError);
    expect(() => new SwitchMlWorker({ ...base, backoff: { minTimeoutMs: 50, maxTimeoutMs: 10 } })).toThrow(/must not exceed/);
    // Lowering only the ceiling brings the default floor down with it.
    expect(new SwitchMlWorker({ ...base, backoff: { maxTimeoutMs: 2 } }).options.backoff).toEqual({ factor: 2, minTimeoutMs: 2, maxTimeoutMs: 2 });
    expect(() => new SwitchMlWorker({ ...base, elementsPerPacket: 64 })).toThrow(/transport carries at most 200/);
    expect(new SwitchMlWorker(base)).toMatchObject({ rank: 0, worldSize: 2 });
  });

  test('onProgress reports done elements, ending with the whole tensor; a throwing callback is ignored', async () => {
    const { worker, port } = harness();
    answerWithModel(port);
    const seen: [number, number][] = [];
    const tensor = seededTensors(1, 64 * 250 + 3, 'progress')[0]!;
    await worker.allreduce(tensor, {
      onProgress: (done, total) => {
        seen.push([done, total]);
        throw new Error('ignored');
      },
    });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toEqual([tensor.length, tensor.length]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
  });

  test('the input is not modified and the result is a new array', async () => {
    const { worker, port } = harness();
    answerWithModel(port);
    const input = seededTensors(1, 200, 'input')[0]!;
    const copy = input.slice();
    const { result } = await worker.allreduce(input);
    expect(sameBits(input, copy)).toBe(true);
    expect(result).not.toBe(input);
  });
});
