/**
 * A model of the ATP switch written from docs/atp.md, "The switch" (not from
 * p4/atp.p4), for the agents' tests: a pool of aggregators shared by every
 * job, a job table saying at which level this switch aggregates for a job,
 * and per packet the rules of the document, numbered as there:
 *
 *   contribution at this switch's level for the job:
 *     1. `overflow`, a value count other than the pool's, or malformed (its
 *        level's bitmap not exactly one bit, fan-in 0, an index past the
 *        pool): forward unchanged
 *     2. aggregator owned by another tag: set `collision`, forward
 *     3. `resend`: owned by this tag → add unless the bit is in, write the
 *        merged aggregate (values, bitmap, ECN) into the packet, free, forward
 *        with `resend`; free → forward unchanged
 *     4. take if free; a bit already in is a duplicate (dropped, counted);
 *        a new bit when the count already reached the fan-in goes on
 *        unchanged; else OR the bit, add the values (int32, wrapping), OR
 *        ECN, count up
 *     5. count = fan-in → write sum, bitmap, ECN into the packet, at level 0
 *        set `edgeSwitchIdentifier` to 1, forward; the aggregator stays owned
 *     6. otherwise consumed
 *   ACK: free the aggregator at its index if the tag matches; at a level-0
 *   switch with an entry for the job, multicast to the rack; else forward.
 *   Anything else (another level, no entry, not ATP): forward.
 *
 * Packets are ATP payloads (the UDP payload); the caller routes them. The
 * model rewrites the buffer it is given. Not modelled: the job generation
 * and the reclaiming of leftovers after the reclaim time ("Leftovers"): the
 * agents' tests never set a job up twice, and recovery here must come from
 * the agents alone (collisions, resends, the PS's sweeps).
 */
import { ATP_HEADER_LENGTH, decodeAtp } from '../../../../src/wire/index.js';

export interface AtpSwitchJobEntry {
  /** The level this switch aggregates at for the job. */
  readonly level: 0 | 1;
}

export type AtpSwitchVerdict =
  | { readonly action: 'forward'; readonly rule: string }
  | { readonly action: 'consume'; readonly rule: string }
  | { readonly action: 'drop'; readonly rule: string }
  | { readonly action: 'multicast'; readonly jobId: number };

export interface AtpSwitchCounters {
  /** Contributions added into an aggregator (rule 4). */
  aggregated: number;
  /** Aggregates sent on complete (rule 5). */
  completed: number;
  collisions: number;
  /** Resends that found their aggregator and flushed it (rule 3), or found it free. */
  flushes: number;
  resendsAlone: number;
  duplicates: number;
  /** Contributions passed on unchanged by rule 1 (and rule 4's past the fan-in). */
  overflowPassed: number;
  acksFreed: number;
  acksMulticast: number;
  /** Packets not processed here: no entry, another level, not ATP. */
  passedThrough: number;
}

const FLAG_COLLISION = 0x08;
const FLAG_ECN = 0x04;
const FLAG_EDGE = 0x02;

export class ReferenceAtpSwitch {
  readonly counters: AtpSwitchCounters = {
    aggregated: 0,
    completed: 0,
    collisions: 0,
    flushes: 0,
    resendsAlone: 0,
    duplicates: 0,
    overflowPassed: 0,
    acksFreed: 0,
    acksMulticast: 0,
    passedThrough: 0,
  };
  private readonly tag: Uint32Array;
  private readonly bitmap: Uint32Array;
  private readonly count: Uint8Array;
  private readonly ecn: Uint8Array;
  private readonly values: Int32Array;
  private readonly jobs = new Map<number, AtpSwitchJobEntry>();

  constructor(
    readonly name: string,
    readonly poolSize: number,
    readonly elementsPerPacket: number,
  ) {
    this.tag = new Uint32Array(poolSize);
    this.bitmap = new Uint32Array(poolSize);
    this.count = new Uint8Array(poolSize);
    this.ecn = new Uint8Array(poolSize);
    this.values = new Int32Array(poolSize * elementsPerPacket);
  }

  addJob(jobId: number, entry: AtpSwitchJobEntry): void {
    this.jobs.set(jobId, entry);
  }

  /** The owner tag of an aggregator (0: free). */
  ownerOf(index: number): number {
    return this.tag[index]!;
  }

  /** Aggregators owned now. */
  get owned(): number {
    let n = 0;
    for (const t of this.tag) if (t !== 0) n++;
    return n;
  }

