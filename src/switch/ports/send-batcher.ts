/**
 * Queues frames and hands them to `sendBatch` together: once per microtask,
 * so that the frames a switch forwards while handling one received batch
 * leave in one send call, or at once when `limit` frames are queued, so that
 * no more are ever held. `sendBatch` must be done with the array when it
 * returns: the queue is reused.
 */
export class SendBatcher {
  private readonly queue: Buffer[] = [];
  private flushScheduled = false;
  private readonly flushQueued = (): void => {
    this.flushScheduled = false;
    this.flush();
  };

  constructor(
    private readonly limit: number,
    private readonly sendBatch: (frames: Buffer[]) => void,
  ) {}

  add(frame: Buffer): void {
    this.queue.push(frame);
    if (this.queue.length >= this.limit) {
      this.flush();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(this.flushQueued);
    }
  }

  /** Sends what is queued now (before a repoint or a close, say). */
  flush(): void {
    if (this.queue.length === 0) return;
    try {
      this.sendBatch(this.queue);
    } finally {
      this.queue.length = 0;
    }
  }
}
