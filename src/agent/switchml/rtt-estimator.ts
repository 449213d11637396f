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
 *   retransmission.ts) was spurious: the back-off that its timeout caused is
 *   undone (as the Eifel response, RFC 4015, does), but its first copy's round
 *   trip is not taken as a sample, and RFC 4015's raising of SRTT to it is not
 *   done. A SwitchML result waits for the slowest worker, so an answer that
 *   comes just after our retransmission usually means that a peer lost its
 *   update and waited out its own RTO: the time says how long the peer's RTO
 *   was, not how long the path takes. Fed back, it raises every worker's RTO,
 *   which lengthens the next loss's wait, and so on: with RFC 4015's rule a
 *   1 MiB AllReduce of 3 workers under 5% loss took 47 s instead of 2 s, the
 *   RTO at its ceiling. For the same reason ordinary samples are clipped
 *   (OUTLIER_SPREAD below).
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

/**
 * Samples above SRTT + OUTLIER_SPREAD·RTTVAR count as that much. A result
 * that waited for a peer's retransmission arrives about one RTO late, and such
 * samples come at the loss rate times the workers; taken whole they pull SRTT
 * and RTTVAR toward the RTO, which feeds back into a longer RTO (at a few
 * percent loss, all the way to the ceiling). Clipped, a minority of them cannot
 * move the estimate, while a real rise in delay (every sample high) still
 * raises RTTVAR, and with it the clip, by a constant factor per round trip.
 */
const OUTLIER_SPREAD = 2;

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
    this.take(rttMs, this.srtt + OUTLIER_SPREAD * this.rttvar);
  }

  private take(rttMs: number, clipMs: number): void {
    if (!(rttMs >= 0)) return;
    if (this.sampleCount++ === 0) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
    } else {
      const r = Math.min(rttMs, clipMs);
      this.rttvar = (1 - this.beta) * this.rttvar + this.beta * Math.abs(this.srtt - r);
      this.srtt = (1 - this.alpha) * this.srtt + this.alpha * r;
    }
    this.recompute();
  }

  /** A retransmission was spurious (the first copy's answer took `rttMs`): undo the back-off; a first sample is taken as one. */
  spurious(rttMs: number): void {
    if (!(rttMs >= 0) || this.sampleCount === 0) return this.sample(rttMs);
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
