/**
 * The undo log behind ROLLBACK_ON_ERROR and DATAPLANE_ATOMIC batches: while
 * it is active every store mutation records how to reverse itself, and a
 * failed batch replays those steps newest first. Outside such batches it is
 * inactive and stores skip the bookkeeping (callers test `active` before
 * building the closure, so CONTINUE_ON_ERROR allocates nothing extra).
 */
export class UndoLog {
  private steps: (() => void)[] = [];
  private recording = false;

  get active(): boolean {
    return this.recording;
  }

  begin(): void {
    if (this.recording) throw new Error('UndoLog.begin: a batch is already being recorded');
    this.steps = [];
    this.recording = true;
  }

  record(step: () => void): void {
    if (this.recording) this.steps.push(step);
  }

  /** Keeps every change of the batch. */
  commit(): void {
    this.steps = [];
    this.recording = false;
  }

  /** Reverses every change of the batch, newest first. */
  rollback(): void {
    const steps = this.steps;
    this.steps = [];
    this.recording = false;
    for (let i = steps.length - 1; i >= 0; i--) steps[i]!();
  }
}

/** What every store shares: a version for the data plane and the batch's undo log. */
export abstract class Store {
  /**
   * Changes whenever the store's contents change (including an undo), so the
   * packet pipeline can rebuild whatever it derived from the store only when
   * it must.
   */
  version = 0;

  constructor(protected readonly undo: UndoLog) {}

  protected touch(): void {
    this.version++;
  }
}
