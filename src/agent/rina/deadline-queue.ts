/**
 * Deadlines of a pass's outstanding packets, many thousands of them, on one
 * timer: a binary min-heap of (deadline, key), the timer armed for the
 * earliest. Setting a key's deadline again, or clearing it, leaves the old
 * heap entry behind, recognised as stale by its version when it surfaces.
 * Clock and timers are injected (time.ts), so tests run passes in virtual
 * time.
 */
import type { AgentClock, AgentTimers, CancelTimer } from '../time.js';

export class DeadlineQueue {
  private readonly deadlines: number[] = [];
  private readonly keys: number[] = [];
  private readonly entryVersions: number[] = [];
  private readonly versions = new Map<number, number>();
  private cancel: CancelTimer | undefined;
  private armedAt = Infinity;
  private disposed = false;

  /** `onDue(key)` runs once per key whose deadline passed (and was not set again or cleared since). */
  constructor(
    private readonly clock: AgentClock,
    private readonly timers: AgentTimers,
    private readonly onDue: (key: number) => void,
  ) {}

  /** The key is due at `deadline` (ms on the clock); replaces its earlier deadline. */
  set(key: number, deadline: number): void {
    if (this.disposed) return;
    const version = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, version);
    this.push(deadline, key, version);
    if (deadline < this.armedAt) this.arm(deadline);
  }

  /** The key is no longer due. */
  clear(key: number): void {
    if (this.versions.has(key)) this.versions.set(key, this.versions.get(key)! + 1);
  }

  /** Stops the timer for good. */
  dispose(): void {
    this.disposed = true;
    this.cancel?.();
    this.cancel = undefined;
    this.deadlines.length = 0;
    this.keys.length = 0;
    this.entryVersions.length = 0;
  }

  private arm(deadline: number): void {
    this.cancel?.();
    this.armedAt = deadline;
    this.cancel = this.timers.schedule(Math.max(0, deadline - this.clock.now()), () => this.fire());
  }

  private fire(): void {
    this.cancel = undefined;
    this.armedAt = Infinity;
    // Timers fire on whole milliseconds: a deadline less than 1 ms away is due now.
    const due = this.clock.now() + 1;
    while (!this.disposed && this.deadlines.length > 0 && this.deadlines[0]! <= due) {
      const key = this.keys[0]!;
      const version = this.entryVersions[0]!;
      this.pop();
      if (this.versions.get(key) !== version) continue;
      this.versions.set(key, version + 1);
      this.onDue(key);
    }
    if (!this.disposed && this.deadlines.length > 0 && this.deadlines[0]! < this.armedAt) this.arm(this.deadlines[0]!);
  }

  private push(deadline: number, key: number, version: number): void {
    const d = this.deadlines;
    let i = d.length;
    d.push(deadline);
    this.keys.push(key);
    this.entryVersions.push(version);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (d[parent]! <= deadline) break;
      this.move(parent, i);
      i = parent;
    }
    this.place(i, deadline, key, version);
  }

  private pop(): void {
    const d = this.deadlines;
    const lastDeadline = d.pop()!;
    const lastKey = this.keys.pop()!;
    const lastVersion = this.entryVersions.pop()!;
    if (d.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= d.length) break;
      const right = left + 1;
      const child = right < d.length && d[right]! < d[left]! ? right : left;
      if (d[child]! >= lastDeadline) break;
      this.move(child, i);
      i = child;
    }
    this.place(i, lastDeadline, lastKey, lastVersion);
  }

  private move(from: number, to: number): void {
    this.place(to, this.deadlines[from]!, this.keys[from]!, this.entryVersions[from]!);
  }

  private place(i: number, deadline: number, key: number, version: number): void {
    this.deadlines[i] = deadline;
    this.keys[i] = key;
    this.entryVersions[i] = version;
  }
}
