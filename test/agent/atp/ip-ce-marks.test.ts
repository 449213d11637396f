/**
 * CE marks from the IP layer in the ATP agents (docs/atp.md, "Workers" and
 * "The parameter server"): a mark comes apart from the datagram it was on,
 * before or after it, and must count the same either way; the window's rule
 * (one halving per window of marks) keeps an ACK marked twice (ecn bit and
 * CE) to one halving. The far ends are played by the test, in virtual time.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { layoutAtpJob } from '../../../src/agent/atp/atp-job-layout.js';
import { AtpWorker } from '../../../src/agent/atp/atp-worker.js';
import { CongestionWindow } from '../../../src/agent/atp/congestion-window.js';
import { AtpParameterServer } from '../../../src/agent/atp/parameter-server.js';
import { sentSequence } from '../../../src/agent/atp/sent-sequence.js';
import { ListeningTransport } from '../../../src/agent/transport/base-transport.js';
import {
  createMemoryTransportPair,
  settleMemoryTransports,
  socketAddress,
  type AddressedTransport,
  type CeMarkListener,
  type CeMarkSource,
  type MemoryTransport,
  type SocketAddress,
} from '../../../src/agent/transport/index.js';
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtp, type AtpHeaderFields, type AtpPacket } from '../../../src/wire/index.js';
import { VirtualTime } from './helpers/virtual-time.js';

/** A CE source the test fires by hand. */
class ManualCeSource implements CeMarkSource {
  listener: CeMarkListener | undefined;
  ceMarks = 0;
  onCeMark(listener: CeMarkListener | undefined): void {
    this.listener = listener;
  }
  mark(datagram: Buffer): void {
    this.ceMarks++;
    // As a transport hands it over: the payload inside a larger buffer.
    const framed = Buffer.concat([Buffer.alloc(28, 0xee), datagram]);
    this.listener?.(framed, 28, datagram.length);
  }
}

describe('the window and the sequence a mark names', () => {
  test('a mark halves unless a halving since its sequence was sent answered it', () => {
    const w = new CongestionWindow(16, 1, 100);
    w.onMark(3, 15);
    expect([w.size, w.halvings]).toEqual([8, 1]);
    // Sequences up to 15 were out at that halving: the same congestion event, in any order.
    w.onMark(15, 20);
    w.onMark(0, 20);
    expect([w.size, w.halvings]).toEqual([8, 1]);
    w.onAck(true, 12, 21);
    expect(w.halvings).toBe(1);
    w.onMark(16, 30);
    expect([w.size, w.halvings]).toEqual([4, 2]);
  });

  test('16-bit sequence numbers are placed among the sequences sent, across the wrap', () => {
    expect(sentSequence(5, 10, 0)).toBe(5);
    expect(sentSequence(10, 10, 0)).toBe(10);
    expect(sentSequence(11, 10, 0)).toBeUndefined(); // not sent yet
    expect(sentSequence(0xfffe, 0x1_0003, 0)).toBe(0xfffe);
    expect(sentSequence(2, 0x1_0003, 0)).toBe(0x1_0002);
    expect(sentSequence(3, 10, 5)).toBeUndefined(); // before the first sequence
    expect(sentSequence(0, 4, 5)).toBeUndefined(); // nothing sent yet
    expect(sentSequence(0x8000 + 11, 0x8000 + 10, 0)).toBeUndefined(); // ahead of the newest
  });
});

