/**
 * A sequence of packets one member sends and retransmits until each is
 * answered: an autonomous member's RING_DATA, a rack worker's
 * CONTRIBUTIONs, an agent's all-gather RING_DATA. Items become ready in any
 * order but go out in order, and item i only once item i − w is answered
 * (w = the pass's window): the slot discipline every ToR relies on
 * (docs/rina.md §3). Each sent item has a deadline in the pass's
 * DeadlineQueue; a timeout retransmits it with RTO · factor^k
 * (RttEstimator, RFC 6298, as the SwitchML and ATP agents do) and, after
 * `maxRetries`, gives up. An item answered after one transmission is an RTT
 * sample (Karn's rule).
 */
import type { RttEstimator } from '../switchml/rtt-estimator.js';
import type { AgentClock } from '../time.js';
import type { DeadlineQueue } from './deadline-queue.js';

export interface StreamEvents {
  /** Send item i (again, when `resend`). */
  transmit(i: number, resend: boolean): void;
  /** Item i went unanswered through `maxRetries` retransmissions. */
  exhausted(i: number): void;
}

export interface RetryPolicy {
  readonly clock: AgentClock;
  readonly rtt: RttEstimator;
  readonly maxRetries: number;
}

export interface RetryCounters {
  retransmissions: number;
  timeouts: number;
}

const WAITING = 0;
const READY = 1;
const SENT = 2;
const DONE = 3;

export class OutgoingStream {
  private readonly state: Uint8Array;
  private readonly attempts: Uint32Array;
  private readonly sentAt: Float64Array;
  private next = 0;
  private answered = 0;

  /** Items `keyBase .. keyBase + count − 1` of `deadlines` are this stream's. */
  constructor(
    readonly count: number,
    readonly window: number,
    readonly keyBase: number,
    private readonly deadlines: DeadlineQueue,
    private readonly policy: RetryPolicy,
    private readonly events: StreamEvents,
    private readonly counters: RetryCounters,
  ) {
    this.state = new Uint8Array(count);
    this.attempts = new Uint32Array(count);
    this.sentAt = new Float64Array(count);
  }

  get allDone(): boolean {
    return this.answered === this.count;
  }

  isDone(i: number): boolean {
    return this.state[i] === DONE;
  }

  wasSent(i: number): boolean {
    return this.state[i]! >= SENT;
  }

  /** Item i may go (when the window allows). */
  ready(i: number): void {
    if (this.state[i] !== WAITING) return;
    this.state[i] = READY;
    this.pump();
  }

  /** Item i was answered; false when it was already. */
  done(i: number): boolean {
    const s = this.state[i];
    if (s === DONE || s === undefined) return false;
    if (s === SENT) {
      this.deadlines.clear(this.keyBase + i);
      if (this.attempts[i] === 0) this.policy.rtt.sample(this.policy.clock.now() - this.sentAt[i]!);
    }
    this.state[i] = DONE;
    this.answered++;
    this.pump();
    return true;
  }

  /** The deadline of item i passed (the pass routes its DeadlineQueue keys here). */
  expire(i: number): void {
    if (this.state[i] !== SENT) return;
    const { clock, rtt, maxRetries } = this.policy;
    this.counters.timeouts++;
    rtt.timedOut(clock.now());
    if (this.attempts[i]! >= maxRetries) return this.events.exhausted(i);
    this.attempts[i]!++;
    this.counters.retransmissions++;
    this.arm(i);
    this.events.transmit(i, true);
  }

  private pump(): void {
    while (this.next < this.count) {
      const i = this.next;
      const s = this.state[i]!;
      if (s === DONE) {
        this.next++;
        continue;
      }
      if (s !== READY || (i >= this.window && this.state[i - this.window] !== DONE)) return;
      this.next++;
      this.state[i] = SENT;
      this.arm(i);
      this.events.transmit(i, false);
    }
  }

  private arm(i: number): void {
    const now = this.policy.clock.now();
    this.sentAt[i] = now;
    this.deadlines.set(this.keyBase + i, now + this.policy.rtt.waitMs(this.attempts[i]!));
  }
}
