/**
 * Frames from one connection, pulled one at a time (`await inbox.next()`),
 * for the parameter server, which reads its workers in lock step. At most
 * `limit` frames wait here; beyond that the inbox lets go of the connection's
 * handler, so the connection queues the rest and pauses its socket, and TCP
 * holds the sender back until the server catches up.
 */
import type { BaselineError } from './baseline-error.js';
import type { Frame } from './frame.js';
import type { FrameHandler, FramedConnection } from './framed-connection.js';

export class FrameInbox {
  private readonly frames: Frame[] = [];
  private reader: { resolve(frame: Frame): void; reject(error: BaselineError): void } | undefined;
  private failure: BaselineError | undefined;
  private attached = false;
  private readonly handler: FrameHandler = {
    onFrame: (frame) => this.push(frame),
    onFailure: (error) => this.fail(error),
  };

  constructor(
    private readonly connection: FramedConnection,
    private readonly limit: number,
    /** Told of the connection's failure as soon as it happens, even while nobody reads. */
    private readonly onFailure: (error: BaselineError) => void,
  ) {
    this.attach();
    // A paused connection has no handler to tell; it still tells its failure listeners.
    connection.onFail((error) => this.fail(error));
  }

  /** The next frame; rejects with the connection's failure. */
  next(): Promise<Frame> {
    const frame = this.frames.shift();
    if (frame) {
      if (!this.attached && this.frames.length < this.limit) this.attach();
      return Promise.resolve(frame);
    }
    if (this.failure) return Promise.reject(this.failure);
    if (!this.attached) this.attach();
    return new Promise((resolve, reject) => (this.reader = { resolve, reject }));
  }

  /** Stops taking frames (they stay queued in the connection). */
  detach(): void {
    this.attached = false;
    this.connection.setHandler(undefined);
  }

  private attach(): void {
    this.attached = true;
    this.connection.setHandler(this.handler);
  }

  private push(frame: Frame): void {
    const reader = this.reader;
    if (reader) {
      this.reader = undefined;
      reader.resolve(frame);
      return;
    }
    this.frames.push(frame);
    if (this.frames.length >= this.limit) this.detach();
  }

  private fail(error: BaselineError): void {
    if (this.failure) return;
    this.failure = error;
    this.frames.length = 0;
    const reader = this.reader;
    this.reader = undefined;
    reader?.reject(error);
    this.onFailure(error);
  }
}