describe('an ATP worker takes CE on an ACK as a mark', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  /** One worker of a 1-worker job, window 4 of 4 positions; the test answers for the PS. */
  function setUp() {
    const [near, far] = createMemoryTransportPair();
    const time = new VirtualTime();
    const ce = new ManualCeSource();
    const worker = new AtpWorker({
      transport: near,
      ceMarks: ce,
      jobId: 12,
      rank: 0,
      worldSize: 1,
      poolSize: 64,
      bitmap0Bit: undefined,
      bitmap1Bit: 0,
      fanIn0: 0,
      fanIn1: 1,
      elementsPerPacket: 4,
      maxWindow: 4,
      initialWindow: 4,
      timeoutMs: 1000,
      clock: time,
      timers: time,
    });
    const seen: AtpPacket[] = [];
    far.onDatagram((buf, offset, length) => {
      const p = decodeAtp(Buffer.from(buf.subarray(offset, offset + length)));
      if (p.ok) seen.push(p);
    });
    closers.push(() => worker.close());
    return { worker, near, far, ce, seen };
  }

  const ackOf = (p: AtpPacket, change: Partial<AtpHeaderFields> = {}): Buffer => {
    const buf = Buffer.alloc(ATP_HEADER_LENGTH + 16);
    encodeAtp(buf, 0, { ...p, isAck: true, bitmap0: p.aggregatorIndex, bitmap1: 1, values: p.values.toInt32Array(), ...change });
    return buf;
  };

  async function settle(...ends: MemoryTransport[]): Promise<void> {
    expect(await settleMemoryTransports(ends)).toBe(true);
  }

  test('before its ACK, after it, or on an ACK with the ecn bit too: one halving for one window of marks', async () => {
    const { worker, near, far, ce, seen } = setUp();
    const data = Float32Array.from({ length: 32 }, (_, i) => i);
    const call = worker.allreduce(data);
    await settle(near);
    expect(seen.map((p) => p.sequenceNumber)).toEqual([0, 1, 2, 3]);
    // Sequence 0: the raw copy of its ACK first, then the ACK.
    ce.mark(ackOf(seen[0]!));
    far.send(ackOf(seen[0]!));
    await settle(far, near);
    // Sequence 1 (sent before that halving): ACK with the ecn bit, and its CE copy after it. Same event.
    far.send(ackOf(seen[1]!, { ecn: true }));
    await settle(far, near);
    ce.mark(ackOf(seen[1]!, { ecn: true }));
    // Answer everything else, unmarked but for one CE after its ACK on a packet sent after the halving.
    for (let i = 2; i < 8; i++) {
      await settle(near);
      far.send(ackOf(seen[i]!));
      await settle(far, near);
      if (seen[i]!.sequenceNumber === 5) ce.mark(ackOf(seen[i]!));
    }
    const { result, stats } = await call;
    expect(Array.from(result)).toEqual(Array.from(data));
    expect(stats).toMatchObject({ acks: 8, ecnMarks: 1, ipCeMarks: 3, duplicateEcnMarks: 0, windowHalvings: 2, windowMin: 1 });
  });

  test('CE copies that are no ACK of this job, or of a sequence never sent, are no marks', async () => {
    const { worker, near, far, ce, seen } = setUp();
    const call = worker.allreduce(Float32Array.from([1, 2, 3, 4]));
    await settle(near);
    const sent = seen[0]!;
    ce.mark(Buffer.from(seen[0]!.values.toInt32Array().buffer)); // not ATP
    ce.mark(ackOf(sent, { isAck: false })); // a piece, not an ACK
    ce.mark(ackOf(sent, { jobId: 13 })); // another job
    ce.mark(ackOf(sent, { sequenceNumber: 9 })); // not sent
    far.send(ackOf(sent));
    await settle(far, near);
    expect((await call).stats).toMatchObject({ ipCeMarks: 0, windowHalvings: 0 });
  });

  test('a duplicate ACK with the ecn bit (the PS carrying a late mark) is a mark', async () => {
    const { worker, near, far, seen } = setUp();
    const call = worker.allreduce(Float32Array.from({ length: 8 }, (_, i) => i));
    await settle(near);
    far.send(ackOf(seen[0]!));
    far.send(ackOf(seen[0]!, { ecn: true }));
    far.send(ackOf(seen[1]!));
    await settle(far, near);
    expect((await call).stats).toMatchObject({ ecnMarks: 0, duplicateAcks: 1, duplicateEcnMarks: 1, windowHalvings: 1, windowMin: 2 });
  });

  test('a CE copy read after the call is still a mark on the window; close detaches from the CE source', async () => {
    const { worker, near, far, ce, seen } = setUp();
    const first = worker.allreduce(Float32Array.from({ length: 8 }, (_, i) => i));
    await settle(near);
    far.send(ackOf(seen[0]!));
    far.send(ackOf(seen[1]!));
    await settle(far, near);
    expect((await first).stats).toMatchObject({ windowHalvings: 0, windowMin: 4 });
    ce.mark(ackOf(seen[1]!));
    const next = worker.allreduce(Float32Array.from([1]));
    await settle(near);
    far.send(ackOf(seen[2]!));
    await settle(far, near);
    // The halving came between the calls: neither call counts it, but the window shows it.
    expect((await next).stats).toMatchObject({ windowHalvings: 0, ipCeMarks: 0, windowMin: 2 });
    expect(ce.listener).toBeDefined();
    await worker.close();
    expect(ce.listener).toBeUndefined();
  });
});

