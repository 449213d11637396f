/**
 * When a SwitchML worker retransmits. Each slot has a deadline for its
 * outstanding packet; one timer, set for the earliest deadline, sweeps the
 * slots, so a packet costs a number written into an array instead of a timer
 * object created and cleared.
 *
 * Timeouts grow in two ways:
 * - **Worker-wide, as SwitchML does:** the base timeout is multiplied by
 *   `backoff.factor` after `backoff.everyTimeouts` timeouts, then again after
 *   twice as many more, three times as many more, and so on (SwitchML: 100,
 *   and the threshold rises by 100 each time). A base set too low for the path
 *   (a busy software switch, BMv2) adapts instead of retransmitting for ever,
 *   while steady loss, which a longer timeout does not cure, raises it ever more
 *   slowly. The base is kept across calls, like a learned RTO.
 * - **Per packet:** the k-th retransmission of the same packet waits
 *   base · factor^k, so a slot whose switch state is gone (a restart) does not
 *   flood the switch while the other slots carry on.
 * No wait exceeds `backoff.maxTimeoutMs`. A packet retransmitted `maxRetries`
 * times without a result fails the call: completion is bounded.
 */

export interface SwitchMlBackoff {
  /** The multiplier, ≥ 1 (default 2). */
  readonly factor: number;
  /** The base timeout grows by `factor` after this many timeouts, then after k times as many at the k-th growth (SwitchML: 100). */
  readonly everyTimeouts: number;
  /** The longest any wait may be. */
  readonly maxTimeoutMs: number;
}

/** The worker-wide base timeout and its growth. */
export class AdaptiveTimeout {
  private base: number;
  private timeoutsSinceGrowth = 0;
  private threshold: number;

  constructor(
    readonly initialMs: number,
    readonly backoff: SwitchMlBackoff,
  ) {
    this.base = Math.min(initialMs, backoff.maxTimeoutMs);
    this.threshold = backoff.everyTimeouts;
  }

  /** The current base timeout in ms. */
  get baseMs(): number {
    return this.base;
  }

  /** How long to wait after sending a packet for the `attempt`-th time (0: the first transmission). */
  waitMs(attempt: number): number {
    return Math.min(this.base * this.backoff.factor ** attempt, this.backoff.maxTimeoutMs);
  }

  /** One more timeout happened; when the threshold is reached, the base grows and the threshold rises. */
  recordTimeout(): void {
    if (++this.timeoutsSinceGrowth < this.threshold) return;
    this.timeoutsSinceGrowth = 0;
    this.threshold += this.backoff.everyTimeouts;
    this.base = Math.min(this.base * this.backoff.factor, this.backoff.maxTimeoutMs);
  }
}

/** Per-slot deadlines with one sweeping timer. */
export class SlotTimers {
  private readonly deadlines: Float64Array;
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
    private readonly timeout: AdaptiveTimeout,
    private readonly onExpire: (slot: number) => void,
  ) {
    this.deadlines = new Float64Array(slots).fill(Infinity);
    this.attempts = new Uint32Array(slots);
  }

  /** Retransmissions of the slot's current packet so far. */
  attemptsOf(slot: number): number {
    return this.attempts[slot]!;
  }

  /** A new packet went into `slot`. */
  started(slot: number): void {
    this.attempts[slot] = 0;
    this.arm(slot, this.timeout.waitMs(0));
  }

  /** The slot's packet was sent again after a timeout. */
  retransmitted(slot: number): void {
    this.arm(slot, this.timeout.waitMs(++this.attempts[slot]!));
  }

  /** The slot's packet was answered. */
  stopped(slot: number): void {
    this.deadlines[slot] = Infinity;
  }

  /** Stops the timer for good. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private arm(slot: number, waitMs: number): void {
    const deadline = performance.now() + waitMs;
    this.deadlines[slot] = deadline;
    if (!this.sweeping && deadline < this.timerAt) this.schedule(deadline);
  }

  private schedule(deadline: number): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(this.sweepNow, Math.max(0, deadline - performance.now()));
  }

  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const deadlines = this.deadlines;
    // Timers have millisecond resolution: a deadline less than 1 ms away is due now.
    const due = performance.now() + 1;
    this.sweeping = true;
    try {
      for (let slot = 0; slot < deadlines.length && !this.disposed; slot++) {
        if (deadlines[slot]! <= due) {
          deadlines[slot] = Infinity;
          this.timeout.recordTimeout();
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
