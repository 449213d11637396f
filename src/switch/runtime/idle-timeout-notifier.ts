/**
 * Sends IdleTimeoutNotifications to the primary controllers: every `periodMs`
 * it scans the realized pipeline's idle-timeout tables for entries whose TTL
 * has passed (state/idle-timeouts.ts) and sends one notification per table
 * with expired entries (never an empty one). While no stream is primary
 * nothing is scanned, so expiries wait for a primary instead of being lost.
 *
 * The timer is injectable: tests pass one whose time they step, with the same
 * clock given to the DeviceState (it stamps the entries' hits).
 */
import type * as p4r from '../../proto/p4r.js';
import { monotonicClock } from '../state/clock.js';
import type { DeviceState } from '../state/device-state.js';
import { collectExpired } from '../state/idle-timeouts.js';

export interface IdleTimer {
  /** Monotonic milliseconds: the DeviceState's clock. */
  now(): number;
  /** Runs `task` every `periodMs` until the returned function is called. */
  every(periodMs: number, task: () => void): () => void;
}

export const realIdleTimer: IdleTimer = {
  now: monotonicClock,
  every(periodMs, task) {
    const timer = setInterval(task, periodMs);
    timer.unref(); // idle scans never keep the process alive
    return () => clearInterval(timer);
  },
};

/** How often the tables are scanned by default: a notification is at most this late. */
export const DEFAULT_IDLE_SCAN_MS = 100;

export interface IdleTimeoutNotifierOptions {
  readonly state: Pick<DeviceState, 'pipeline'>;
  /** Sends a notification to the primaries; false when there is none. */
  deliver(notification: p4r.IdleTimeoutNotification): boolean;
  hasPrimary(): boolean;
  readonly timer?: IdleTimer;
  readonly periodMs?: number;
  /** Nanoseconds since the epoch, for the notifications' timestamp. */
  readonly wallClockNs?: () => bigint;
}

export class IdleTimeoutNotifier {
  private cancel: (() => void) | undefined;
  private readonly timer: IdleTimer;
  private readonly wallClockNs: () => bigint;

  constructor(private readonly options: IdleTimeoutNotifierOptions) {
    this.timer = options.timer ?? realIdleTimer;
    this.wallClockNs = options.wallClockNs ?? (() => BigInt(Date.now()) * 1_000_000n);
  }

  start(): void {
    this.cancel ??= this.timer.every(this.options.periodMs ?? DEFAULT_IDLE_SCAN_MS, () => this.scan());
  }

  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** One scan; returns how many notifications were sent. */
  scan(): number {
    const forwarding = this.options.state.pipeline?.forwarding;
    if (!forwarding || !this.options.hasPrimary()) return 0;
    let sent = 0;
    for (const entries of collectExpired(forwarding.tables)) {
      if (this.options.deliver({ table_entry: entries, timestamp: this.wallClockNs().toString() })) sent++;
    }
    return sent;
  }
}
