/**
 * One slot of the host aggregator: a stream of blocks aggregated one round at
 * a time, with the DPDK build's loss recovery (two shadow sets, a seen bit per
 * worker for the round being collected, the previous round's reply kept to
 * answer retransmissions).
 *
 * Rounds: the priming round (every worker sends a value-less message naming
 * the slot's first block as its next one, with that block's exponent), then
 * one round per block that some worker holds. Each worker sends once per
 * round, alternating the set: the block's values if the round's block is its
 * next non-zero block, otherwise a value-less message that carries its next
 * block and exponent and acknowledges the previous reply. The round is
 * complete when every worker has reported, i.e. when tsi < min(next_tsi); the
 * reply carries the sum, min(next_tsi) as the next round's block and the
 * maximum exponent of the workers whose next block that is.
 */
import { encodeOmniReduce, NEXT_TSI_NONE, omniReduceLength, type OmniReducePacket } from '../../wire/omnireduce.js';
import type { ShadowSet } from '../../wire/pool-index.js';
import { MIN_CHUNK_EXPONENT } from '../switchml/quantisation.js';

export type MessageKind = 'priming' | 'data' | 'ack';

/** What the slot made of a message. */
export type SlotOutcome =
  | { readonly kind: 'added' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'complete'; readonly reply: Buffer; readonly finished: boolean }
  | { readonly kind: 'resend'; readonly reply: Buffer }
  | { readonly kind: 'stale' }
  | { readonly kind: 'invalid'; readonly reason: string };

interface StoredReply {
  readonly tsi: number;
  readonly set: ShadowSet;
  readonly priming: boolean;
  readonly bytes: Buffer;
}

/** The kind of a worker message, or undefined when its fields contradict each other. */
export function messageKind(msg: OmniReducePacket, blockSize: number): MessageKind | undefined {
  if (msg.elementCount === 0) return msg.nextTsi === msg.tsi ? 'priming' : msg.nextTsi > msg.tsi ? 'ack' : undefined;
  return msg.elementCount === blockSize && msg.nextTsi > msg.tsi ? 'data' : undefined;
}

export class AggregatorSlot {
  private active = false;
  private tsi = 0;
  private set: ShadowSet = 0;
  private priming = false;
  private readonly seen: Uint8Array;
  private seenCount = 0;
  private readonly sums: Int32Array;
  private readonly next: Float64Array;
  private readonly exponents: Int16Array;
  private previous: StoredReply | undefined;

  constructor(
    readonly slot: number,
    readonly workers: number,
    readonly blockSize: number,
  ) {
    this.seen = new Uint8Array(workers);
    this.sums = new Int32Array(blockSize);
    this.next = new Float64Array(workers);
    this.exponents = new Int16Array(workers);
  }

  /** Workers that have not reported in the round being collected (empty when idle). */
  waitingFor(): number[] {
    if (!this.active) return [];
    const out: number[] = [];
    for (let w = 0; w < this.workers; w++) if (this.seen[w] === 0) out.push(w);
    return out;
  }

  /** The block being collected, for logs; undefined when idle. */
  get currentTsi(): number | undefined {
    return this.active ? this.tsi : undefined;
  }

  handle(worker: number, msg: OmniReducePacket, kind: MessageKind): SlotOutcome {
    const priming = kind === 'priming';
    if (this.active && msg.tsi === this.tsi && msg.set === this.set && priming === this.priming) return this.take(worker, msg, kind);
    const p = this.previous;
    if (p !== undefined && msg.tsi === p.tsi && msg.set === p.set && priming === p.priming) return { kind: 'resend', reply: p.bytes };
    if (priming && !this.active) {
      this.startRound(msg.tsi, msg.set, true);
      return this.take(worker, msg, kind);
    }
    return { kind: 'stale' };
  }

  private take(worker: number, msg: OmniReducePacket, kind: MessageKind): SlotOutcome {
    if (this.seen[worker] === 1) return { kind: 'duplicate' };
    // After priming, a worker sends values exactly when the round's block is the next one it named.
    if (!this.priming && (kind === 'data') !== (this.next[worker] === this.tsi)) {
      return { kind: 'invalid', reason: `worker ${worker} named block tsi ${this.next[worker]} as its next one but sent ${kind === 'data' ? 'values' : 'no values'} for block tsi ${this.tsi}` };
    }
    if (kind === 'data') {
      for (let k = 0; k < this.blockSize; k++) this.sums[k] = (this.sums[k]! + msg.values.get(k)) | 0;
    }
    this.seen[worker] = 1;
    this.seenCount++;
    this.next[worker] = msg.nextTsi;
    this.exponents[worker] = msg.exponent;
    return this.seenCount === this.workers ? this.complete() : { kind: 'added' };
  }

  private complete(): SlotOutcome {
    let min = NEXT_TSI_NONE;
    for (let w = 0; w < this.workers; w++) if (this.next[w]! < min) min = this.next[w]!;
    let exponent = MIN_CHUNK_EXPONENT;
    if (min !== NEXT_TSI_NONE) {
      for (let w = 0; w < this.workers; w++) if (this.next[w] === min && this.exponents[w]! > exponent) exponent = this.exponents[w]!;
    }
    const elementCount = this.priming ? 0 : this.blockSize;
    const bytes = Buffer.allocUnsafe(omniReduceLength(elementCount));
    encodeOmniReduce(bytes, 0, { tsi: this.tsi, slot: this.slot, set: this.set, nextTsi: min, exponent, elementCount, values: this.sums });
    this.previous = { tsi: this.tsi, set: this.set, priming: this.priming, bytes };
    const finished = min === NEXT_TSI_NONE;
    if (finished) this.active = false;
    else this.startRound(min, (this.set ^ 1) as ShadowSet, false);
    return { kind: 'complete', reply: bytes, finished };
  }

  private startRound(tsi: number, set: ShadowSet, priming: boolean): void {
    this.active = true;
    this.tsi = tsi;
    this.set = set;
    this.priming = priming;
    this.seen.fill(0);
    this.seenCount = 0;
    this.sums.fill(0);
  }
}
