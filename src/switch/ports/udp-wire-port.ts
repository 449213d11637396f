/**
 * A UDP wire: a switch port that is a UDP socket, one Ethernet frame per
 * datagram, joined point to point to one peer socket. Datagrams from any
 * other source are dropped and counted; sends beyond a bounded queue are
 * dropped and counted rather than buffered without limit.
 *
 * The send path is the switch's hottest code after the pipeline, so it pays
 * only for what dgram forces (a SendWrap and a one-element list per send):
 * - the socket is connect()ed to the peer, so a send neither resolves the
 *   address (a dns.lookup and a tick per datagram for an unconnected send)
 *   nor names it; the kernel also filters strangers out before we see them;
 * - sends take no completion callback (each would cost another tick): the
 *   port never rewrites a frame it sent (the Port contract), so it needs no
 *   completion to reuse buffers, and the bound is libuv's own queue of sends
 *   the kernel could not take at once (`getSendQueueCount`), which is what a
 *   "send queue" really is. A frame counts in `framesOut` once the socket took
 *   it; a failure the kernel reports later arrives as a socket error and is
 *   counted in `sendErrors` (and `drops`).
 * While the socket (re)connects (at open, and after `setPeer`), frames wait
 * in a queue bounded like the send queue and go out in order once it is
 * connected: dgram cannot send to an address on a socket being connected.
 *
 * Only a wire bound to a port given explicitly is connected: Linux gives a
 * socket bound to port 0 a new port when it is disconnected, and a wire must
 * keep its port across `setPeer`. Ephemeral wires (tests) send unconnected.
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
  /** Sends queued in user space (the kernel's buffer full) before further sends are dropped (default 1024). */
  readonly sendQueueLimit?: number;
  /** SO_RCVBUF in bytes (default 4 MiB; the kernel caps it at net.core.rmem_max). */
  readonly recvBufferSize?: number;
  /** SO_SNDBUF in bytes (default 4 MiB; capped at net.core.wmem_max). */
  readonly sendBufferSize?: number;
}

/** Counters a UDP wire keeps beyond the common ones. */
export interface UdpWireCounters {
  /** Datagrams from a source other than the peer (included in `drops`); a connected wire's kernel drops them unseen and uncounted. */
  readonly foreign: number;
  /** Socket errors: sends the kernel refused after taking them, e.g. the peer's port closed (included in `drops`). */
  readonly sendErrors: number;
}

const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;
/** Socket errors logged per port before the log goes quiet (a closed peer port reports one per frame). */
const LOGGED_SOCKET_ERRORS = 10;
const log = moduleLogger('switch.ports.udp');

export class UdpWirePort extends BasePort implements UdpWireCounters {
  foreign = 0;
  sendErrors = 0;
  private readonly sendQueueLimit: number;
  private peerAddress: string;
  private peerPort: number;
  private readonly allowNonLoopback: boolean;
  /** True while the socket is connected to the current peer: sends then name no address. */
  private connected = false;
  /** A connect() is under way (dgram refuses another until it completes). */
  private connecting = false;
  /** The peer changed while connecting: connect again once that completes. */
  private reconnect = false;
  /** The local port was given (not 0): connecting cannot lose it. */
  private readonly connectable: boolean;
  /** Frames sent while connecting, in order. */
  private waiting: Buffer[] = [];
  // Bound once so that the hot path passes the same function to every event.
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
    this.connectable = options.localPort !== 0;
    socket.on('message', this.onMessage);
    socket.on('error', (err) => this.socketError(err));
    this.connect();
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

  /** True once the socket is connected to the current peer (sends no longer name it; the kernel filters strangers); never for an ephemeral port. */
  get connectedToPeer(): boolean {
    return this.connected;
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
    this.connect();
  }

  send(frame: Buffer): boolean {
    if (this.closed || this.socket.getSendQueueCount() >= this.sendQueueLimit) {
      this.counters.drops++;
      return false;
    }
    if (this.connected) this.socket.send(frame);
    else if (!this.connecting) this.socket.send(frame, this.peerPort, this.peerAddress);
    else if (this.waiting.length < this.sendQueueLimit) {
      this.waiting.push(frame);
      return true;
    } else {
      this.counters.drops++;
      return false;
    }
    this.counters.framesOut++;
    this.counters.bytesOut += frame.length;
    return true;
  }

  /** (Re)connects the socket to the current peer; frames sent meanwhile wait for it. */
  private connect(): void {
    if (this.closed || !this.connectable) return;
    if (this.connecting) {
      this.reconnect = true;
      return;
    }
    if (this.connected) {
      this.connected = false;
      this.socket.disconnect();
    }
    this.connecting = true;
    this.socket.connect(this.peerPort, this.peerAddress, (err?: Error) => {
      this.connecting = false;
      if (this.closed) return;
      if (!err) this.connected = true;
      if (this.reconnect) {
        this.reconnect = false;
        return this.connect();
      }
      if (err) log.warn({ err, port: this.number }, 'UDP wire: cannot connect the socket to its peer; sending unconnected');
      const waiting = this.waiting;
      this.waiting = [];
      for (const frame of waiting) this.send(frame);
    });
  }

  private socketError(err: Error): void {
    // On a connected socket, the kernel reports a refused send (the peer's
    // port closed: ICMP port unreachable) on a later call, as an error event.
    this.sendErrors++;
    this.counters.drops++;
    if (this.sendErrors <= LOGGED_SOCKET_ERRORS) log.warn({ err, port: this.number, sendErrors: this.sendErrors }, 'UDP wire socket error');
  }

  private message(msg: Buffer, rinfo: RemoteInfo): void {
    // A wire is point to point: anything not from the peer is a stranger's
    // (the connected socket filters most of them; this catches the rest).
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
