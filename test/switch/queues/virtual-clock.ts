/**
 * A queue clock whose time only moves when the test says so: `advanceTo`
 * runs every scheduled task due on the way, each at its own time, in time
 * order (ties in scheduling order), so rates and delays are checked exactly.
 */
import type { QueueClock } from '../../../src/switch/queues/queue-clock.js';

interface Task {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
  cancelled: boolean;
}

export class VirtualClock implements QueueClock {
  private now: number;
  private tasks: Task[] = [];
  private seq = 0;

  constructor(start = 0) {
    this.now = start;
  }

  nowMicros(): number {
    return this.now;
  }

  schedule(delayMicros: number, run: () => void): () => void {
    const task: Task = { at: this.now + Math.max(0, delayMicros), seq: this.seq++, run, cancelled: false };
    this.tasks.push(task);
    return () => {
      task.cancelled = true;
    };
  }

  /** Tasks scheduled and not yet run or cancelled. */
  get pending(): number {
    return this.tasks.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward to `until`, running the tasks due on the way at their times. */
  advanceTo(until: number): void {
    if (until < this.now) throw new Error(`virtual time goes forward only (now ${this.now}, asked ${until})`);
    for (let guard = 0; guard < 1_000_000; guard++) {
      this.tasks = this.tasks.filter((t) => !t.cancelled);
      let next: Task | undefined;
      for (const t of this.tasks) if (t.at <= until && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) {
        this.now = until;
        return;
      }
      this.tasks.splice(this.tasks.indexOf(next), 1);
      this.now = Math.max(this.now, next.at);
      next.run();
    }
    throw new Error('virtual clock: more than 1,000,000 tasks in one advance');
  }

  advance(micros: number): void {
    this.advanceTo(this.now + micros);
  }
}
