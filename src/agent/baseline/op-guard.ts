/**
 * What every baseline call needs around its protocol work: a single place
 * where it fails (first error wins), an inactivity timer that fails it when
 * nothing moves for `ioTimeoutMs`, and an AbortSignal that fails it at once.
 * `dispose` removes the timer and the listener whether the call worked or not.
 * Work with a timeout of its own (a nested call) can be run `unwatched`, so
 * that its quiet spells on this call's connections do not count.
 */
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { abortedError } from './dial.js';

export class OpGuard {
  /** Rejects with the first failure; never resolves. */
  readonly failed: Promise<never>;
  private failure: BaselineError | undefined;
  private rejectFailed!: (error: BaselineError) => void;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort: () => void;
  private readonly listeners: ((error: BaselineError) => void)[] = [];
  private unwatchedWork = 0;

  constructor(
    what: string,
    ioTimeoutMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.failed = new Promise<never>((_resolve, reject) => {
      this.rejectFailed = reject;
    });
    // Nobody may be awaiting `failed` when it rejects (the work finished first); that is fine.
    this.failed.catch(() => {});
    this.timer = setTimeout(() => {
      if (this.unwatchedWork > 0) {
        this.timer.refresh();
        return;
      }
      this.fail(new BaselineError(BASELINE_ERROR_CODES.timeout, `${what}: nothing moved for ${ioTimeoutMs} ms; is every worker running and calling allreduce?`));
    }, ioTimeoutMs);
    this.onAbort = () => this.fail(abortedError(signal!, what));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.onAbort();
  }

  get error(): BaselineError | undefined {
    return this.failure;
  }

  /** Restarts the inactivity timer. */
  readonly activity = (): void => {
    this.timer.refresh();
  };

  /** Runs `listener` once on failure (e.g. to close the connections). */
  onFailure(listener: (error: BaselineError) => void): void {
    if (this.failure) listener(this.failure);
    else this.listeners.push(listener);
  }

  fail(error: BaselineError): void {
    if (this.failure) return;
    this.failure = error;
    this.rejectFailed(error);
    for (const listener of this.listeners.splice(0)) listener(error);
  }

  /** Throws the failure if there is one (for loops between awaits). */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /** `work` or the first failure, whichever comes first. */
  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.failed]);
  }

  /** Like `race`, but the inactivity timer waits while `work` runs (it must time out by itself) and restarts after it. */
  async unwatched<T>(work: Promise<T>): Promise<T> {
    this.unwatchedWork++;
    try {
      return await this.race(work);
    } finally {
      this.unwatchedWork--;
      this.timer.refresh();
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
