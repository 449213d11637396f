/**
 * A bounded queue that is also an async iterator, for the packets, digests
 * and idle-timeout notifications a switch pushes. When the consumer falls
 * behind and `limit` items are waiting, the oldest is dropped and counted in
 * `dropped`: a slow consumer loses old packets instead of growing memory
 * without bound or stalling the stream channel (and arbitration with it).
 */
export class BoundedQueue<T> implements AsyncIterableIterator<T> {
  /** Items dropped because the queue was full. */
  dropped = 0;
  private readonly items: T[] = [];
  private readonly waiting: ((result: IteratorResult<T, undefined>) => void)[] = [];
  private ended = false;

  constructor(
    readonly limit: number,
    /** Called once when the queue ends (by close() or by the consumer leaving a for-await loop). */
    private readonly onEnd: () => void = () => {},
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`queue limit must be an integer >= 1, got ${limit}`);
  }

  /** Items waiting to be read. */
  get size(): number {
    return this.items.length;
  }

  get closed(): boolean {
    return this.ended;
  }

  push(item: T): void {
    if (this.ended) return;
    const reader = this.waiting.shift();
    if (reader) {
      reader({ value: item, done: false });
      return;
    }
    if (this.items.length >= this.limit) {
      this.items.shift();
      this.dropped++;
    }
    this.items.push(item);
  }

  /** Ends the iteration: readers get what is queued, then `done`. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    for (const reader of this.waiting.splice(0)) reader({ value: undefined, done: true });
    this.onEnd();
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.items.length) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Called by `break` in a for-await loop: stop receiving and free the queue. */
  return(): Promise<IteratorResult<T, undefined>> {
    this.items.length = 0;
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
