/**
 * The OmniReduce host aggregator for one job and one range of slots (a
 * shard: several shards are several of these, each in its own process or on
 * its own port). It tells workers apart by source address, checks every
 * message, and hands it to its slot; complete rounds are replied to every
 * worker, retransmissions of the previous round get the stored reply back by
 * unicast, and anything else is counted and dropped, so that a stranger or a
 * malformed datagram cannot disturb the job.
 */
import { moduleLogger } from '../../log/logger.js';
import { decodeOmniReduce } from '../../wire/omnireduce.js';
import { formatSocketAddress, type SocketAddress } from '../transport/index.js';
import { AggregatorSlot, messageKind } from './aggregator-slot.js';
import { OMNIREDUCE_ERROR_CODES, OmniReduceError } from './omnireduce-error.js';
import { addressKey, type SourcedTransport } from './sourced-transport.js';

export interface OmniReduceAggregatorOptions {
  readonly transport: SourcedTransport;
  /** The job's workers, in rank order; messages from other addresses are dropped. */
  readonly workers: readonly SocketAddress[];
  /** The first slot this aggregator owns, and how many. */
  readonly firstSlot: number;
  readonly slotCount: number;
  /** Elements per block (the values in a data message). */
  readonly blockSize: number;
}

export interface OmniReduceAggregatorCounters {
  messagesIn: number;
  /** Contributions taken (priming, data and value-less messages of a round being collected). */
  added: number;
  /** Copies of a contribution already taken in the round being collected. */
  duplicates: number;
  /** Rounds completed (each replied to every worker). */
  rounds: number;
  /** Retransmissions answered with the stored reply. */
  resent: number;
  /** Messages for neither the current nor the previous round. */
  stale: number;
  /** Malformed messages, strangers, slots out of range. */
  invalid: number;
  repliesSent: number;
  bytesSent: number;
}

const log = moduleLogger('omnireduce-aggregator');

export class OmniReduceAggregator {
  readonly counters: OmniReduceAggregatorCounters = { messagesIn: 0, added: 0, duplicates: 0, rounds: 0, resent: 0, stale: 0, invalid: 0, repliesSent: 0, bytesSent: 0 };
  private readonly ranks = new Map<string, number>();
  /** Ranks by sender object: the real transports hand out one object per source, so most lookups build no key. */
  private readonly rankBySender = new WeakMap<SocketAddress, number>();
  private readonly slots: AggregatorSlot[];
  private attached = true;

  constructor(private readonly options: OmniReduceAggregatorOptions) {
    const { workers, firstSlot, slotCount, blockSize } = options;
    const bad = (what: string): never => {
      throw new OmniReduceError(OMNIREDUCE_ERROR_CODES.badConfig, `OmniReduce aggregator: ${what}`);
    };
    if (workers.length < 1) bad('the job needs at least one worker');
    if (!Number.isInteger(firstSlot) || firstSlot < 0) bad(`firstSlot must be a non-negative integer, not ${firstSlot}`);
    if (!Number.isInteger(slotCount) || slotCount < 1 || firstSlot + slotCount > 0x8000) bad(`slots ${firstSlot}..${firstSlot + slotCount - 1} do not fit the 15-bit slot field (0..32767)`);
    if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > 0xffff) bad(`blockSize must be in 1..65535, not ${blockSize}`);
    workers.forEach((a, rank) => {
      if (this.ranks.has(addressKey(a))) bad(`worker ${formatSocketAddress(a)} is listed twice`);
      this.ranks.set(addressKey(a), rank);
    });
    this.slots = Array.from({ length: slotCount }, (_, i) => new AggregatorSlot(firstSlot + i, workers.length, blockSize));
    options.transport.onDatagram((buf, offset, length, from) => this.receive(buf, offset, length, from));
  }

  /** Per slot being collected, the ranks not yet heard from: who a stalled job waits for. */
  waiting(): { slot: number; tsi: number; ranks: number[] }[] {
    const out: { slot: number; tsi: number; ranks: number[] }[] = [];
    for (const s of this.slots) {
      const tsi = s.currentTsi;
      if (tsi !== undefined) out.push({ slot: s.slot, tsi, ranks: s.waitingFor() });
    }
    return out;
  }

  /** Stops taking messages (the transport is the caller's to close). Idempotent. */
  detach(): void {
    if (!this.attached) return;
    this.attached = false;
    this.options.transport.onDatagram(undefined);
  }

  private receive(buf: Buffer, offset: number, length: number, from: SocketAddress | undefined): void {
    this.counters.messagesIn++;
    if (from === undefined) return this.reject(undefined, 'the transport does not name the sender');
    const rank = this.rankOf(from);
    const msg = decodeOmniReduce(buf, offset, offset + length);
    if (rank === undefined || !msg.ok) return this.reject(from, rank === undefined ? 'not a worker of this job' : msg.ok ? '' : msg.message);
    const slot = this.slots[msg.slot - this.options.firstSlot];
    if (slot === undefined) return this.reject(from, `slot ${msg.slot} is not in this aggregator's range`);
    const kind = messageKind(msg, this.options.blockSize);
    if (kind === undefined) return this.reject(from, `${msg.elementCount} values with tsi ${msg.tsi} and next_tsi ${msg.nextTsi} is no OmniReduce worker message`);
    const outcome = slot.handle(rank, msg, kind);
    switch (outcome.kind) {
      case 'added':
        this.counters.added++;
        return;
      case 'duplicate':
        this.counters.duplicates++;
        return;
      case 'stale':
        this.counters.stale++;
        return;
      case 'invalid':
        return this.reject(from, outcome.reason);
      case 'resend':
        this.counters.resent++;
        this.send(from, outcome.reply);
        return;
      case 'complete':
        this.counters.added++;
        this.counters.rounds++;
        for (const w of this.options.workers) this.send(w, outcome.reply);
        return;
    }
  }

  private rankOf(from: SocketAddress): number | undefined {
    const known = this.rankBySender.get(from);
    if (known !== undefined) return known;
    const rank = this.ranks.get(addressKey(from));
    if (rank !== undefined) this.rankBySender.set(from, rank);
    return rank;
  }

  private send(to: SocketAddress, reply: Buffer): void {
    if (this.options.transport.sendTo(to, reply)) {
      this.counters.repliesSent++;
      this.counters.bytesSent += reply.length;
    }
  }

  private reject(from: SocketAddress | undefined, reason: string): void {
    this.counters.invalid++;
    log.debug({ from: from === undefined ? 'unknown' : formatSocketAddress(from), reason }, 'dropped a message');
  }
}
