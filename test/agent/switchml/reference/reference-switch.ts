/**
 * An exact, pure model of what `p4/switchml.p4` does with a SwitchML update
 * (docs/p4-programs.md §3, docs/wire.md §4): the in-memory switch of unit
 * tests, and the oracle the P4 program is checked against packet by packet
 * (test/e2e/switchml/packet-by-packet.test.ts). No I/O: `process` takes the
 * UDP payload of a packet that reached the switch's SwitchML ports, addressed
 * to the switch, and says what leaves it. Ethernet/IP/UDP addressing, the
 * rewrite of each result copy in egress (by `egress_rid`) and forwarding are
 * the harness's part (reference-switch-frames.ts builds the frames).
 *
 * The checks, in the program's order; the first that fails drops the packet
 * and counts its reason (reference-switch-drops.ts has the P4 codes):
 * 1. Header: fewer than 14 bytes → `malformed`; `version` ≠ 1 → `badVersion`
 *    (another layout must not be added into a slot); neither an UPDATE nor a
 *    RECOVERY_UPDATE → `notUpdate` (results are made by the switch); `elem_count` ≠ the
 *    compiled count → `badElementCount`; the values cut short → `malformed`;
 *    bytes after them → `badLength`.
 * 2. Job table: unknown → `unknownJob`; `slot` ≥ pool size → `slotOutOfRange`
 *    (what keeps jobs out of each other's cells); base + slot past the
 *    registers → `slotBeyondRegisters`.
 * 3. Worker table: unknown (job, worker) → `unknownWorker`; a source check
 *    (IPv4 source and UDP source port) that fails → `wrongSource`.
 * 4. The slot copy (cell 2·(base + slot) + set). "Same round": the packet's
 *    tsi and epoch equal the copy's `roundTsi`/`roundEpoch`. "Its bit": the
 *    worker's bit is in `seen`. "Older": the same epoch and a smaller tsi, or
 *    an epoch 1..127 behind (workers count epochs up by one per operation).
 *    - complete (`remaining` 0), same round, its bit → a RETRANSMITTED_RESULT
 *      with the stored sums and maximum exponent, back to the sender only;
 *    - complete and used before (`seen` ≠ 0), older → `stale`: a late packet
 *      must not open a round that the real one would find occupied; but a
 *      RECOVERY_UPDATE of a one-worker job takes it over (`takeovers`);
 *    - otherwise complete or never used → a new round: `seen` = its bit,
 *      `remaining` = n − 1, round = the packet's (tsi, epoch), its exponent and
 *      values **written** (no register reset is ever needed, which BMv2 could
 *      not do over P4Runtime); a RESULT at once when n = 1;
 *    - filling, another round that is not older, or any other round when the
 *      packet is a RECOVERY_UPDATE → a takeover: a new round as above over
 *      the abandoned one (counted in `takeovers` too);
 *    - filling, another round, older → `stale`; filling, same round, its bit →
 *      `incompleteRetransmission` (the RESULT will come by multicast);
 *    - filling, same round, a new bit → its values added (int32, wrapping as
 *      bit<32> does), the larger exponent kept, `remaining` − 1; at 0 a RESULT.
 *
 * A RESULT or RETRANSMITTED_RESULT is the update's payload with the message
 * type, the exponent (the round's maximum) and the values (the sums)
 * replaced; everything else, the sender's worker id included, is echoed.
 */
import { SWITCHML_DEFAULT_ELEMENTS, SWITCHML_HEADER_LENGTH, SWITCHML_VERSION, SwitchMlMessageType } from '../../../../src/wire/index.js';
import { zeroCounters, type SwitchMlDropReason, type SwitchMlSwitchCounters } from './reference-switch-drops.js';
import { registerJob, type ReferenceJob, type ReferenceJobConfig } from './reference-switch-jobs.js';
import { SwitchMlRegisters, type SlotCopyState } from './reference-switch-registers.js';

export type { SwitchMlDropReason, SwitchMlSwitchCounters } from './reference-switch-drops.js';

/** What leaves the switch for one packet. */
export type SwitchMlVerdict =
  | { readonly action: 'drop'; readonly reason: SwitchMlDropReason }
  /** Added into the slot; nothing leaves. */
  | { readonly action: 'aggregated'; readonly jobId: number; readonly workerId: number }
  /** A RESULT to every worker of the job. */
  | { readonly action: 'multicast'; readonly jobId: number; readonly workerIds: readonly number[]; readonly packet: Buffer }
  /** A RETRANSMITTED_RESULT back to the worker that sent the packet. */
  | { readonly action: 'unicast'; readonly jobId: number; readonly workerId: number; readonly packet: Buffer };

