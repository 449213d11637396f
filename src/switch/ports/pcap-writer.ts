/**
 * Writes one classic pcap file. Records are appended to in-memory chunks and
 * written out when enough has gathered, on a timer, and on close, one write
 * at a time. Memory is bounded: past `maxBufferedBytes` waiting for the disk,
 * records are dropped and counted instead of piling up.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { moduleLogger } from '../../log/logger.js';
import { DEFAULT_SNAPLEN, PCAP_GLOBAL_HEADER_BYTES, PCAP_RECORD_HEADER_BYTES, writeGlobalHeader } from './pcap-format.js';

export interface PcapWriterOptions {
  /** Longest part of a frame kept (default 262144). */
  readonly snaplen?: number;
  /** Write what has gathered at least this often (default 1000 ms). */
  readonly flushIntervalMs?: number;
  /** Start a write once this much has gathered (default 256 KiB). */
  readonly flushThresholdBytes?: number;
  /** Drop records while this much is waiting for the disk (default 8 MiB). */
  readonly maxBufferedBytes?: number;
  /** Wall-clock time in microseconds since the Unix epoch (injectable for tests). */
  readonly clockMicros?: () => number;
}

const CHUNK_BYTES = 64 * 1024;
const NO_CHUNK = Buffer.alloc(0);
const log = moduleLogger('switch.pcap');

/** Wall-clock microseconds with sub-millisecond resolution (Date.now has only milliseconds). */
export function epochMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

export class PcapWriter {
  private recordsWritten = 0;
  private recordsDropped = 0;
  private chunk: Buffer;
  private used = 0;
  private sealed: Buffer[] = [];
  /** Bytes gathered or being written; the bound on memory. */
  private buffered = 0;
  private writing: Promise<void> = Promise.resolve();
  private failed = false;
  private closing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly snaplen: number;
  private readonly flushThreshold: number;
  private readonly maxBuffered: number;
  private readonly clock: () => number;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    options: PcapWriterOptions,
  ) {
    this.snaplen = options.snaplen ?? DEFAULT_SNAPLEN;
    this.flushThreshold = options.flushThresholdBytes ?? 256 * 1024;
    this.maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.clock = options.clockMicros ?? epochMicros;
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    writeGlobalHeader(this.chunk, 0, this.snaplen);
    this.used = PCAP_GLOBAL_HEADER_BYTES;
    this.buffered = PCAP_GLOBAL_HEADER_BYTES;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref(); // a recorder never keeps the process alive
  }

  /** Creates (or truncates) the file and queues its global header. */
  static async open(path: string, options: PcapWriterOptions = {}): Promise<PcapWriter> {
    const snaplen = options.snaplen ?? DEFAULT_SNAPLEN;
    if (!Number.isInteger(snaplen) || snaplen < 65535) throw new RangeError(`snaplen must be an integer >= 65535, not ${snaplen}`);
    return new PcapWriter(path, await open(path, 'w'), options);
  }

  /** Records written to the file so far (or queued for it). */
  get written(): number {
    return this.recordsWritten;
  }

  /** Records dropped: the buffer was full, the file failed, or the writer was closed. */
  get dropped(): number {
    return this.recordsDropped;
  }

  /** Appends one frame with the given (or the current) time. False when dropped. */
  write(frame: Uint8Array, timestampMicros: number = this.clock()): boolean {
    const captured = Math.min(frame.length, this.snaplen);
    const need = PCAP_RECORD_HEADER_BYTES + captured;
    if (this.closing !== undefined || this.failed || this.buffered + need > this.maxBuffered) {
      this.recordsDropped++;
      return false;
    }
    if (this.used + need > this.chunk.length) {
      this.seal();
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
    }
    const micros = Math.max(0, Math.floor(timestampMicros));
    const seconds = Math.floor(micros / 1_000_000);
    const at = this.used;
    this.chunk.writeUInt32LE(seconds >>> 0, at);
    this.chunk.writeUInt32LE(micros - seconds * 1_000_000, at + 4);
    this.chunk.writeUInt32LE(captured, at + 8);
    this.chunk.writeUInt32LE(frame.length, at + 12);
    this.chunk.set(frame.subarray(0, captured), at + PCAP_RECORD_HEADER_BYTES);
    this.used += need;
    this.buffered += need;
    this.recordsWritten++;
    if (this.buffered >= this.flushThreshold) void this.flush();
    return true;
  }

  /** Writes out everything gathered so far. Never rejects; a failing file is logged and later records dropped. */
  flush(): Promise<void> {
    this.seal();
    if (this.sealed.length === 0) return this.writing;
    const batch = this.sealed;
    this.sealed = [];
    this.writing = this.writing.then(() => this.writeBatch(batch));
    return this.writing;
  }

  /** Flushes and closes the file. Idempotent. */
  close(): Promise<void> {
    if (this.closing === undefined) {
      clearInterval(this.timer);
      this.closing = this.flush().then(() => this.handle.close()).catch((err: unknown) => {
        log.error({ err, path: this.path }, 'closing pcap file failed');
      });
    }
    return this.closing;
  }

  private seal(): void {
    if (this.used === 0) return;
    this.sealed.push(this.chunk.subarray(0, this.used));
    // The sealed bytes now belong to the pending write; the next record starts a fresh chunk.
    this.chunk = NO_CHUNK;
    this.used = 0;
  }

  private async writeBatch(batch: Buffer[]): Promise<void> {
    let bytes = 0;
    for (const b of batch) bytes += b.length;
    if (this.failed) {
      this.buffered -= bytes;
      return;
    }
    try {
      // writev may write less than asked (e.g. a full disk): continue from where it stopped.
      let pending = batch;
      for (let round = 0; pending.length > 0 && round < 1000; round++) {
        const { bytesWritten } = await this.handle.writev(pending);
        pending = dropWritten(pending, bytesWritten);
      }
      if (pending.length > 0) throw new Error('the file stopped accepting data');
    } catch (err) {
      this.failed = true;
      log.error({ err, path: this.path }, 'writing pcap file failed; further packets for it are dropped');
    } finally {
      this.buffered -= bytes;
    }
  }
}

/** The buffers (or tails of buffers) left after the first `written` bytes. */
function dropWritten(buffers: Buffer[], written: number): Buffer[] {
  let skip = written;
  let i = 0;
  while (i < buffers.length && skip >= buffers[i]!.length) skip -= buffers[i++]!.length;
  if (i === buffers.length) return [];
  return [buffers[i]!.subarray(skip), ...buffers.slice(i + 1)];
}