/** Records what the PS sends; `feed` hands it a datagram. */
class CaptureTransport extends ListeningTransport implements AddressedTransport {
  readonly sent: { to: string; packet: AtpPacket }[] = [];
  constructor() {
    super('capture', 65_507);
  }
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean {
    const p = decodeAtp(Buffer.from(payload.subarray(0, length ?? payload.length)));
    if (!p.ok) throw new Error('the PS sent a malformed packet');
    this.sent.push({ to: `${to.address}:${to.port}`, packet: p });
    return true;
  }
  feed(buf: Buffer): void {
    this.deliver(buf, 0, buf.length);
  }
  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

describe('an ATP parameter server takes CE on a piece as the ecn bit', () => {
  const addr = (i: number): SocketAddress => socketAddress(`10.0.0.${i + 1}`, 0xbf01, 'test');
  // Two legacy-rack workers: one level-1 contributor each.
  const layout = layoutAtpJob([{ aggregating: false, workers: [addr(0)] }, { aggregating: false, workers: [addr(1)] }]);

  function setUp() {
    const t = new CaptureTransport();
    const ce = new ManualCeSource();
    const ps = new AtpParameterServer({ transport: t, ceMarks: ce, jobs: [{ jobId: 7, poolSize: 64, elementsPerPacket: 2, maxWindow: 4, contributors: layout.contributors }] });
    return { t, ce, ps };
  }

  function piece(seq: number, bit: number, values: number[], change: Partial<AtpHeaderFields> = {}): Buffer {
    const buf = Buffer.alloc(ATP_HEADER_LENGTH + 8);
    encodeAtp(buf, 0, {
      bitmap0: 0,
      bitmap1: 1 << bit,
      fanInDegree0: 0,
      fanInDegree1: 2,
      overflow: false,
      resend: false,
      collision: false,
      ecn: false,
      edgeSwitchIdentifier: 1,
      isAck: false,
      aggregatorIndex: 5,
      jobId: 7,
      sequenceNumber: seq,
      elementCount: 2,
      values,
      ...change,
    });
    return buf;
  }

  test('a mark before its piece, or between the pieces: the ACK carries ecn; unmarked sequences do not', () => {
    const { t, ce, ps } = setUp();
    ce.mark(piece(0, 0, [1, 2])); // the raw copy first
    t.feed(piece(0, 0, [1, 2]));
    t.feed(piece(0, 1, [10, 20]));
    t.feed(piece(1, 0, [1, 1]));
    ce.mark(piece(1, 0, [1, 1])); // after its piece, before the sequence is complete
    t.feed(piece(1, 1, [2, 2]));
    t.feed(piece(2, 0, [0, 0]));
    t.feed(piece(2, 1, [0, 0]));
    expect(t.sent.map((s) => [s.packet.sequenceNumber, s.packet.ecn, Array.from(s.packet.values.toInt32Array())])).toEqual([
      [0, true, [11, 22]],
      [0, true, [11, 22]],
      [1, true, [3, 3]],
      [1, true, [3, 3]],
      [2, false, [0, 0]],
      [2, false, [0, 0]],
    ]);
    expect(ps.stats).toMatchObject({ ipCeMarks: 2, markedReAcks: 0, completed: 3 });
  });

  test('a mark after the ACK went: the ACK again, with ecn, to every worker, once; stray marks change nothing', () => {
    const { t, ce, ps } = setUp();
    t.feed(piece(0, 0, [1, 2]));
    t.feed(piece(0, 1, [3, 4]));
    expect(t.sent.map((s) => s.packet.ecn)).toEqual([false, false]);
    ce.mark(piece(0, 1, [3, 4]));
    ce.mark(piece(0, 0, [1, 2]));
    expect(t.sent.slice(2).map((s) => [s.to, s.packet.sequenceNumber, s.packet.ecn, Array.from(s.packet.values.toInt32Array())])).toEqual([
      ['10.0.0.1:48897', 0, true, [4, 6]],
      ['10.0.0.2:48897', 0, true, [4, 6]],
    ]);
    // A late resend gets the marked ACK.
    t.feed(piece(0, 0, [1, 2], { resend: true }));
    expect(t.sent.at(-1)!.packet.ecn).toBe(true);
    const before = t.sent.length;
    ce.mark(piece(0, 3, [0, 0])); // bits outside the job
    ce.mark(piece(0, 0, [0, 0], { isAck: true }));
    ce.mark(piece(0, 0, [0, 0], { jobId: 8 }));
    ce.mark(Buffer.from('not atp'));
    ce.mark(piece(3000, 0, [0, 0])); // far outside the window
    expect(t.sent.length).toBe(before);
    expect(ps.stats).toMatchObject({ ipCeMarks: 3, markedReAcks: 1 });
    expect(ps.pendingSequences).toBe(0);
  });

  test('close detaches from the CE source', async () => {
    const { ce, ps } = setUp();
    expect(ce.listener).toBeDefined();
    await ps.close();
    expect(ce.listener).toBeUndefined();
  });
});