export interface ReferenceSwitchOptions {
  /** Register entries (slots) of the program; each has two copies (default 8192, SwitchML's on Tofino). */
  readonly capacity?: number;
  /** Values per packet, as compiled (default 64). */
  readonly elementsPerPacket?: number;
}

/** What the harness knows about a packet beyond its UDP payload. */
export interface ReferencePacketContext {
  /** The IPv4 source and UDP source port, for workers whose entry checks them. */
  readonly sourceIp?: number;
  readonly sourcePort?: number;
}

/** The header fields the rules read, at their byte offsets in the payload. */
interface UpdateHeader {
  readonly workerId: number;
  readonly jobId: number;
  readonly tsi: number;
  readonly set: number;
  readonly slot: number;
  readonly exponent: number;
  readonly epoch: number;
  readonly recovery: boolean;
}

export class ReferenceSwitchMl {
  readonly registers: SwitchMlRegisters;
  readonly counters: SwitchMlSwitchCounters = zeroCounters();
  private readonly jobs = new Map<number, ReferenceJob>();

  constructor(options: ReferenceSwitchOptions = {}) {
    this.registers = new SwitchMlRegisters(options.capacity ?? 8192, options.elementsPerPacket ?? SWITCHML_DEFAULT_ELEMENTS);
  }

  get elementsPerPacket(): number {
    return this.registers.elementsPerPacket;
  }

  /** Installs a job's table entries (RangeError if its slot range overlaps another job's or does not fit). */
  addJob(config: ReferenceJobConfig): void {
    const job = registerJob(config, this.jobs, this.registers.capacity);
    this.jobs.set(job.jobId, job);
  }

  /** Removes a job's table entries; its registers keep their values, as on a switch. */
  removeJob(jobId: number): boolean {
    return this.jobs.delete(jobId);
  }

  /** Zeroes a job's register range (what the controller does before reusing a range). */
  resetJob(jobId: number): void {
    const job = this.jobs.get(jobId);
    if (!job) throw new RangeError(`job ${jobId} is not installed`);
    this.registers.clear(job.slotBase, job.poolSize);
  }

  /** A snapshot of a job's slot copy. */
  readSlot(jobId: number, slot: number, set: 0 | 1): SlotCopyState {
    const job = this.jobs.get(jobId);
    if (!job) throw new RangeError(`job ${jobId} is not installed`);
    if (!Number.isInteger(slot) || slot < 0 || slot >= job.poolSize) throw new RangeError(`slot ${slot} is outside job ${jobId}'s pool of ${job.poolSize}`);
    return this.registers.read(2 * (job.slotBase + slot) + set);
  }

  /** Applies the rules to one packet's UDP payload, `buf[offset .. offset + length)`. */
  process(buf: Buffer, offset = 0, length = buf.length - offset, context: ReferencePacketContext = {}): SwitchMlVerdict {
    if (length < SWITCHML_HEADER_LENGTH) return this.drop('malformed');
    if (buf[offset]! >>> 4 !== SWITCHML_VERSION) return this.drop('badVersion');
    const messageType = buf[offset]! & 0x0f;
    if (messageType !== SwitchMlMessageType.UPDATE && messageType !== SwitchMlMessageType.RECOVERY_UPDATE) return this.drop('notUpdate');
    const elements = this.registers.elementsPerPacket;
    if (buf.readUInt16BE(offset + 10) !== elements) return this.drop('badElementCount');
    const byteLength = SWITCHML_HEADER_LENGTH + 4 * elements;
    if (length < byteLength) return this.drop('malformed');
    if (length > byteLength) return this.drop('badLength');
    const poolIndex = buf.readUInt16BE(offset + 8);
    const h: UpdateHeader = {
      workerId: buf[offset + 1]!,
      jobId: buf.readUInt16BE(offset + 2),
      tsi: buf.readUInt32BE(offset + 4),
      set: poolIndex >>> 15,
      slot: poolIndex & 0x7fff,
      exponent: buf.readInt8(offset + 12),
      epoch: buf[offset + 13]!,
      recovery: messageType === SwitchMlMessageType.RECOVERY_UPDATE,
    };
    const job = this.jobs.get(h.jobId);
    if (!job) return this.drop('unknownJob');
    if (h.slot >= job.poolSize) return this.drop('slotOutOfRange');
    if (job.slotBase + h.slot >= this.registers.capacity) return this.drop('slotBeyondRegisters');
    const bit = job.bits.get(h.workerId);
    if (bit === undefined) return this.drop('unknownWorker');
    const source = job.sources?.get(h.workerId);
    if (source !== undefined && (context.sourceIp !== source.ip || context.sourcePort !== source.port)) return this.drop('wrongSource');
    return this.aggregate(job, bit, h, buf.subarray(offset, offset + length));
  }

