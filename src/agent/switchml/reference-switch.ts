/**
 * An exact, pure model of what the switch does with a SwitchML packet
 * (docs/wire.md §4; SwitchML's Algorithm 3): the in-memory switch of unit
 * tests, and the oracle that `p4/switchml.p4` is checked against packet by
 * packet. No I/O: `process` takes the UDP payload of a packet that reached
 * the SwitchML ports and says what leaves the switch. Ethernet/IP/UDP
 * forwarding, the rewrite of each result copy's addresses in egress (by
 * `egress_rid`) and the optional source-address check of the worker table are
 * the harness's part.
 *
 * The rules, in the order they are applied, each with its reason:
 *
 * 1. **Parse.** Fewer bytes than the header and the values it announces, or
 *    more → drop `malformed` (the P4 parser extracts a fixed number of values).
 *    `version` ≠ 1 → drop `badVersion`: another layout must not be added into a
 *    slot. A message type other than UPDATE → drop `notUpdate`: results are
 *    made by the switch, never aggregated. `elem_count` ≠ the compiled count →
 *    drop `badElementCount`: the registers hold exactly that many values.
 * 2. **Job table** (`job_id` → slot base, pool size, worker count). Unknown job →
 *    drop `unknownJob`. `slot` ≥ pool size → drop `slotOutOfRange`: that check
 *    is what keeps jobs out of each other's register ranges.
 * 3. **Worker table** ((`job_id`, `worker_id`) → bitmap bit). Unknown worker
 *    (a worker id ≥ 32 included) → drop `unknownWorker`.
 * 4. **Seen bitmap.** With r = base + slot, v = set, b = the worker's bit:
 *    old = seen[r][v]; seen[r][v] |= b; seen[r][1−v] &= ~b. Clearing the other
 *    copy readies it for the worker's next use of the slot, which is in the
 *    other set; a worker uses copy v again only after the result of 1 − v,
 *    which needs every worker's update for 1 − v, which cleared their bits in v.
 * 5. **New contribution** (old & b = 0):
 *    - if remaining[r][v] = 0 the copy is complete or unused, so this packet
 *      starts a round: it **writes** its values and exponent instead of adding
 *      and comparing (no register reset is ever needed, which BMv2 could not
 *      do over P4Runtime) and remaining becomes n − 1;
 *    - otherwise it adds its values (int32, wrapping as P4's bit<32> addition
 *      does; the workers' scaling keeps real sums from wrapping), keeps the
 *      larger exponent, and remaining decreases by one;
 *    - remaining now 0 → the round is complete: a RESULT with the sums and the
 *      maximum exponent goes to every worker of the job (multicast); the
 *      packet's tsi, epoch, slot, set and worker id are echoed. Otherwise the
 *      packet is consumed (`aggregated`, nothing leaves).
 * 6. **Retransmission** (old & b ≠ 0): the worker already contributed to this
 *    round.
 *    - remaining = 0 → the round is complete and the worker missed its result:
 *      a RETRANSMITTED_RESULT with the stored sums and exponent goes back to
 *      that worker only (unicast out of the ingress port);
 *    - otherwise → drop `incompleteRetransmission`: the result will come by
 *      multicast once the others' updates arrive.
 *
 * Known limit, as in SwitchML: a stale copy of a worker's update for copy v
 * that arrives after the worker's next update into the same slot (copy 1 − v,
 * which cleared its bit in v) looks new. If v is complete it starts a spurious
 * round there. Workers send in order and wait a round trip before reusing a
 * slot, so only reordering inside the network can cause it; p4ina assumes a
 * worker's path to the switch keeps its packets for one slot in order.
 */
import { decodeSwitchMl, encodeSwitchMl, SWITCHML_DEFAULT_ELEMENTS, SwitchMlMessageType, type SwitchMlPacket, WireErrorCode } from '../../wire/index.js';
import { SwitchMlRegisters, type SlotCopyState } from './reference-switch-registers.js';
import { registerJob, type ReferenceJob, type ReferenceJobConfig } from './reference-switch-jobs.js';

export type SwitchMlDropReason =
  | 'malformed'
  | 'badVersion'
  | 'notUpdate'
  | 'badElementCount'
  | 'unknownJob'
  | 'slotOutOfRange'
  | 'unknownWorker'
  | 'incompleteRetransmission';

/** What leaves the switch for one packet. */
export type SwitchMlVerdict =
  | { readonly action: 'drop'; readonly reason: SwitchMlDropReason }
  /** Added into the slot; nothing leaves. */
  | { readonly action: 'aggregated'; readonly jobId: number; readonly workerId: number }
  /** A RESULT to every worker of the job. */
  | { readonly action: 'multicast'; readonly jobId: number; readonly workerIds: readonly number[]; readonly packet: Buffer }
  /** A RETRANSMITTED_RESULT back to the worker that sent the packet. */
  | { readonly action: 'unicast'; readonly jobId: number; readonly workerId: number; readonly packet: Buffer };

