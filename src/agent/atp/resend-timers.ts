/**
 * When an ATP worker resends. Each window position has a deadline for its
 * outstanding packet; one timer, set for the earliest deadline, sweeps them,
 * so a packet costs a number in an array rather than a timer of its own.
 *
 * The wait comes from the worker's RttEstimator (RFC 6298, shared with the
 * SwitchML worker): a first transmission waits the RTO, the k-th resend of
 * the same packet RTO·factor^k, never more than the ceiling; and each
 * timeout backs the RTO off too (at most once per RTO), until the next sample
 * resets it. So a packet stuck while others are answered is resent at
 * RTO·2^k, and when nothing is answered at all the waits grow 4× per resend
 * (both back-offs, as in the SwitchML worker). Only a packet answered after
 * one transmission gives an RTT sample (Karn's rule). Clock and timers are
 * injected (time.ts), so tests run this in virtual time.
 */
import type { RttEstimator } from '../switchml/rtt-estimator.js';
import type { AgentClock, AgentTimers, CancelTimer } from '../time.js';

export class ResendTimers {
  private readonly deadlines: Float64Array;
  private readonly sentAt: Float64Array;
  private readonly resends: Uint32Array;
  private cancel: CancelTimer | undefined;
  private timerAt = Infinity;
  private disposed = false;
  private sweeping = false;

  /** `onExpire(position)` runs when a deadline passes; it resends and calls `resent`, or gives up. */
  constructor(
    positions: number,
    private readonly estimator: RttEstimator,
    private readonly clock: AgentClock,
    private readonly timers: AgentTimers,
    private readonly onExpire: (position: number) => void,
  ) {
    this.deadlines = new Float64Array(positions).fill(Infinity);
    this.sentAt = new Float64Array(positions);
    this.resends = new Uint32Array(positions);
  }

  /** Resends of the position's current packet so far. */
  resendsOf(position: number): number {
    return this.resends[position]!;
  }

  /** A new packet went out at `position`. */
  started(position: number): void {
    this.resends[position] = 0;
    this.arm(position, this.estimator.waitMs(0));
  }

  /** The position's packet was sent again. */
  resent(position: number): void {
    this.arm(position, this.estimator.waitMs(++this.resends[position]!));
  }

  /** The position's packet was answered: stops its deadline; a packet sent once is an RTT sample. */
  answered(position: number): void {
    this.deadlines[position] = Infinity;
    if (this.resends[position] === 0) this.estimator.sample(this.clock.now() - this.sentAt[position]!);
  }

  /** Stops the timer for good. */
  dispose(): void {
    this.disposed = true;
    this.cancel?.();
    this.cancel = undefined;
    this.timerAt = Infinity;
  }

  private arm(position: number, waitMs: number): void {
    const now = this.clock.now();
    const deadline = now + waitMs;
    this.sentAt[position] = now;
    this.deadlines[position] = deadline;
    if (!this.sweeping && deadline < this.timerAt) this.schedule(deadline);
  }

  private schedule(deadline: number): void {
    if (this.disposed) return;
    this.cancel?.();
    this.timerAt = deadline;
    this.cancel = this.timers.schedule(Math.max(0, deadline - this.clock.now()), () => this.sweep());
  }

  private sweep(): void {
    this.cancel = undefined;
    this.timerAt = Infinity;
    const deadlines = this.deadlines;
    const now = this.clock.now();
    // Real timers have millisecond resolution: a deadline less than 1 ms away is due now.
    const due = now + 1;
    this.sweeping = true;
    try {
      for (let p = 0; p < deadlines.length && !this.disposed; p++) {
        if (deadlines[p]! <= due) {
          deadlines[p] = Infinity;
          this.estimator.timedOut(now);
          this.onExpire(p);
        }
      }
    } finally {
      this.sweeping = false;
    }
    if (this.disposed) return;
    let next = Infinity;
    for (let p = 0; p < deadlines.length; p++) if (deadlines[p]! < next) next = deadlines[p]!;
    if (next < Infinity) this.schedule(next);
  }
}
