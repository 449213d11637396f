// A fake clock and timer for idle timeouts: time moves only when the test says,
// and each step runs the scans that are due (here: every registered scan, once).
import type { IdleTimer } from '../../../src/switch/runtime/idle-timeout-notifier.js';

export class FakeIdleTimer implements IdleTimer {
  private readonly tasks = new Set<() => void>();

  constructor(private time = 1_000) {}

  now(): number {
    return this.time;
  }

  every(_periodMs: number, task: () => void): () => void {
    this.tasks.add(task);
    return () => this.tasks.delete(task);
  }

  /** Sets the time to `ms` (never backwards) and runs one scan. */
  advanceTo(ms: number): void {
    if (ms < this.time) throw new Error(`fake time cannot go back from ${this.time} to ${ms}`);
    this.time = ms;
    for (const task of [...this.tasks]) task();
  }
}
