/**
 * The parts of the `raw-socket` package (1.8.x, no type declarations of its
 * own) that p4ina uses: an IPv4 raw socket that receives. Its `message`
 * event hands over one IP packet, header included, in a buffer the socket
 * reuses for the next packet.
 */
import type { EventEmitter } from 'node:events';

/** The native handle under a Socket; `recv` reads one more packet now or throws (EAGAIN when there is none). */
export interface RawSocketWrap {
  recv(buffer: Buffer, callback: (buffer: Buffer, bytes: number, source: string) => void): void;
}

export interface RawSocket extends EventEmitter {
  on(event: 'message', listener: (packet: Buffer, source: string) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'close', listener: () => void): this;
  setOption(level: number, option: number, value: number): void;
  close(): this;
  /** The native handle (not documented by the package, but a plain property of every Socket). */
  readonly wrap: RawSocketWrap;
  /** The buffer `message` events are read into. */
  readonly buffer: Buffer;
}

export interface RawSocketModule {
  createSocket(options: { protocol: number; addressFamily?: number; bufferSize?: number }): RawSocket;
  readonly Protocol: { readonly UDP: number };
  readonly AddressFamily: { readonly IPv4: number };
  readonly SocketLevel: { readonly SOL_SOCKET: number };
  readonly SocketOption: { readonly SO_RCVBUF: number };
}
