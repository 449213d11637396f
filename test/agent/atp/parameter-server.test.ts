import { describe, expect, test } from 'vitest';
import { layoutAtpJob } from '../../../src/agent/atp/atp-job-layout.js';
import { AtpParameterServer } from '../../../src/agent/atp/parameter-server.js';
import type { AtpPsJob } from '../../../src/agent/atp/ps-options.js';
import { ListeningTransport } from '../../../src/agent/transport/base-transport.js';
import { socketAddress, type AddressedTransport, type SocketAddress } from '../../../src/agent/transport/index.js';
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtp, type AtpHeaderFields, type AtpPacket } from '../../../src/wire/index.js';

/** Records what the PS sends; `feed` hands it a datagram. */
class CaptureTransport extends ListeningTransport implements AddressedTransport {
  readonly sent: { to: string; packet: AtpPacket }[] = [];
  constructor() {
    super('capture', 65_507);
  }
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean {
    const copy = Buffer.from(payload.subarray(0, length ?? payload.length));
    const p = decodeAtp(copy);
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

const V = 4;
const addr = (i: number): SocketAddress => socketAddress(`10.0.0.${i + 1}`, 0xbf00, 'test');
// Rack A (aggregating, 3 workers: bitmap1 bit 0), rack B (legacy, 2 workers: bits 1 and 2).
const layout = layoutAtpJob([
  { aggregating: true, workers: [addr(0), addr(1), addr(2)] },
  { aggregating: false, workers: [addr(3), addr(4)] },
]);

function psWith(options: Partial<AtpPsJob> = {}): { ps: AtpParameterServer; t: CaptureTransport; job: AtpPsJob } {
  const t = new CaptureTransport();
  const job: AtpPsJob = { jobId: 7, poolSize: 64, elementsPerPacket: V, maxWindow: 4, contributors: layout.contributors, ...options };
  return { ps: new AtpParameterServer({ transport: t, jobs: [job] }), t, job };
}

/** A piece: rack A's edge-0 piece with `bitmap0`, or an edge-1 piece with `bitmap1`. */
function piece(seq: number, cover: { bitmap0?: number; bitmap1: number; edge: 0 | 1 }, values: number[], flags: Partial<AtpHeaderFields> = {}): Buffer {
  const h: AtpHeaderFields = {
    bitmap0: cover.bitmap0 ?? 0,
    bitmap1: cover.bitmap1,
    fanInDegree0: 3,
    fanInDegree1: 3,
    overflow: false,
    resend: false,
    collision: false,
    ecn: false,
    edgeSwitchIdentifier: cover.edge,
    isAck: false,
    aggregatorIndex: 5,
    jobId: 7,
    sequenceNumber: seq,
    elementCount: V,
    ...flags,
  };
  const buf = Buffer.alloc(ATP_HEADER_LENGTH + 4 * V);
  if (h.overflow) {
    encodeAtp(buf, 0, { ...h, values: [0, 0, 0, 0] });
    values.forEach((v, k) => buf.writeFloatBE(v, ATP_HEADER_LENGTH + 4 * k));
  } else encodeAtp(buf, 0, { ...h, values });
  return buf;
}

const ints = (p: AtpPacket): number[] => Array.from(p.values.toInt32Array());
const worker = (i: number) => ({ bitmap0: 1 << i, bitmap1: 1, edge: 0 as const });
const legacy = (bit: number) => ({ bitmap1: 1 << bit, edge: 1 as const });

describe('ATP parameter server', () => {
  test('three individual rack workers and two legacy workers: one ACK to the rack, one per legacy worker', () => {
    const { ps, t } = psWith();
    t.feed(piece(0, worker(0), [1, 2, 3, 4]));
    t.feed(piece(0, worker(1), [10, 20, 30, 40]));
    t.feed(piece(0, legacy(1), [100, 0, 0, -4]));
    t.feed(piece(0, worker(2), [5, 5, 5, 5]));
    expect(t.sent).toHaveLength(0);
    t.feed(piece(0, legacy(2), [1000, 0, 0, 0]));
    expect(t.sent.map((s) => s.to)).toEqual(['10.0.0.1:48896', '10.0.0.4:48896', '10.0.0.5:48896']);
    const ack = t.sent[0]!.packet;
    expect(ack).toMatchObject({ isAck: true, jobId: 7, sequenceNumber: 0, aggregatorIndex: 5, bitmap0: 5, bitmap1: 0b111, overflow: false, collision: false });
    expect(ints(ack)).toEqual([1116, 27, 38, 45]);
    expect(ps.stats).toMatchObject({ pieces: 5, completed: 1, completedInSoftware: 1, piecesSummed: 5, acksSent: 3 });
  });

  test('overlapping pieces: a flushed partial {0,1} and a later resend {1} of the same rack; the cover takes {0,1} + {2}', () => {
    const { ps, t } = psWith();
    t.feed(piece(1, { bitmap0: 0b011, bitmap1: 1, edge: 0 }, [11, 11, 11, 11], { resend: true }));
    t.feed(piece(1, worker(1), [10, 10, 10, 10], { resend: true }));
    t.feed(piece(1, worker(1), [10, 10, 10, 10], { resend: true }));
    t.feed(piece(1, legacy(1), [0, 0, 0, 0]));
    t.feed(piece(1, legacy(2), [0, 0, 0, 0]));
    expect(t.sent).toHaveLength(0);
    t.feed(piece(1, worker(2), [100, 100, 100, 100]));
    expect(ints(t.sent[0]!.packet)).toEqual([111, 111, 111, 111]);
    expect(ps.stats).toMatchObject({ duplicatePieces: 1, resendPieces: 2, completed: 1 });
  });

  test('a cover only a search finds: {0,1}, {1,2} and {0} overlap; {0} + {1,2} is the disjoint one', () => {
    const { t } = psWith();
    t.feed(piece(2, { bitmap0: 0b011, bitmap1: 1, edge: 0 }, [3, 0, 0, 0]));
    t.feed(piece(2, { bitmap0: 0b110, bitmap1: 1, edge: 0 }, [6, 0, 0, 0]));
    t.feed(piece(2, legacy(1), [0, 0, 0, 0]));
    t.feed(piece(2, legacy(2), [0, 0, 0, 0]));
    expect(t.sent).toHaveLength(0);
    t.feed(piece(2, worker(0), [1, 0, 0, 0]));
    expect(ints(t.sent[0]!.packet)).toEqual([7, 0, 0, 0]);
  });

  test('a level-1 aggregate covers everyone by itself', () => {
    const { ps, t } = psWith();
    t.feed(piece(0, { bitmap0: 0b111, bitmap1: 0b111, edge: 1 }, [9, 8, 7, 6]));
    expect(ints(t.sent[0]!.packet)).toEqual([9, 8, 7, 6]);
    expect(ps.stats).toMatchObject({ completedByOnePiece: 1, level1Aggregates: 1, aggregatePieces: 1 });
  });

  test('a float piece makes the result float32: integer pieces scaled back by the job scale, floats added in float64', () => {
    const { ps, t } = psWith({ valueRange: 2 });
    const f = Math.floor(0x7fffffff / 5) / 2;
    t.feed(piece(0, { bitmap0: 0b111, bitmap1: 1, edge: 0 }, [Math.round(0.5 * f), Math.round(-1.25 * f), 0, 7]));
    t.feed(piece(0, legacy(1), [1e10, 3, 0.1, -2.5], { overflow: true }));
    t.feed(piece(0, legacy(2), [0, 0, 0, 0]));
    const ack = t.sent[0]!.packet;
    expect(ack.overflow).toBe(true);
    const got = [0, 1, 2, 3].map((k) => ack.values.getFloat32(k));
    expect(got).toEqual([Math.fround(1e10 + Math.round(0.5 * f) / f), Math.fround(3 + Math.round(-1.25 * f) / f), Math.fround(Math.fround(0.1)), Math.fround(-2.5 + 7 / f)]);
    expect(ps.stats).toMatchObject({ overflowPieces: 1, floatResults: 1 });
  });

  test('a collision moves the window position to a fresh aggregator, named in bitmap0; the ACK still frees the used one', () => {
    const { ps, t } = psWith({ random: { nextInt: () => 9 } });
    t.feed(piece(0, { bitmap0: 0b111, bitmap1: 0b111, edge: 1 }, [1, 1, 1, 1], { collision: true, aggregatorIndex: 20 }));
    const ack = t.sent[0]!.packet;
    expect(ack).toMatchObject({ aggregatorIndex: 20, bitmap0: 9, collision: true });
    expect(ps.stats.aggregatorMoves).toBe(1);
    // The fresh pick skips the index in use: 20 drawn as 19 + 1 when the random gives 19.
    const { t: t2 } = psWith({ random: { nextInt: () => 20 } });
    t2.feed(piece(0, { bitmap0: 0b111, bitmap1: 0b111, edge: 1 }, [1, 1, 1, 1], { collision: true, aggregatorIndex: 20 }));
    expect(t2.sent[0]!.packet.bitmap0).toBe(21);
  });

  test('late pieces of a completed sequence: a resend gets the same ACK again, a plain copy nothing', () => {
    const { ps, t } = psWith();
    t.feed(piece(3, { bitmap1: 0b111, edge: 1 }, [4, 4, 4, 4]));
    expect(t.sent).toHaveLength(3);
    t.feed(piece(3, worker(1), [9, 9, 9, 9]));
    expect(t.sent).toHaveLength(3);
    t.feed(piece(3, legacy(2), [9, 9, 9, 9], { resend: true }));
    expect(t.sent).toHaveLength(4);
    expect(t.sent[3]!.to).toBe('10.0.0.5:48896');
    expect(ints(t.sent[3]!.packet)).toEqual([4, 4, 4, 4]);
    expect(ps.stats).toMatchObject({ latePieces: 2, reAcks: 1 });
  });

  test('the window: pieces beyond W ahead are dropped, stale unfinished sequences forgotten, memory bounded', () => {
    const { ps, t } = psWith();
    // W = 4, nothing completed yet (newest = −1): sequences 0..3 are accepted, 4 is not.
    t.feed(piece(4, worker(0), [1, 1, 1, 1]));
    t.feed(piece(0xffff - 4, worker(0), [1, 1, 1, 1]));
    expect(ps.stats.outOfWindowDrops).toBe(2);
    // Sequence 3 gets one piece and never completes; 0..2 and 4..7 do.
    t.feed(piece(3, worker(0), [1, 1, 1, 1]));
    expect(ps.pendingSequences).toBe(1);
    for (const s of [0, 1, 2, 4, 5, 6, 7]) t.feed(piece(s, { bitmap1: 0b111, edge: 1 }, [s, 0, 0, 0]));
    // Newest 7, W = 4: no worker can still wait for 3, so it is forgotten.
    expect(ps.stats).toMatchObject({ completed: 7, staleSequences: 1 });
    expect(ps.pendingSequences).toBe(0);
    t.feed(piece(3, worker(1), [1, 1, 1, 1]));
    expect(ps.stats.outOfWindowDrops).toBe(3);
    // Wrapping: sequence numbers are 16 bits.
    const { ps: ps2, t: t2 } = psWith({ firstSequence: 0xfffe });
    for (const s of [0xfffe, 0xffff, 0, 1]) t2.feed(piece(s, { bitmap1: 0b111, edge: 1 }, [1, 0, 0, 0]));
    expect(ps2.stats).toMatchObject({ completed: 4, outOfWindowDrops: 0 });
  });

  test('pieces over the bound: a larger one is dropped and counted; a singleton evicts the oldest larger piece', () => {
    const { ps, t } = psWith({ maxPieces: 6 });
    // Six overlapping pieces, no two of them a cover.
    t.feed(piece(0, { bitmap0: 0b011, bitmap1: 1, edge: 0 }, [1, 0, 0, 0]));
    t.feed(piece(0, { bitmap0: 0b110, bitmap1: 1, edge: 0 }, [2, 0, 0, 0]));
    t.feed(piece(0, { bitmap0: 0b101, bitmap1: 1, edge: 0 }, [4, 0, 0, 0]));
    t.feed(piece(0, { bitmap1: 0b011, edge: 1 }, [8, 0, 0, 0]));
    t.feed(piece(0, { bitmap1: 0b110, edge: 1 }, [16, 0, 0, 0]));
    t.feed(piece(0, { bitmap1: 0b101, edge: 1 }, [300, 0, 0, 0]));
    // The seventh would complete the sequence with {l1, l2}, but there is no room for a larger piece.
    t.feed(piece(0, { bitmap0: 0b111, bitmap1: 1, edge: 0 }, [64, 0, 0, 0]));
    expect(ps.stats.overLimitDrops).toBe(1);
    expect(t.sent).toHaveLength(0);
    // A singleton always gets in (evicting {0,1} of rack A) and completes with {A, l2}.
    t.feed(piece(0, legacy(1), [20, 0, 0, 0]));
    expect(ints(t.sent[0]!.packet)).toEqual([320, 0, 0, 0]);
    expect(ps.stats).toMatchObject({ pieces: 7, completed: 1, piecesSummed: 2 });
  });

  test('stray input is counted, never thrown: unknown job, ACKs, bad bits, bad lengths', () => {
    const { ps, t } = psWith();
    t.feed(Buffer.alloc(3));
    t.feed(piece(0, worker(0), [1, 1, 1, 1], { jobId: 8 }));
    t.feed(piece(0, worker(0), [1, 1, 1, 1], { isAck: true }));
    t.feed(piece(0, { bitmap0: 0b1000, bitmap1: 1, edge: 0 }, [1, 1, 1, 1]));
    t.feed(piece(0, { bitmap0: 1, bitmap1: 0b10, edge: 0 }, [1, 1, 1, 1]));
    t.feed(piece(0, { bitmap1: 0b1000, edge: 1 }, [1, 1, 1, 1]));
    expect(ps.stats).toMatchObject({ strayDrops: 6, pieces: 0 });
    expect(t.sent).toHaveLength(0);
  });
});
