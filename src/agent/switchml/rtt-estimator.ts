/**
 * The SwitchML worker's retransmission timeout, estimated from the round-trip
 * times of its own packets as TCP does (RFC 6298):
 *
 * - before any sample the timeout is the configured initial one;
 * - the first sample R sets SRTT = R and RTTVAR = R/2; each later sample sets
 *   RTTVAR = 3/4·RTTVAR + 1/4·|SRTT − R|, then SRTT = 7/8·SRTT + 1/8·R;
 * - RTO = SRTT + max(G, 4·RTTVAR), clamped to [minTimeoutMs, maxTimeoutMs],
 *   where G is the clock granularity (1 ms: Node's timers);
 * - Karn's rule: the caller offers no sample from a packet that was sent more
 *   than once, since its result cannot be matched to one transmission;
 * - on a timeout the RTO backs off (× `factor`, up to the maximum), and the
 *   next sample recomputes it from SRTT and RTTVAR.
 *
 * Two refinements, both from TCP's later RFCs, matter for a window of packets:
 * - Every packet is sampled, a window's worth per round trip, where RFC 6298's
 *   gains assume about one sample per round trip; with them RTTVAR would forget
 *   a delay spike within one round trip. As RFC 7323 (appendix G) does, the
 *   gains are divided by the samples expected per round trip (the window).
 * - A retransmission answered too soon to be the one answered (see
 *   retransmission.ts) was spurious, and then the answer is known to belong to
 *   the first copy: its round trip is a valid sample after all, and it is
 *   longer than the RTO was. As the Eifel response (RFC 4015) does, SRTT and
 *   RTTVAR are raised to cover it (SRTT ≥ R, RTTVAR ≥ R/2) and the back-off is
 *   undone. Without this, a stall of the switch (a garbage collection, the
 *   switch descheduled on a busy machine) fires every outstanding deadline at
 *   once, again and again, and the retransmissions load a switch that is
 *   already the bottleneck.
 *
 * A worker has up to a pool's worth of packets outstanding, each with its own
 * deadline, where TCP has one timer per connection. When the switch stalls,
 * many deadlines pass together; doubling the RTO once for each would send it
 * to the maximum at once. So it backs off at most once per RTO period: a
 * timeout within one RTO of the last back-off is the same event.
 *
 * Why adaptive: the emulated switch's queueing delay grows with the window
 * and the number of workers, and shrinks as the pipeline gets faster; a fixed
 * timeout is either too short (spurious retransmissions add load to a switch
 * that is already the bottleneck) or too long (a lost packet stalls its slot).
 */

export interface RetransmissionPolicy {
  /** The back-off multiplier, ≥ 1 (default 2): per timeout of the estimator, and per retransmission of one packet. */
  readonly factor: number;
  /** The shortest RTO the estimator may compute, in ms. */
  readonly minTimeoutMs: number;
  /** The longest any wait may be, in ms. */
  readonly maxTimeoutMs: number;
}

/** Node's timers fire on whole milliseconds. */
export const CLOCK_GRANULARITY_MS = 1;

export class RttEstimator {
  private srtt = 0;
  private rttvar = 0;
  private rto: number;
  private sampleCount = 0;
  private lastBackoffAt = -Infinity;
  /** RFC 6298's gains (1/8 for SRTT, 1/4 for RTTVAR) over the samples expected per round trip. */
  private alpha = 1 / 8;
  private beta = 1 / 4;

  constructor(
    /** The RTO before the first sample, in ms. */
    readonly initialMs: number,
    readonly policy: RetransmissionPolicy,
  ) {
    this.rto = this.clamp(initialMs);
  }

  /** The current retransmission timeout, in ms. */
  get rtoMs(): number {
    return this.rto;
  }

  /** The smoothed round-trip time in ms (0 until the first sample). */
  get srttMs(): number {
    return this.srtt;
  }

  /** The round-trip time variation in ms (0 until the first sample). */
  get rttVarMs(): number {
    return this.rttvar;
  }

  /** Samples taken so far. */
  get samples(): number {
    return this.sampleCount;
  }

  /** About how many samples come per round trip: a call sets its window (1 or more). */
  expectSamplesPerRtt(samples: number): void {
    const n = Math.max(1, samples);
    this.alpha = 1 / 8 / n;
    this.beta = 1 / 4 / n;
  }

  /** How long to wait after sending a packet for the `attempt`-th time (0: its first transmission). */
  waitMs(attempt: number): number {
    return Math.min(this.rto * this.policy.factor ** attempt, this.policy.maxTimeoutMs);
  }

  /** A round-trip time measured on a packet sent once (Karn's rule is the caller's). */
  sample(rttMs: number): void {
    if (!(rttMs >= 0)) return;
    if (this.sampleCount++ === 0) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
    } else {
      this.rttvar = (1 - this.beta) * this.rttvar + this.beta * Math.abs(this.srtt - rttMs);
      this.srtt = (1 - this.alpha) * this.srtt + this.alpha * rttMs;
    }
    this.recompute();
  }

  /** A retransmission was spurious: the first copy's answer took `rttMs`. Raise SRTT and RTTVAR to cover it; undo the back-off. */
  spurious(rttMs: number): void {
    if (!(rttMs >= 0)) return;
    if (this.sampleCount++ === 0) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
    } else {
      this.srtt = Math.max(this.srtt, rttMs);
      this.rttvar = Math.max(this.rttvar, rttMs / 2);
    }
    this.recompute();
  }

  /** A deadline passed at `nowMs`: back off, once per RTO period. */
  timedOut(nowMs: number): void {
    if (nowMs - this.lastBackoffAt < this.rto) return;
    this.lastBackoffAt = nowMs;
    this.rto = Math.min(this.rto * this.policy.factor, this.policy.maxTimeoutMs);
  }

  private recompute(): void {
    this.rto = this.clamp(this.srtt + Math.max(CLOCK_GRANULARITY_MS, 4 * this.rttvar));
  }

  private clamp(ms: number): number {
    return Math.min(Math.max(ms, this.policy.minTimeoutMs), this.policy.maxTimeoutMs);
  }
}
