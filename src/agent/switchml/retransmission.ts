/**
 * When a SwitchML worker retransmits. Each slot has a deadline for its
 * outstanding packet; one timer, set for the earliest deadline, sweeps the
 * slots, so a packet costs a number written into an array instead of a timer
 * object created and cleared.
 *
 * The wait comes from the worker's RttEstimator (RFC 6298, rtt-estimator.ts):
 * the first transmission of a packet waits the RTO, its k-th retransmission
 * RTO · factor^k (so a slot whose switch state is gone, e.g. after a restart,
 * does not flood the switch while the other slots carry on), never more than
 * `maxTimeoutMs`. Answers feed the estimator: a packet sent once gives an RTT
 * sample; a retransmitted one gives none (Karn's rule), but when its answer
 * comes sooner than one SRTT after the retransmission, the answer was to an
 * earlier copy: the retransmission was spurious, and the round trip from the
 * first copy tells the estimator how far off it was. A packet retransmitted
 * `maxRetries` times without a result fails the call: completion is bounded.
 */
import type { RttEstimator } from './rtt-estimator.js';

/** What an answer told the estimator. */
export const enum Answer {
  /** The packet was sent once: its RTT was sampled. */
  Sampled,
  /** Retransmitted, and the answer may be to the retransmission: no sample (Karn). */
  AfterRetransmission,
  /** Retransmitted less than one SRTT before the answer came: the answer was to an earlier copy. */
  Spurious,
}

/** A monotonic clock in ms (tests pass a virtual one). */
export type Clock = () => number;

const realClock: Clock = () => performance.now();

/** Per-slot deadlines with one sweeping timer. */
export class SlotTimers {
  private readonly deadlines: Float64Array;
  /** When each slot's packet was last sent, and first sent. */
  private readonly sentAt: Float64Array;
  private readonly firstSentAt: Float64Array;
  private readonly attempts: Uint32Array;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private disposed = false;
  /** While sweeping, arming a slot does not touch the timer: the sweep sets it once at the end. */
  private sweeping = false;
  private readonly sweepNow = (): void => this.sweep();

  /**
   * `onExpire(slot)` runs when a slot's deadline passes; it retransmits and
   * calls `retransmitted(slot)`, or gives up.
   */
  constructor(
    slots: number,
    private readonly estimator: RttEstimator,
    private readonly onExpire: (slot: number) => void,
    private readonly now: Clock = realClock,
  ) {
    this.deadlines = new Float64Array(slots).fill(Infinity);
    this.sentAt = new Float64Array(slots);
    this.firstSentAt = new Float64Array(slots);
    this.attempts = new Uint32Array(slots);
  }

  /** Retransmissions of the slot's current packet so far. */
  attemptsOf(slot: number): number {
    return this.attempts[slot]!;
  }

  /** A new packet went into `slot`. */
  started(slot: number): void {
    this.attempts[slot] = 0;
    this.arm(slot, this.estimator.waitMs(0));
    this.firstSentAt[slot] = this.sentAt[slot]!;
  }

  /** The slot's packet was sent again after a timeout. */
  retransmitted(slot: number): void {
    this.arm(slot, this.estimator.waitMs(++this.attempts[slot]!));
  }

  /** The slot's packet was answered: stops its deadline and tells the estimator what it learnt. */
  answered(slot: number): Answer {
    this.deadlines[slot] = Infinity;
    const now = this.now();
    const elapsed = now - this.sentAt[slot]!;
    if (this.attempts[slot] === 0) {
      this.estimator.sample(elapsed);
      return Answer.Sampled;
    }
    if (this.estimator.samples === 0 || elapsed >= this.estimator.srttMs) return Answer.AfterRetransmission;
    this.estimator.spurious(now - this.firstSentAt[slot]!);
    return Answer.Spurious;
  }

  /** Stops the timer for good. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private arm(slot: number, waitMs: number): void {
    const now = this.now();
    const deadline = now + waitMs;
    this.sentAt[slot] = now;
    this.deadlines[slot] = deadline;
    if (!this.sweeping && deadline < this.timerAt) this.schedule(deadline);
  }

  private schedule(deadline: number): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(this.sweepNow, Math.max(0, deadline - this.now()));
  }

  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const deadlines = this.deadlines;
    // Timers have millisecond resolution: a deadline less than 1 ms away is due now.
    const now = this.now();
    const due = now + 1;
    this.sweeping = true;
    try {
      for (let slot = 0; slot < deadlines.length && !this.disposed; slot++) {
        if (deadlines[slot]! <= due) {
          deadlines[slot] = Infinity;
          this.estimator.timedOut(now);
          this.onExpire(slot);
        }
      }
    } finally {
      this.sweeping = false;
    }
    if (this.disposed) return;
    let next = Infinity;
    for (let slot = 0; slot < deadlines.length; slot++) if (deadlines[slot]! < next) next = deadlines[slot]!;
    if (next < this.timerAt) this.schedule(next);
  }
}
