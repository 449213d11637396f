/**
 * One port's egress queue, between the traffic manager and egress, as BMv2's
 * simple_switch has one per port: FIFO, a capacity in packets with tail
 * drop, and a transmit rate. The link model is BMv2's: a packet leaves (is
 * handed to egress) at max(its arrival, the time the link is free), and the
 * link is then busy for 1/rate seconds (packets/s) or for the packet's bits
 * at the rate (bits/s). A packet that finds the link free leaves at once,
 * synchronously, so a queue that never fills costs no timer.
 *
 * Times are exact: each packet leaves at its scheduled time, and a queue is
 * brought up to date (everything due leaves) before a packet is admitted,
 * so the depth a packet sees counts exactly the packets ahead of it that
 * have not left yet, however late the real timer fires.
 */
import { workOf, type PortRate } from './port-rate.js';
import type { QueueClock } from './queue-clock.js';
import { DEFAULT_QUEUE_DEPTH } from './queue-setting.js';
import { Fifo } from './fifo.js';

/** Hands a packet to egress: when it left (µs) and how many packets are still queued behind it. */
export type Departure<T> = (item: T, atMicros: number, depthAfter: number) => void;

export interface QueueStats {
  /** The transmit rate; undefined when the port is unlimited. */
  readonly rate: PortRate | undefined;
  /** Capacity in packets. */
  readonly capacity: number;
  /** Packets waiting now. */
  readonly depth: number;
  /** The most packets that waited at once. */
  readonly maxDepth: number;
  readonly enqueued: number;
  readonly departed: number;
  /** Packets refused because the queue was full. */
  readonly tailDrops: number;
  /** Packets dropped from the queue by a pipeline change or the switch stopping. */
  readonly flushed: number;
}

export class PortQueue<T> {
  private readonly fifo = new Fifo<T>();
  private rate: PortRate | undefined = undefined;
  private capacity = DEFAULT_QUEUE_DEPTH;
  // The link is free from anchor + work / rate on: `work` (packets or bits) counts what was sent
  // since the busy period began at `anchor`, so departure times carry one rounding, not a sum of them.
  private anchor = -Infinity;
  private work = 0;
  private cancelTimer: (() => void) | undefined = undefined;
  private timerAt = Infinity;
  private draining = false;
  private maxDepth = 0;
  private enqueued = 0;
  private departed = 0;
  private tailDrops = 0;
  private flushed = 0;

  constructor(
    readonly port: number,
    private readonly clock: QueueClock,
    private readonly depart: Departure<T>,
  ) {}

  get depth(): number {
    return this.fifo.size;
  }

  get tailDropCount(): number {
    return this.tailDrops;
  }

  /**
   * Brings the queue up to `now` and says whether one more packet fits: the
   * number of packets it would have ahead of it (enq_qdepth), or -1 when the
   * queue is full (the tail drop is counted). Call push next if it fits.
   */
  admit(now: number): number {
    this.drain(now);
    if (this.fifo.size >= this.capacity) {
      this.tailDrops++;
      return -1;
    }
    return this.fifo.size;
  }

  /** Queues a packet of `bytes` that arrived at `now` (after admit said it fits); it may leave at once. */
  push(item: T, now: number, bytes: number): void {
    this.fifo.push(item, now, bytes);
    this.enqueued++;
    if (this.fifo.size > this.maxDepth) this.maxDepth = this.fifo.size;
    this.drain(now);
  }

  /**
   * A new rate from the next packet on: the one on the link finishes at the
   * old rate. Unlimited (undefined): the packets waiting leave at once.
   */
  setRate(rate: PortRate | undefined, now: number): void {
    this.anchor = rate === undefined ? now : this.freeAt();
    this.work = 0;
    this.rate = rate;
    this.disarm();
    this.drain(now);
  }

  /** A new capacity; packets already queued beyond it stay, new ones are refused until it drains below. */
  setCapacity(capacity: number): void {
    this.capacity = capacity;
  }

  /** Drops every queued packet (counted as flushed); returns how many. */
  flush(): number {
    this.disarm();
    const n = this.fifo.clear();
    this.flushed += n;
    return n;
  }

  stats(): QueueStats {
    const { rate, capacity, maxDepth, enqueued, departed, tailDrops, flushed } = this;
    return { rate, capacity, depth: this.fifo.size, maxDepth, enqueued, departed, tailDrops, flushed };
  }

  /** When the link can start the next packet. */
  private freeAt(): number {
    const rate = this.rate;
    return rate === undefined || this.work === 0 ? this.anchor : this.anchor + (this.work * 1e6) / rate.value;
  }

  /** Hands every packet due by `now` to egress, in order; arms the timer for the next one. */
  private drain(now: number): void {
    // A departing packet can come back to this queue (recirculated, or through another switch in
    // the same process): it is appended, and this loop serves it in its turn.
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.fifo.size > 0) {
        const arrival = this.fifo.headArrival();
        let at = this.freeAt();
        if (arrival >= at) at = arrival;
        if (at > now) {
          this.arm(at, now);
          return;
        }
        if (at === arrival) {
          // The link was idle: a new busy period begins with this packet.
          this.anchor = arrival;
          this.work = 0;
        }
        const bytes = this.fifo.headBytes();
        const item = this.fifo.shift();
        if (this.rate !== undefined) this.work += workOf(this.rate, bytes);
        this.departed++;
        this.depart(item, at, this.fifo.size);
      }
    } finally {
      this.draining = false;
      // Only if egress threw (a bug, counted by the device): the rest still leaves, from a timer.
      if (this.fifo.size > 0 && this.cancelTimer === undefined) this.arm(now, now);
    }
  }

  private arm(at: number, now: number): void {
    if (this.cancelTimer !== undefined && this.timerAt <= at) return;
    this.disarm();
    this.timerAt = at;
    this.cancelTimer = this.clock.schedule(at - now, () => {
      this.cancelTimer = undefined;
      this.timerAt = Infinity;
      this.drain(this.clock.nowMicros());
    });
  }

  private disarm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Infinity;
  }
}
