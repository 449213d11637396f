/**
 * A TCP socket carrying baseline frames, with the rules every user of it
 * needs:
 * - Sending respects back-pressure: once a write fills the socket's buffer,
 *   the next `send` waits for 'drain' before writing.
 * - A written frame may still sit in this process until the event loop runs
 *   again (the kernel takes a large write in parts); `flush` waits until
 *   every frame sent has left, for a caller about to stop serving the loop.
 * - Received frames go to the current handler. With no handler (between two
 *   calls, when a fast peer already sends the next one) they are queued and
 *   the socket is paused, so the queue stays small and TCP holds the peer back.
 * - The first failure (a malformed frame, an ERROR frame from the peer, a
 *   reset, an unexpected close, or a handler refusing a frame) is sticky: the
 *   socket is closed, waiting sends reject, the handler hears of it once, and
 *   nothing is ever thrown out of a socket event.
 */
import type { Socket } from 'node:net';
import { moduleLogger } from '../../log/logger.js';
import { REAL_TIMERS, type AgentTimers, type CancelTimer } from '../time.js';
import { asBaselineError, BASELINE_ERROR_CODES, BaselineError, isBaselineErrorCode } from './baseline-error.js';
import { FrameDecoder } from './frame-decoder.js';
import { encodeError, type ErrorFrame, type Frame } from './frame.js';

/**
 * How long a closing socket may take before it is destroyed: 1 s plus its
 * queued bytes at 1 Mbit/s (a 1 MiB result on a slow link still arrives),
 * at most a minute (a peer that stopped reading). Node cannot tell how much
 * of a queued write has left, so the bound is set once, at close.
 */
const CLOSE_GRACE_MS = 1000;
const SLOWEST_LINK_BYTES_PER_MS = 125;
const MAX_CLOSE_GRACE_MS = 60_000;

const log = moduleLogger('agent.baseline.connection');

export interface FrameHandler {
  /** Takes one frame; throwing (a BaselineError) fails the connection. */
  onFrame(frame: Frame): void;
  /** The connection failed; called at most once per handler. */
  onFailure(error: BaselineError): void;
}

interface DrainWaiter {
  resolve(): void;
  reject(error: BaselineError): void;
}

export class FramedConnection {
  framesSent = 0;
  framesReceived = 0;
  bytesSent = 0;
  bytesReceived = 0;
  /** Called on every sign of progress (bytes in, drain), for inactivity timers. */
  onActivity: (() => void) | undefined;
  /** Resolves when the socket has closed, however it closed. */
  readonly closed: Promise<void>;
  private readonly decoder: FrameDecoder;
  private readonly inbox: Frame[] = [];
  private handler: FrameHandler | undefined;
  private failureValue: BaselineError | undefined;
  private drainWaiters: DrainWaiter[] = [];
  /** The last write filled the socket's buffer: wait for 'drain' before the next. */
  private mustDrain = false;
  /** Writes whose callback has not come yet: some of their bytes are still in this process. */
  private unfinishedWrites = 0;
  private flushWaiters: DrainWaiter[] = [];
  private readonly failListeners: ((error: BaselineError) => void)[] = [];
  private graceTimer: CancelTimer | undefined;
  private isClosed = false;

