/**
 * The ATP worker's congestion window, AIMD on the `ecn` bit of ACKs as ATP's
 * CC_manager does (reference notes, "Congestion control"), and on CE in the
 * ACKs' IPv4 headers where the agent can read it: halve on a mark,
 * otherwise grow by one packet per window of ACKs, between 1 packet and the
 * job's window positions (ATP: 1–100).
 *
 * Constants and why:
 * - **Growth 1/w per unmarked ACK**, one packet per round trip: ATP adds one
 *   1,500-byte packet's worth per window, TCP's congestion avoidance.
 * - **Halving at most once per window.** Every ACK of a window sent into a
 *   congested queue comes back marked; halving on each would take the window
 *   to 1 for one congestion event. As TCP does with ECN (RFC 3168 §6.1.2), a
 *   mark halves once, and further marks on packets sent before that halving
 *   (sequence numbers up to the highest then sent) are the same event.
 * - **Floor 1**, so a marked job still makes progress; **ceiling W**, the
 *   window positions (the PS tells sequences apart only within W).
 * - **Timeouts do not shrink it.** In ATP a timeout mostly means an aggregate
 *   stuck in a switch (a collision elsewhere, an overflowed packet, a loss),
 *   which the resend flushes; congestion is what ECN reports. The retransmission
 *   timeout's own back-off already slows resends.
 */
export class CongestionWindow {
  private window: number;
  /** Marks on packets up to this sequence belong to the last halving. */
  private recoverUntil = -1;
  private halvingCount = 0;
  private smallest: number;
  private largest: number;

  constructor(
    initial: number,
    readonly min: number,
    readonly max: number,
  ) {
    if (!(min >= 1 && max >= min && initial >= min && initial <= max)) throw new RangeError(`need 1 ≤ min (${min}) ≤ initial (${initial}) ≤ max (${max})`);
    this.window = initial;
    this.smallest = initial;
    this.largest = initial;
  }

  /** Packets that may be outstanding now. */
  get size(): number {
    return Math.floor(this.window);
  }

  /** Halvings so far, and the extremes the window reached. */
  get halvings(): number {
    return this.halvingCount;
  }

  get minReached(): number {
    return Math.floor(this.smallest);
  }

  get maxReached(): number {
    return Math.floor(this.largest);
  }

  /** An ACK for sequence `acked` came in, `marked` or not; `highestSent` is the newest sequence sent so far. */
  onAck(marked: boolean, acked: number, highestSent: number): void {
    if (marked) return this.onMark(acked, highestSent);
    this.window = Math.min(this.max, this.window + 1 / this.window);
    if (this.window > this.largest) this.largest = this.window;
  }

  /**
   * A congestion mark on sequence `sequence`, however it came: the ACK's ecn
   * bit, or CE on the ACK's IPv4 header, seen before or after the ACK itself.
   * Halves unless a halving since `sequence` was sent already answered it.
   */
  onMark(sequence: number, highestSent: number): void {
    if (sequence <= this.recoverUntil) return;
    this.recoverUntil = highestSent;
    this.window = Math.max(this.min, this.window / 2);
    this.halvingCount++;
    if (this.window < this.smallest) this.smallest = this.window;
  }
}