export type SwitchMlSwitchCounters = Record<SwitchMlDropReason | 'aggregated' | 'results' | 'retransmittedResults', number>;

export interface ReferenceSwitchOptions {
  /** Register entries (slots) of the program; each has two copies (default 8192, SwitchML's on Tofino). */
  readonly capacity?: number;
  /** Values per packet, as compiled (default 64). */
  readonly elementsPerPacket?: number;
}

export class ReferenceSwitchMl {
  readonly registers: SwitchMlRegisters;
  readonly counters: SwitchMlSwitchCounters = {
    malformed: 0,
    badVersion: 0,
    notUpdate: 0,
    badElementCount: 0,
    unknownJob: 0,
    slotOutOfRange: 0,
    unknownWorker: 0,
    incompleteRetransmission: 0,
    aggregated: 0,
    results: 0,
    retransmittedResults: 0,
  };
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
  process(buf: Buffer, offset = 0, length = buf.length - offset): SwitchMlVerdict {
    const p = decodeSwitchMl(buf, offset, offset + length);
    if (!p.ok) {
      switch (p.code) {
        case WireErrorCode.SWITCHML_BAD_VERSION:
          return this.drop('badVersion');
        case WireErrorCode.SWITCHML_BAD_MESSAGE_TYPE:
          return this.drop('notUpdate');
        case WireErrorCode.SWITCHML_BAD_WORKER_ID:
          return this.drop('unknownWorker');
        default:
          return this.drop('malformed');
      }
    }
    if (p.messageType !== SwitchMlMessageType.UPDATE) return this.drop('notUpdate');
    if (p.elementCount !== this.registers.elementsPerPacket) return this.drop('badElementCount');
    const job = this.jobs.get(p.jobId);
    if (!job) return this.drop('unknownJob');
    if (p.slot >= job.poolSize) return this.drop('slotOutOfRange');
    const bit = job.bits.get(p.workerId);
    if (bit === undefined) return this.drop('unknownWorker');
    return this.aggregate(job, bit, p);
  }

  private aggregate(job: ReferenceJob, bit: number, p: SwitchMlPacket): SwitchMlVerdict {
    const r = this.registers;
    const copy = 2 * (job.slotBase + p.slot) + p.set;
    const other = copy ^ 1;
    const old = r.bitmap[copy]!;
    r.bitmap[copy] = (old | bit) >>> 0;
    r.bitmap[other] = (r.bitmap[other]! & ~bit) >>> 0;
    if ((old & bit) !== 0) {
      if (r.remaining[copy] !== 0) return this.drop('incompleteRetransmission');
      this.counters.retransmittedResults++;
      return { action: 'unicast', jobId: job.jobId, workerId: p.workerId, packet: this.resultPacket(p, copy, SwitchMlMessageType.RETRANSMITTED_RESULT) };
    }
    const stored = r.valuesOf(copy);
    const values = p.values;
    if (r.remaining[copy] === 0) {
      r.remaining[copy] = job.numWorkers - 1;
      r.exponent[copy] = p.exponent;
      for (let i = 0; i < stored.length; i++) stored[i] = values.get(i);
    } else {
      r.remaining[copy]!--;
      if (p.exponent > r.exponent[copy]!) r.exponent[copy] = p.exponent;
      for (let i = 0; i < stored.length; i++) stored[i] = (stored[i]! + values.get(i)) | 0;
    }
    if (r.remaining[copy] !== 0) {
      this.counters.aggregated++;
      return { action: 'aggregated', jobId: job.jobId, workerId: p.workerId };
    }
    this.counters.results++;
    return { action: 'multicast', jobId: job.jobId, workerIds: job.workerIds, packet: this.resultPacket(p, copy, SwitchMlMessageType.RESULT) };
  }

  /** The packet rewritten as a result: its header echoed, the type, the maximum exponent and the sums replaced. */
  private resultPacket(p: SwitchMlPacket, copy: number, messageType: SwitchMlMessageType): Buffer {
    const out = Buffer.alloc(p.byteLength);
    encodeSwitchMl(out, 0, {
      messageType,
      jobId: p.jobId,
      workerId: p.workerId,
      tsi: p.tsi,
      slot: p.slot,
      set: p.set,
      elementCount: p.elementCount,
      exponent: this.registers.exponent[copy]!,
      epoch: p.epoch,
      values: this.registers.valuesOf(copy),
    });
    return out;
  }

  private drop(reason: SwitchMlDropReason): SwitchMlVerdict {
    this.counters[reason]++;
    return { action: 'drop', reason };
  }
}