  constructor(
    private readonly socket: Socket,
    /** Names the peer in messages, e.g. "rank 2 (127.0.0.1:4012)"; renamed once the handshake says who it is. */
    private peerName: string,
    maxBodyBytes: number,
    /** The close grace period's timer (injected so tests can run it in virtual time). */
    private readonly timers: AgentTimers = REAL_TIMERS,
  ) {
    this.decoder = new FrameDecoder(maxBodyBytes, () => this.peerName);
    socket.setNoDelay(true);
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.isClosed = true;
        this.graceTimer?.();
        this.fail(new BaselineError(BASELINE_ERROR_CODES.peerClosed, `the connection to ${this.peer} closed`), false);
        resolve();
      });
    });
    socket.on('data', (bytes: Buffer) => this.received(bytes));
    socket.on('drain', () => this.drained());
    socket.on('end', () => this.fail(new BaselineError(BASELINE_ERROR_CODES.peerClosed, `${this.peer} closed the connection`), false));
    socket.on('error', (err) => this.fail(asBaselineError(err, BASELINE_ERROR_CODES.peerClosed, `the connection to ${this.peer} failed`), false));
  }

  /** Who is at the other end, for messages. */
  get peer(): string {
    return this.peerName;
  }

  set peer(name: string) {
    this.peerName = name;
  }

  /** The failure, once there is one. */
  get failure(): BaselineError | undefined {
    return this.failureValue;
  }

  /**
   * Calls `listener` once when the connection fails (at once if it has),
   * whoever the handler is, or when there is none.
   */
  onFail(listener: (error: BaselineError) => void): void {
    if (this.failureValue) listener(this.failureValue);
    else this.failListeners.push(listener);
  }

  /**
   * Sets (or clears) who takes frames. Queued frames go to the new handler
   * first; a connection that has already failed tells it at once.
   */
  setHandler(handler: FrameHandler | undefined): void {
    this.handler = handler;
    if (!handler) return;
    if (this.failureValue) {
      handler.onFailure(this.failureValue);
      return;
    }
    this.deliver();
  }

  /**
   * Hands a frame to the socket, first waiting for 'drain' if the previous
   * write filled its buffer. Resolves once the frame is written (not yet
   * delivered), so a caller that has sent its last frame need not wait for
   * the peer to read it.
   */
  async send(frame: Buffer): Promise<void> {
    if (this.mustDrain && !this.failureValue) await new Promise<void>((resolve, reject) => this.drainWaiters.push({ resolve, reject }));
    if (this.failureValue) throw this.failureValue;
    this.framesSent++;
    this.bytesSent += frame.length;
    this.unfinishedWrites++;
    this.mustDrain = !this.socket.write(frame, this.written);
  }

  /**
   * Resolves once every frame sent so far has been handed to the kernel, so
   * the peer gets it even if this process then keeps its event loop busy
   * (until then Node writes the rest of a large frame only when the loop
   * runs). Rejects with the connection's failure.
   */
  async flush(): Promise<void> {
    if (this.unfinishedWrites > 0 && !this.failureValue) await new Promise<void>((resolve, reject) => this.flushWaiters.push({ resolve, reject }));
    if (this.failureValue) throw this.failureValue;
  }

  /**
   * Fails the connection with `error`. With `tellPeer`, the peer is sent an
   * ERROR frame first (flushed within a grace period); otherwise the socket
   * is destroyed at once. Later failures are ignored.
   */
  fail(error: BaselineError, tellPeer: boolean): void {
    if (this.failureValue) return;
    this.failureValue = error;
    this.inbox.length = 0;
    this.rejectWaiters(error);
    if (!this.isClosed) {
      if (tellPeer && this.socket.writable) {
        this.socket.end(encodeError(error.code, error.message));
        this.destroyAfterGrace();
      } else {
        this.socket.destroy();
      }
    }
    log.debug({ peer: this.peer, code: error.code }, error.message);
    const handler = this.handler;
    this.handler = undefined;
    handler?.onFailure(error);
    for (const listener of this.failListeners.splice(0)) listener(error);
  }

  /** Closes the connection gracefully (pending sends are flushed) and waits until it is closed. */
  async close(): Promise<void> {
    if (!this.failureValue) {
      this.failureValue = new BaselineError(BASELINE_ERROR_CODES.unusable, `the connection to ${this.peer} was closed by this side`);
      this.rejectWaiters(this.failureValue);
      const handler = this.handler;
      this.handler = undefined;
      handler?.onFailure(this.failureValue);
      for (const listener of this.failListeners.splice(0)) listener(this.failureValue);
      if (!this.isClosed) {
        this.socket.end();
        this.destroyAfterGrace();
      }
    }
    await this.closed;
  }

  /** Destroys the socket now; for cleanup after a failure when waiting is pointless. */
  destroy(): void {
    if (!this.isClosed) this.socket.destroy();
  }

  private destroyAfterGrace(): void {
    if (this.graceTimer) return;
    const graceMs = Math.min(MAX_CLOSE_GRACE_MS, CLOSE_GRACE_MS + this.socket.writableLength / SLOWEST_LINK_BYTES_PER_MS);
    this.graceTimer = this.timers.schedule(graceMs, () => this.socket.destroy());
  }

  private received(bytes: Buffer): void {
    if (this.failureValue) return;
    this.bytesReceived += bytes.length;
    this.onActivity?.();
    let frames: Frame[];
    try {
      frames = this.decoder.push(bytes);
    } catch (err) {
      this.fail(asBaselineError(err, BASELINE_ERROR_CODES.malformedFrame, `bad bytes from ${this.peer}`), true);
      return;
    }
    for (const frame of frames) {
      this.framesReceived++;
      if (frame.type === 'error') {
        // What the peer sent before its ERROR still counts (e.g. the last results, then "shutting down").
        this.deliver();
        this.fail(peerReported(frame, this.peer), false);
        return;
      }
      this.inbox.push(frame);
    }
    this.deliver();
  }

  /** Hands queued frames to the handler while there is one; pauses the socket while there is not. */
  private deliver(): void {
    while (this.handler && this.inbox.length > 0 && !this.failureValue) {
      const frame = this.inbox.shift()!;
      try {
        this.handler.onFrame(frame);
      } catch (err) {
        this.fail(asBaselineError(err, BASELINE_ERROR_CODES.unexpectedFrame, `a frame from ${this.peer} was refused`), true);
        return;
      }
    }
    if (this.failureValue) return;
    if (this.handler) this.socket.resume();
    else if (this.inbox.length > 0) this.socket.pause();
  }

  private drained(): void {
    this.mustDrain = false;
    this.onActivity?.();
    for (const waiter of this.drainWaiters.splice(0)) waiter.resolve();
  }

  /** A write's callback: its bytes have all left for the kernel, or the socket failed. */
  private readonly written = (err?: Error | null): void => {
    this.unfinishedWrites--;
    if (err) {
      this.fail(asBaselineError(err, BASELINE_ERROR_CODES.peerClosed, `writing to ${this.peer} failed`), false);
      return;
    }
    this.onActivity?.();
    if (this.unfinishedWrites === 0) for (const waiter of this.flushWaiters.splice(0)) waiter.resolve();
  };

  private rejectWaiters(error: BaselineError): void {
    for (const waiter of this.drainWaiters.splice(0)) waiter.reject(error);
    for (const waiter of this.flushWaiters.splice(0)) waiter.reject(error);
  }
}

/** Diagnoses that hold for both ends of a connection, so a peer's report of one is taken as ours. */
const SHARED_DIAGNOSES: ReadonlySet<string> = new Set([
  BASELINE_ERROR_CODES.handshakeMismatch,
  BASELINE_ERROR_CODES.lengthMismatch,
  BASELINE_ERROR_CODES.malformedFrame,
  BASELINE_ERROR_CODES.unexpectedFrame,
]);

/**
 * The error a peer's ERROR frame stands for: a shared diagnosis (a handshake
 * or length mismatch, a bad frame) keeps its code; anything else (the peer
 * timed out, was aborted) is BASELINE_PEER_FAILED.
 */
export function peerReported(frame: ErrorFrame, peer: string): BaselineError {
  const text = `${peer} reported ${frame.code}: ${frame.message}`;
  if (isBaselineErrorCode(frame.code) && SHARED_DIAGNOSES.has(frame.code)) return new BaselineError(frame.code, text);
  return new BaselineError(BASELINE_ERROR_CODES.peerFailed, text);
}
