/**
 * Reusable send buffers for a socket whose sends complete asynchronously.
 * A dgram send may read its buffer until the send's callback runs, so a
 * buffer cannot be rewritten at once; instead each send takes a buffer from
 * this pool and the completion gives back the oldest one.
 *
 * Giving back the oldest is correct because one UDP socket completes its sends
 * in the order they were made: libuv runs a socket's send queue in order, and
 * a synchronous send is only attempted when that queue is empty. That lets the
 * socket use one bound callback for every send instead of a closure per
 * packet. Buffers are made on first need, never more than `limit`, and kept.
 */
export class SendBufferPool {
  private readonly free: Buffer[] = [];
  /** Buffers handed out, oldest first, in a ring of `limit` entries. */
  private readonly ring: (Buffer | undefined)[];
  private head = 0;
  private count = 0;

  constructor(
    readonly bufferSize: number,
    readonly limit: number,
  ) {
    if (!Number.isInteger(bufferSize) || bufferSize < 1) throw new RangeError(`bufferSize must be a positive integer, not ${bufferSize}`);
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
    this.ring = new Array<Buffer | undefined>(limit).fill(undefined);
  }

  /** Buffers handed out and not yet given back. */
  get inFlight(): number {
    return this.count;
  }

  /** A buffer for the next send, or undefined when `limit` sends are in flight. */
  take(): Buffer | undefined {
    if (this.count === this.limit) return undefined;
    const buf = this.free.pop() ?? Buffer.allocUnsafeSlow(this.bufferSize);
    this.ring[(this.head + this.count) % this.limit] = buf;
    this.count++;
    return buf;
  }

  /** The oldest send completed: its buffer may be reused. */
  releaseOldest(): void {
    if (this.count === 0) return;
    const buf = this.ring[this.head]!;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.limit;
    this.count--;
    this.free.push(buf);
  }

  /** The newest buffer is free again at once (the send threw, or completed synchronously): give it back. */
  unTakeNewest(): void {
    const buf = this.dropNewest();
    if (buf !== undefined) this.free.push(buf);
  }

  /** The newest buffer belongs to a send that completes without telling us: forget it (a new one is made when needed). */
  letGoNewest(): void {
    this.dropNewest();
  }

  private dropNewest(): Buffer | undefined {
    if (this.count === 0) return undefined;
    const at = (this.head + this.count - 1) % this.limit;
    const buf = this.ring[at];
    this.ring[at] = undefined;
    this.count--;
    return buf;
  }
}