  process(packet: Buffer): AtpSwitchVerdict {
    const p = decodeAtp(packet);
    if (!p.ok) return this.pass('not ATP');
    const entry = this.jobs.get(p.jobId);
    if (entry === undefined) return this.pass('no entry');
    if (p.isAck) return this.ack(p.aggregatorIndex, p.jobIdAndSequenceNumber, p.jobId, entry);
    if (p.edgeSwitchIdentifier !== entry.level) return this.pass('another level');
    const V = this.elementsPerPacket;
    const i = p.aggregatorIndex;
    const level = entry.level;
    const bitmapAt = level === 0 ? 0 : 4;
    const bit = level === 0 ? p.bitmap0 : p.bitmap1;
    const fanIn = level === 0 ? p.fanInDegree0 : p.fanInDegree1;
    // Rule 1.
    const oneBit = bit !== 0 && (bit & (bit - 1)) === 0;
    if (p.overflow || p.elementCount !== V || !oneBit || fanIn === 0 || i >= this.poolSize) {
      this.counters.overflowPassed++;
      return { action: 'forward', rule: '1 overflow or length' };
    }
    const tag = p.jobIdAndSequenceNumber;
    const owner = this.tag[i]!;
    // Rule 2.
    if (owner !== 0 && owner !== tag) {
      packet[9] = packet[9]! | FLAG_COLLISION;
      this.counters.collisions++;
      return { action: 'forward', rule: '2 collision' };
    }
    // Rule 3.
    if (p.resend) {
      if (owner === 0) {
        this.counters.resendsAlone++;
        return { action: 'forward', rule: '3 resend, aggregator free' };
      }
      if ((this.bitmap[i]! & bit) === 0) this.add(i, packet, bit, p.ecn);
      this.writeAggregate(i, packet, bitmapAt);
      this.free(i);
      this.counters.flushes++;
      return { action: 'forward', rule: '3 flush' };
    }
    // Rule 4.
    if (owner === 0) this.tag[i] = tag;
    if ((this.bitmap[i]! & bit) !== 0) {
      this.counters.duplicates++;
      return { action: 'drop', rule: '4 duplicate' };
    }
    if (this.count[i]! >= fanIn) {
      this.counters.overflowPassed++;
      return { action: 'forward', rule: '4 past the fan-in' };
    }
    this.add(i, packet, bit, p.ecn);
    this.counters.aggregated++;
    // Rule 5.
    if (this.count[i] === fanIn) {
      this.writeAggregate(i, packet, bitmapAt);
      if (level === 0) packet[9] = packet[9]! | FLAG_EDGE;
      this.counters.completed++;
      return { action: 'forward', rule: '5 complete' };
    }
    // Rule 6.
    return { action: 'consume', rule: '6 partial' };
  }

  private ack(index: number, tag: number, jobId: number, entry: AtpSwitchJobEntry): AtpSwitchVerdict {
    if (index < this.poolSize && this.tag[index] === tag) {
      this.free(index);
      this.counters.acksFreed++;
    }
    if (entry.level === 0) {
      this.counters.acksMulticast++;
      return { action: 'multicast', jobId };
    }
    return { action: 'forward', rule: 'ack' };
  }

  private pass(rule: string): AtpSwitchVerdict {
    this.counters.passedThrough++;
    return { action: 'forward', rule };
  }

  private add(i: number, packet: Buffer, bit: number, ecn: boolean): void {
    const V = this.elementsPerPacket;
    const base = i * V;
    for (let k = 0; k < V; k++) this.values[base + k] = (this.values[base + k]! + packet.readInt32BE(ATP_HEADER_LENGTH + 4 * k)) | 0;
    this.bitmap[i] = (this.bitmap[i]! | bit) >>> 0;
    this.count[i] = this.count[i]! + 1;
    if (ecn) this.ecn[i] = 1;
  }

  private writeAggregate(i: number, packet: Buffer, bitmapAt: number): void {
    const V = this.elementsPerPacket;
    const base = i * V;
    for (let k = 0; k < V; k++) packet.writeInt32BE(this.values[base + k]!, ATP_HEADER_LENGTH + 4 * k);
    packet.writeUInt32BE(this.bitmap[i]!, bitmapAt);
    // ECN is ORed: a mark the packet already carries is never lost.
    if (this.ecn[i]) packet[9] = packet[9]! | FLAG_ECN;
  }

  private free(i: number): void {
    const V = this.elementsPerPacket;
    this.tag[i] = 0;
    this.bitmap[i] = 0;
    this.count[i] = 0;
    this.ecn[i] = 0;
    this.values.fill(0, i * V, (i + 1) * V);
  }
}

/** Sets the ATP `ecn` bit of a payload (what an egress port past its threshold does). */
export function markAtpEcn(packet: Buffer): void {
  if (packet.length >= ATP_HEADER_LENGTH) packet[9] = packet[9]! | FLAG_ECN;
}
