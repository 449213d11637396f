/**
 * Virtual time for agents under test: a clock that moves only when the test
 * advances it, and timers that fire then. With an in-memory network the
 * driver (run-virtual.ts) lets every packet in flight be delivered first, so a
 * timeout fires only when nothing else can happen: no spurious resend comes
 * from a slow machine, and a run replays exactly from its seeds.
 */
import type { AgentClock, AgentTimers, CancelTimer } from '../../../../src/agent/time.js';

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
  cancelled: boolean;
}

export class VirtualTime implements AgentClock, AgentTimers {
  private t = 0;
  private order = 0;
  private queue: Pending[] = [];
  /** Timers fired so far. */
  fired = 0;

  now(): number {
    return this.t;
  }

  schedule(delayMs: number, callback: () => void): CancelTimer {
    const entry: Pending = { at: this.t + Math.max(0, delayMs), order: this.order++, callback, cancelled: false };
    this.queue.push(entry);
    return () => {
      entry.cancelled = true;
    };
  }

  /** Timers scheduled and not cancelled or fired. */
  get pending(): number {
    return this.queue.filter((e) => !e.cancelled).length;
  }

  /** Moves the clock to the earliest timer and fires every timer due then, in order; false when none is pending. */
  advance(): boolean {
    this.queue = this.queue.filter((e) => !e.cancelled);
    if (this.queue.length === 0) return false;
    let at = Infinity;
    for (const e of this.queue) if (e.at < at) at = e.at;
    this.t = Math.max(this.t, at);
    const due = this.queue.filter((e) => e.at <= this.t).sort((a, b) => a.order - b.order);
    this.queue = this.queue.filter((e) => e.at > this.t);
    for (const e of due) {
      if (e.cancelled) continue;
      e.cancelled = true;
      this.fired++;
      e.callback();
    }
    return true;
  }
}