  private aggregate(job: ReferenceJob, bit: number, h: UpdateHeader, packet: Buffer): SwitchMlVerdict {
    const r = this.registers;
    const cell = 2 * (job.slotBase + h.slot) + h.set;
    const seen = r.bitmap[cell]!;
    const epochAge = (r.roundEpoch[cell]! - h.epoch) & 0xff;
    const sameRound = h.tsi === r.roundTsi[cell] && epochAge === 0;
    const hasBit = (seen & bit) !== 0;
    const older = (epochAge !== 0 && epochAge < 128) || (epochAge === 0 && h.tsi < r.roundTsi[cell]!);
    let startRound = false;
    if (r.remaining[cell] === 0) {
      if (sameRound && hasBit) {
        this.counters.retransmittedResults++;
        return { action: 'unicast', jobId: job.jobId, workerId: h.workerId, packet: this.resultPacket(packet, cell, SwitchMlMessageType.RETRANSMITTED_RESULT) };
      }
      if (seen !== 0 && older) {
        // Only a one-worker job's worker may take over a complete round: nobody else can need its result.
        if (!h.recovery || job.numWorkers !== 1) return this.drop('stale');
        this.counters.takeovers++;
      }
      startRound = true;
    } else if (!sameRound) {
      // A copy filling a round nobody will finish: a newer round, or a worker that has waited too long, takes it over.
      if (older && !h.recovery) return this.drop('stale');
      startRound = true;
      this.counters.takeovers++;
    } else {
      if (hasBit) return this.drop('incompleteRetransmission');
      r.bitmap[cell] = (seen | bit) >>> 0;
      r.remaining[cell]!--;
      if (h.exponent > r.exponent[cell]!) r.exponent[cell] = h.exponent;
      const stored = r.valuesOf(cell);
      const values = readValues(packet, r.elementsPerPacket);
      for (let i = 0; i < stored.length; i++) stored[i] = (stored[i]! + values[i]!) | 0;
    }
    if (startRound) {
      // The first contribution of a new round writes.
      r.bitmap[cell] = bit;
      r.remaining[cell] = job.numWorkers - 1;
      r.roundTsi[cell] = h.tsi;
      r.roundEpoch[cell] = h.epoch;
      r.exponent[cell] = h.exponent;
      r.valuesOf(cell).set(readValues(packet, r.elementsPerPacket));
    }
    if (r.remaining[cell] !== 0) {
      this.counters.aggregated++;
      return { action: 'aggregated', jobId: job.jobId, workerId: h.workerId };
    }
    this.counters.results++;
    return { action: 'multicast', jobId: job.jobId, workerIds: job.workerIds, packet: this.resultPacket(packet, cell, SwitchMlMessageType.RESULT) };
  }

  /** The update rewritten as a result: the message type, the round's maximum exponent and the sums replaced. */
  private resultPacket(update: Buffer, cell: number, messageType: SwitchMlMessageType): Buffer {
    const out = Buffer.from(update);
    out[0] = (SWITCHML_VERSION << 4) | messageType;
    out.writeInt8(this.registers.exponent[cell]!, 12);
    const sums = this.registers.valuesOf(cell);
    for (let i = 0; i < sums.length; i++) out.writeInt32BE(sums[i]!, SWITCHML_HEADER_LENGTH + 4 * i);
    return out;
  }

  private drop(reason: SwitchMlDropReason): SwitchMlVerdict {
    this.counters[reason]++;
    return { action: 'drop', reason };
  }
}

function readValues(packet: Buffer, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = packet.readInt32BE(SWITCHML_HEADER_LENGTH + 4 * i);
  return out;
}
