/**
 * Exponential backoff with jitter for reconnecting: attempt n waits about
 * initialDelayMs * multiplier^n, spread by ±jitter so that many controllers
 * do not retry in step, and never more than maxDelayMs.
 */

export interface ReconnectPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Growth per attempt; default 2. */
  readonly multiplier?: number;
  /** Fraction of spread around the delay, 0..1; default 0.2 (±20%). */
  readonly jitter?: number;
  /** Attempts before giving up; default unlimited. */
  readonly maxAttempts?: number;
}

export const DEFAULT_RECONNECT: Required<ReconnectPolicy> = {
  initialDelayMs: 250,
  maxDelayMs: 10_000,
  multiplier: 2,
  jitter: 0.2,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/** The policy with defaults filled in; throws RangeError on nonsense (a programming error). */
export function reconnectPolicy(policy: ReconnectPolicy): Required<ReconnectPolicy> {
  const full = { ...DEFAULT_RECONNECT, ...policy };
  if (!(full.initialDelayMs >= 0) || !(full.maxDelayMs >= full.initialDelayMs)) {
    throw new RangeError(`reconnect: need 0 <= initialDelayMs <= maxDelayMs, got ${full.initialDelayMs} and ${full.maxDelayMs}`);
  }
  if (!(full.multiplier >= 1)) throw new RangeError(`reconnect: multiplier must be >= 1, got ${full.multiplier}`);
  if (!(full.jitter >= 0 && full.jitter <= 1)) throw new RangeError(`reconnect: jitter must be in 0..1, got ${full.jitter}`);
  if (!(full.maxAttempts >= 1)) throw new RangeError(`reconnect: maxAttempts must be >= 1, got ${full.maxAttempts}`);
  return full;
}

/** The delay before reconnect attempt `attempt` (0-based). `random` returns [0, 1) like Math.random. */
export function backoffDelayMs(attempt: number, policy: ReconnectPolicy, random: () => number = Math.random): number {
  const p = reconnectPolicy(policy);
  const base = Math.min(p.maxDelayMs, p.initialDelayMs * p.multiplier ** Math.max(0, attempt));
  const spread = 1 - p.jitter + 2 * p.jitter * random();
  return Math.round(Math.min(p.maxDelayMs, Math.max(0, base * spread)));
}
