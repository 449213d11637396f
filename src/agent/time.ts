/**
 * Time as protocol logic sees it: a monotonic clock and one-shot timers,
 * passed in rather than taken from `performance.now` and `setTimeout`, so
 * that a test can run an agent in virtual time (a timeout fires when the
 * test advances the clock, not after a real wait) and replay it exactly.
 */

export interface AgentClock {
  /** Monotonic milliseconds (any origin). */
  now(): number;
}

/** Cancels a scheduled callback; calling it again, or after the callback ran, does nothing. */
export type CancelTimer = () => void;

export interface AgentTimers {
  /** Runs `callback` once, `delayMs` (≥ 0) from now. */
  schedule(delayMs: number, callback: () => void): CancelTimer;
}

/** The process's monotonic clock. */
export const REAL_CLOCK: AgentClock = { now: () => performance.now() };

/** Node's timers. */
export const REAL_TIMERS: AgentTimers = {
  schedule(delayMs, callback) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    return () => clearTimeout(timer);
  },
};
