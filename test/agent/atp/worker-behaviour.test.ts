import { afterEach, describe, expect, test } from 'vitest';
import { AtpWorker } from '../../../src/agent/atp/atp-worker.js';
import { initialAggregatorIndex } from '../../../src/agent/atp/aggregator-hash.js';
import { createMemoryTransportPair, settleMemoryTransports, type MemoryTransport } from '../../../src/agent/transport/index.js';
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtp, type AtpPacket } from '../../../src/wire/index.js';
import { VirtualTime } from './helpers/virtual-time.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** One worker (a legacy-rack worker of a 1-worker job) whose far end the test plays, in virtual time. */
function setUp(options: { maxRetries?: number; maxWindow?: number; poolSize?: number } = {}) {
  const [near, far] = createMemoryTransportPair();
  const time = new VirtualTime();
  const worker = new AtpWorker({
    transport: near,
    jobId: 12,
    rank: 0,
    worldSize: 1,
    poolSize: options.poolSize ?? 64,
    bitmap0Bit: undefined,
    bitmap1Bit: 0,
    fanIn0: 0,
    fanIn1: 1,
    elementsPerPacket: 4,
    maxWindow: options.maxWindow ?? 4,
    timeoutMs: 10,
    backoff: { factor: 2, minTimeoutMs: 10, maxTimeoutMs: 1000 },
    maxRetries: options.maxRetries ?? 5,
    clock: time,
    timers: time,
  });
  const seen: { at: number; packet: AtpPacket; raw: Buffer }[] = [];
  far.onDatagram((buf, offset, length) => {
    const raw = Buffer.from(buf.subarray(offset, offset + length));
    const p = decodeAtp(raw);
    if (p.ok) seen.push({ at: time.now(), packet: p, raw });
  });
  closers.push(() => worker.close());
  return { worker, far, near, time, seen };
}

/** The PS's answer to `p`: its own values back (one worker), `next` as the next aggregator. */
function ackOf(p: AtpPacket, next = p.aggregatorIndex): Buffer {
  const buf = Buffer.alloc(ATP_HEADER_LENGTH + 16);
  encodeAtp(buf, 0, { ...p, isAck: true, bitmap0: next, bitmap1: 1, collision: next !== p.aggregatorIndex, values: p.values.toInt32Array() });
  return buf;
}

async function settle(...ends: MemoryTransport[]): Promise<void> {
  expect(await settleMemoryTransports(ends)).toBe(true);
}

describe('ATP worker on its own', () => {
  test('NaN or Infinity is refused before anything is sent', async () => {
    const { worker, seen, near } = setUp();
    await expect(worker.allreduce(Float32Array.from([1, NaN]))).rejects.toMatchObject({ code: 'ATP_NON_FINITE_INPUT' });
    await expect(worker.allreduce(Float32Array.from([-Infinity]))).rejects.toMatchObject({ code: 'ATP_NON_FINITE_INPUT' });
    await settle(near);
    expect(seen).toHaveLength(0);
  });

  test('no PS: resends with the resend flag, the wait growing each time, then ATP_TIMEOUT; the worker is unusable after', async () => {
    const { worker, seen, near, time } = setUp({ maxRetries: 4 });
    const call = worker.allreduce(Float32Array.from([1, 2, 3]));
    let failure: unknown;
    call.catch((err: unknown) => (failure = err));
    for (let step = 0; step < 20 && failure === undefined; step++) {
      await settle(near);
      time.advance();
    }
    await settle(near);
    expect(failure).toMatchObject({ code: 'ATP_TIMEOUT' });
    expect(seen.map((s) => s.packet.resend)).toEqual([false, true, true, true, true]);
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i]!.at);
    // Nothing answered at all: the RTO backs off (×2 per timeout) and so does the packet's own wait (×2 per resend).
    expect(gaps).toEqual([10, 40, 160, 640]);
    expect(seen.every((s) => s.raw.subarray(ATP_HEADER_LENGTH).equals(seen[0]!.raw.subarray(ATP_HEADER_LENGTH)))).toBe(true);
    await expect(worker.allreduce(Float32Array.from([1]))).rejects.toMatchObject({ code: 'ATP_UNUSABLE' });
  });

  test('ACKs: duplicates ignored; an ACK naming another aggregator moves that window position; results from the ACK', async () => {
    const { worker, seen, near, far } = setUp({ maxWindow: 2 });
    const data = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const call = worker.allreduce(data);
    await settle(near);
    // Window 2 of the 2 positions: sequences 0 and 1 are out, at the hashed aggregators.
    expect(seen.map((s) => [s.packet.sequenceNumber, s.packet.aggregatorIndex, s.packet.edgeSwitchIdentifier, s.packet.bitmap1])).toEqual([
      [0, initialAggregatorIndex(12, 0, 64), 1, 1],
      [1, initialAggregatorIndex(12, 1, 64), 1, 1],
    ]);
    far.send(ackOf(seen[0]!.packet, 33));
    far.send(ackOf(seen[0]!.packet, 44));
    await settle(far, near);
    // Sequence 2 (position 0) goes to the aggregator the first ACK named; the duplicate changed nothing.
    expect(seen[2]!.packet).toMatchObject({ sequenceNumber: 2, aggregatorIndex: 33 });
    far.send(ackOf(seen[1]!.packet));
    await settle(far, near);
    far.send(ackOf(seen[2]!.packet));
    await settle(far, near);
    const { result, stats } = await call;
    expect(Array.from(result)).toEqual(Array.from(data));
    expect(stats).toMatchObject({ packets: 3, acks: 3, duplicateAcks: 1, aggregatorMoves: 1, retransmissions: 0 });
    expect(worker.aggregators[0]).toBe(33);
  });
});
