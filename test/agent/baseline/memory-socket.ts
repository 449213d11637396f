/**
 * An in-memory stand-in for the two ends of a TCP connection, built on Node's
 * own Duplex so that write()'s return value, 'drain' and write callbacks obey
 * the same stream rules as a net.Socket's. Bytes reach the peer at once, cut
 * into awkward pieces; a write completes (its callback, and so 'drain') on a
 * later turn of the event loop, as a socket's does, unless the test holds it:
 * then it waits for release(), as the rest of a large write that the kernel
 * took only part of waits for the writing process's event loop.
 */
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { FramedConnection } from '../../../src/agent/baseline/framed-connection.js';

/** Sizes the bytes of each write are cut into for the peer, in turn. */
const PIECE_SIZES = [1, 3, 4093, 7, 65_536, 2, 17_000];

export class MemorySocket extends Duplex {
  /** Which writes (0-based, in order) wait for release() to complete. */
  holdWrite: (index: number) => boolean = () => false;
  private peer: MemorySocket | undefined;
  private writes = 0;
  private readonly held: (() => void)[] = [];

  /** Two connected ends. */
  static pair(): [MemorySocket, MemorySocket] {
    const a = new MemorySocket();
    const b = new MemorySocket();
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  /** Writes completed by nobody yet. */
  get heldWrites(): number {
    return this.held.length;
  }

  /** Completes the held writes. */
  release(): void {
    for (const complete of this.held.splice(0)) complete();
  }

  setNoDelay(): this {
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    for (let at = 0, k = 0; at < chunk.length; k++) {
      const size = PIECE_SIZES[k % PIECE_SIZES.length]!;
      this.peer?.push(chunk.subarray(at, at + size));
      at += size;
    }
    if (this.holdWrite(this.writes++)) this.held.push(() => callback());
    else setImmediate(callback);
  }

  override _read(): void {}

  override _final(callback: (error?: Error | null) => void): void {
    this.peer?.push(null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.held.length = 0;
    if (this.peer && !this.peer.destroyed) this.peer.destroy();
    callback(error);
  }
}

/** A FramedConnection over one end (FramedConnection uses only what a Duplex has and setNoDelay). */
export function memoryConnection(socket: MemorySocket, peerName: string, maxBodyBytes: number): FramedConnection {
  return new FramedConnection(socket as unknown as Socket, peerName, maxBodyBytes);
}
