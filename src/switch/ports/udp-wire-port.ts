/**
 * A UDP wire: a switch port that is a UDP socket, one Ethernet frame per
 * datagram, joined point to point to one peer socket. Datagrams from any
 * other source are dropped and counted; sends beyond a bounded number in
 * flight are dropped and counted rather than buffered without limit.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { moduleLogger } from '../../log/logger.js';
import { parseUdpPort } from './ip-address.js';
import { BasePort } from './port.js';
import { PORT_ERROR_CODES, PortError } from './port-error.js';
import { checkPortNumber } from './port-number.js';
import { checkUdpEndpoints } from './port-spec.js';

export interface UdpWireOptions {
  /** The switch port number, 0..510. */
  readonly number: number;
  readonly localAddress: string;
  /** 0 lets the system choose; read the result from `localPort` after open. */
  readonly localPort: number;
  readonly peerAddress: string;
  readonly peerPort: number;
  /** Accept non-loopback addresses (off by default). */
  readonly allowNonLoopback?: boolean;
  /** Sends in flight before further sends are dropped (default 1024). */
  readonly sendQueueLimit?: number;
  /** SO_RCVBUF in bytes (default 4 MiB; the kernel caps it at net.core.rmem_max). */
  readonly recvBufferSize?: number;
  /** SO_SNDBUF in bytes (default 4 MiB; capped at net.core.wmem_max). */
  readonly sendBufferSize?: number;
}

/** Counters a UDP wire keeps beyond the common ones. */
export interface UdpWireCounters {
  /** Datagrams from a source other than the peer (included in `drops`). */
  readonly foreign: number;
  /** Sends the socket reported as failed (included in `drops`). */
  readonly sendErrors: number;
}

const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;
const log = moduleLogger('switch.ports.udp');

export class UdpWirePort extends BasePort implements UdpWireCounters {
  foreign = 0;
  sendErrors = 0;
  private inFlight = 0;
  private readonly sendQueueLimit: number;
  private peerAddress: string;
  private peerPort: number;
  private readonly allowNonLoopback: boolean;
  // Bound once so that the hot path passes the same functions to every send and event.
  private readonly afterSend = (err: Error | null, bytes: number): void => this.sent(err, bytes);
  private readonly onMessage = (msg: Buffer, rinfo: RemoteInfo): void => this.message(msg, rinfo);

  private constructor(
    number: number,
    private readonly socket: Socket,
    readonly localAddress: string,
    readonly localPort: number,
    options: UdpWireOptions,
    peer: { address: string; port: number },
  ) {
    super(number, `udp-${localAddress}-${localPort}`, 'udp');
    this.peerAddress = peer.address;
    this.peerPort = peer.port;
    this.allowNonLoopback = options.allowNonLoopback ?? false;
    this.sendQueueLimit = options.sendQueueLimit ?? 1024;
    socket.on('message', this.onMessage);
    socket.on('error', (err) => log.warn({ err, port: number }, 'UDP wire socket error'));
  }

  /** Binds the local socket. Throws PortError for bad addresses or when the bind fails. */
  static async open(options: UdpWireOptions): Promise<UdpWirePort> {
    const what = `port ${options.number} (UDP wire)`;
    checkPortNumber(options.number, what);
    const ends = checkUdpEndpoints(what, options.localAddress, options.peerAddress, options);
    const localPort = parseUdpPort(options.localPort, `${what} local port`, true);
    const peerPort = parseUdpPort(options.peerPort, `${what} peer port`, false);
    const limit = options.sendQueueLimit ?? 1024;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`sendQueueLimit must be a positive integer, not ${limit}`);
    const socket = createSocket({
      type: ends.family === 4 ? 'udp4' : 'udp6',
      recvBufferSize: options.recvBufferSize ?? DEFAULT_BUFFER_BYTES,
      sendBufferSize: options.sendBufferSize ?? DEFAULT_BUFFER_BYTES,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address: ends.localAddress, port: localPort, exclusive: true }, () => {
          socket.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      socket.close();
      const reason = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'the address is in use; choose another LOCALPORT' : String((err as Error).message);
      throw new PortError(PORT_ERROR_CODES.bindFailed, `${what}: cannot bind UDP ${ends.localAddress}:${localPort}: ${reason}`, { cause: err });
    }
    const bound = socket.address();
    return new UdpWirePort(options.number, socket, ends.localAddress, bound.port, options, { address: ends.peerAddress, port: peerPort });
  }

  /** Where frames go, and the only source frames are accepted from. */
  get peer(): { readonly address: string; readonly port: number } {
    return { address: this.peerAddress, port: this.peerPort };
  }

  /**
   * Points the wire at another peer, e.g. once both ends of a pair have
   * bound ephemeral ports. Same checks as at open.
   */
  setPeer(address: string, port: number): void {
    const what = `port ${this.number} (UDP wire)`;
    const ends = checkUdpEndpoints(what, this.localAddress, address, { allowNonLoopback: this.allowNonLoopback });
    this.peerPort = parseUdpPort(port, `${what} peer port`, false);
    this.peerAddress = ends.peerAddress;
  }

  send(frame: Buffer): boolean {
    if (this.closed || this.inFlight >= this.sendQueueLimit) {
      this.counters.drops++;
      return false;
    }
    this.inFlight++;
    this.socket.send(frame, this.peerPort, this.peerAddress, this.afterSend);
    return true;
  }

  private sent(err: Error | null, bytes: number): void {
    this.inFlight--;
    if (err) {
      this.sendErrors++;
      this.counters.drops++;
      return;
    }
    this.counters.framesOut++;
    this.counters.bytesOut += bytes;
  }

  private message(msg: Buffer, rinfo: RemoteInfo): void {
    // A wire is point to point: anything not from the peer is a stranger's.
    if (rinfo.port !== this.peerPort || rinfo.address !== this.peerAddress) {
      this.foreign++;
      this.counters.drops++;
      return;
    }
    this.receive(msg);
  }

  protected release(): Promise<void> {
    this.socket.off('message', this.onMessage);
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve(); // already closed
      }
    });
  }
}
