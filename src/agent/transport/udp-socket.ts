/**
 * A bound dgram socket with pooled, asynchronous sends: what the kernel UDP
 * transport and the UDP wire transport share. Sends beyond `sendQueueLimit`
 * in flight are dropped and counted rather than buffered without bound.
 *
 * A socket connected to its one peer (`connect`, the UDP wire with a given
 * local port) takes a faster path: dgram sends on a connected socket at once,
 * without resolving the address (a dns.lookup and a tick per datagram) and
 * without a completion callback (another tick). When the kernel took the
 * datagram (libuv's send queue is empty afterwards), the buffer goes straight
 * back to the pool; otherwise libuv still reads it and the pool lets it go.
 * The bound is then libuv's queue of sends the kernel could not take at once.
 */
import { createSocket, type Socket } from 'node:dgram';
import { moduleLogger } from '../../log/logger.js';
import type { AgentUdpSocket, MessageHandler, UdpSocketOptions } from './agent-udp-socket.js';
import { MutableTransportCounters } from './datagram-transport.js';
import { SendBufferPool } from './send-buffer-pool.js';
import { formatSocketAddress, type SocketAddress } from './socket-address.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';

const DEFAULT_SEND_QUEUE_LIMIT = 4096;
export const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;
const log = moduleLogger('agent.transport.udp');

/** options.sendQueueLimit, or the default; a RangeError unless a positive integer. */
export function sendQueueLimitOf(options: UdpSocketOptions): number {
  const limit = options.sendQueueLimit ?? DEFAULT_SEND_QUEUE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`sendQueueLimit must be a positive integer, not ${limit}`);
  return limit;
}

export class PooledUdpSocket implements AgentUdpSocket {
  /** Where the socket is bound (the port the system chose, when 0 was asked for). */
  readonly local: SocketAddress;
  private readonly pool: SendBufferPool;
  private readonly afterSend = (err: Error | null, bytes: number): void => this.sent(err, bytes);
  private open = true;
  /** The peer the socket is connected to, if it is. */
  private connectedTo: SocketAddress | undefined;

  private constructor(
    private readonly socket: Socket,
    local: SocketAddress,
    bufferSize: number,
    private readonly sendQueueLimit: number,
    private readonly counters: MutableTransportCounters,
  ) {
    this.local = local;
    this.pool = new SendBufferPool(bufferSize, sendQueueLimit);
  }

  /** Binds to `local` (port 0: the system chooses); sends count into `counters`. */
  static async bind(
    local: SocketAddress,
    what: string,
    options: UdpSocketOptions,
    bufferSize: number,
    counters: MutableTransportCounters,
    onMessage: MessageHandler,
  ): Promise<PooledUdpSocket> {
    const limit = sendQueueLimitOf(options);
    const socket = createSocket({
      type: local.family === 4 ? 'udp4' : 'udp6',
      recvBufferSize: options.recvBufferSize ?? DEFAULT_BUFFER_BYTES,
      sendBufferSize: options.sendBufferSize ?? DEFAULT_BUFFER_BYTES,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address: local.address, port: local.port, exclusive: true }, () => {
          socket.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      socket.close();
      const code = (err as NodeJS.ErrnoException).code;
      const reason = code === 'EADDRINUSE' ? 'the address is in use; choose another port' : code === 'EADDRNOTAVAIL' ? 'it is not an address of this host' : (err as Error).message;
      throw new TransportError(TRANSPORT_ERROR_CODES.bindFailed, `${what}: cannot bind UDP ${formatSocketAddress(local)}: ${reason}`, { cause: err });
    }
    socket.on('message', onMessage);
    socket.on('error', (err) => log.warn({ err, what }, 'UDP socket error'));
    const bound = socket.address();
    const actual: SocketAddress = { ...local, port: bound.port };
    return new PooledUdpSocket(socket, actual, bufferSize, limit, counters);
  }

  /**
   * Connects the socket to `peer`: sends to it take the fast path, and the
   * kernel drops datagrams from anyone else. Only for a socket bound to a port
   * given explicitly (Linux moves a socket bound to port 0 to a new port when
   * it is disconnected again).
   */
  async connect(peer: SocketAddress): Promise<void> {
    await new Promise<void>((resolve, reject) => this.socket.connect(peer.port, peer.address, (err?: Error) => (err ? reject(err) : resolve())));
    this.connectedTo = peer;
  }

  /** Undoes `connect` (the port stays); sends name their destination again. */
  disconnect(): void {
    if (this.connectedTo === undefined) return;
    this.connectedTo = undefined;
    this.socket.disconnect();
  }

  /** The peer the socket is connected to, if it is. */
  get peer(): SocketAddress | undefined {
    return this.connectedTo;
  }

  /**
   * A send buffer to fill, or undefined (and a counted drop) when closed or
   * when too many sends are in flight. Pass it to `transmit` at once.
   */
  acquire(): Buffer | undefined {
    const full = this.connectedTo !== undefined && this.socket.getSendQueueCount() >= this.sendQueueLimit;
    const buf = this.open && !full ? this.pool.take() : undefined;
    if (buf === undefined) this.counters.sendDrops++;
    return buf;
  }

  /** Sends `buf[0 .. length)` (a buffer from `acquire`) to `to`. */
  transmit(buf: Buffer, length: number, to: SocketAddress): void {
    const peer = this.connectedTo;
    if (peer !== undefined && peer.port === to.port && peer.address === to.address) return this.transmitConnected(buf, length);
    try {
      this.socket.send(buf, 0, length, to.port, to.address, this.afterSend);
    } catch (err) {
      this.pool.unTakeNewest();
      throw err;
    }
  }

  private transmitConnected(buf: Buffer, length: number): void {
    try {
      this.socket.send(buf, 0, length);
    } catch (err) {
      this.pool.unTakeNewest();
      throw err;
    }
    this.counters.datagramsOut++;
    this.counters.bytesOut += length;
    if (this.socket.getSendQueueCount() === 0) this.pool.unTakeNewest();
    else this.pool.letGoNewest();
  }

  private sent(err: Error | null, bytes: number): void {
    this.pool.releaseOldest();
    if (err) {
      this.counters.sendDrops++;
      return;
    }
    this.counters.datagramsOut++;
    this.counters.bytesOut += bytes;
  }

  close(): Promise<void> {
    if (!this.open) return Promise.resolve();
    this.open = false;
    this.socket.removeAllListeners('message');
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve(); // already closed
      }
    });
  }
}
