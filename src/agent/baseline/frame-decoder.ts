/**
 * Cuts a TCP byte stream into frames. Bytes arrive in arbitrary pieces; the
 * decoder keeps the pieces of an unfinished frame in a list and joins them
 * once (not on every arrival), so a 1 MiB frame costs one copy. A length
 * prefix beyond `maxBodyBytes` is refused as soon as it is read, before any
 * of the body is buffered.
 */
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { FRAME_LENGTH_BYTES, parseFrameBody, type Frame } from './frame.js';

export class FrameDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Body length of the frame being assembled, or -1 while its prefix is incomplete. */
  private bodyBytes = -1;

  constructor(
    private readonly maxBodyBytes: number,
    /** Names the sender in error messages (a function when the name can change). */
    private readonly sender: string | (() => string),
  ) {}

  private get from(): string {
    return typeof this.sender === 'string' ? this.sender : this.sender();
  }

  /** True when no partial frame is buffered. */
  get idle(): boolean {
    return this.pendingBytes === 0;
  }

  /**
   * Adds bytes and returns the frames they complete, in order. Throws
   * BASELINE_MALFORMED_FRAME on the first bad frame; the decoder must not be
   * used after that.
   */
  push(bytes: Buffer): Frame[] {
    const frames: Frame[] = [];
    let rest = bytes;
    while (rest.length > 0) {
      if (this.bodyBytes < 0) {
        rest = this.take(rest, FRAME_LENGTH_BYTES);
        if (this.pendingBytes < FRAME_LENGTH_BYTES) break;
        const prefix = this.drain();
        this.bodyBytes = prefix.readUInt32BE(0);
        if (this.bodyBytes === 0 || this.bodyBytes > this.maxBodyBytes) {
          throw new BaselineError(
            BASELINE_ERROR_CODES.malformedFrame,
            `malformed frame from ${this.from}: length ${this.bodyBytes} is outside 1..${this.maxBodyBytes}`,
          );
        }
      }
      rest = this.take(rest, this.bodyBytes);
      if (this.pendingBytes < this.bodyBytes) break;
      const body = this.drain();
      this.bodyBytes = -1;
      frames.push(parseFrameBody(body, this.from));
    }
    return frames;
  }

  /** Moves up to `wanted - pendingBytes` bytes of `bytes` into the pending list; returns the rest. */
  private take(bytes: Buffer, wanted: number): Buffer {
    const n = Math.min(wanted - this.pendingBytes, bytes.length);
    this.pending.push(bytes.subarray(0, n));
    this.pendingBytes += n;
    return bytes.subarray(n);
  }

  /** The pending bytes as one buffer (no copy when they came in one piece). */
  private drain(): Buffer {
    const joined = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return joined;
  }
}
