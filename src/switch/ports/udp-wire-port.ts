/**
 * A UDP wire: a switch port that is a UDP socket, one Ethernet frame per
 * datagram, joined point to point to one peer socket. Datagrams from any
 * other source are dropped and counted; sends beyond a bounded queue are
 * dropped and counted rather than buffered without limit.
 *
 * The socket underneath is our batched UDP addon (recvmmsg/sendmmsg with
 * GRO/GSO: batched-wire-transport.ts) when it loads, else Node's dgram
 * (dgram-wire-transport.ts); `udpIo` picks one, so that both can be measured
 * side by side. Both connect a wire bound to a given port to its peer and
 * keep that port across `setPeer`; ephemeral wires (port 0, tests) send
 * unconnected.
 */
import { moduleLogger } from '../../log/logger.js';
import type { NativeUdpBatchModule } from '../../net/udp-batch/native-udp-batch.js';
import { resolveUdpIo, type UdpIoChoice } from '../../net/udp-batch/udp-io-kind.js';
import { BatchedWireTransport } from './batched-wire-transport.js';
import { DgramWireTransport } from './dgram-wire-transport.js';
import { parseUdpPort } from './ip-address.js';
import { BasePort } from './port.js';
import { PORT_ERROR_CODES, PortError } from './port-error.js';
import { checkPortNumber } from './port-number.js';
import { checkUdpEndpoints } from './port-spec.js';
import type { UdpWireIo, UdpWireSink, UdpWireSocketOptions, UdpWireTransport } from './udp-wire-io.js';

export type { UdpWireIo } from './udp-wire-io.js';

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
  /**
   * Frames held in user space before further sends are dropped (dgram: the
   * kernel's buffer full) or flushed at once (batched) (default 1024).
   */
  readonly sendQueueLimit?: number;
  /** SO_RCVBUF in bytes (default 4 MiB; the kernel caps it at net.core.rmem_max). */
  readonly recvBufferSize?: number;
  /** SO_SNDBUF in bytes (default 4 MiB; capped at net.core.wmem_max). */
  readonly sendBufferSize?: number;
  /**
   * The socket: `batched` (our addon) or `dgram` (Node's). Default: batched
   * when the addon loads here, else dgram; asking for batched where it does
   * not load throws its UdpBatchError.
   */
  readonly udpIo?: UdpWireIo;
  /** The batched addon to use instead of the package's own (tests). */
  readonly udpBatchAddon?: NativeUdpBatchModule;
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
let loggedChoice: string | undefined;

/** Which socket to use, and why; throws UdpBatchError when batched is asked for and cannot be had. */
function chooseIo(options: UdpWireOptions): UdpIoChoice {
  if (options.udpIo !== 'dgram' && options.udpBatchAddon) return { io: 'batched', why: 'asked for', addon: options.udpBatchAddon };
  return resolveUdpIo(options.udpIo, (error) => {
    throw error;
  });
}

function logChoice(io: UdpWireIo, why: string): void {
  const key = `${io}:${why}`;
  if (loggedChoice === key) return;
  loggedChoice = key;
  const what = io === 'batched' ? 'batched I/O (recvmmsg/sendmmsg with UDP GRO/GSO)' : "Node's dgram (one syscall per datagram)";
  log.info({ udpIo: io, why }, `UDP wires use ${what}: ${why}`);
}

export class UdpWirePort extends BasePort implements UdpWireCounters, UdpWireSink {
  foreign = 0;
  sendErrors = 0;
  private peerAddress: string;
  private peerPort: number;
  private readonly allowNonLoopback: boolean;

  private constructor(
    number: number,
    private readonly transport: UdpWireTransport,
    readonly localAddress: string,
    options: UdpWireOptions,
    peer: { address: string; port: number },
  ) {
    super(number, `udp-${localAddress}-${transport.localPort}`, 'udp');
    this.peerAddress = peer.address;
    this.peerPort = peer.port;
    this.allowNonLoopback = options.allowNonLoopback ?? false;
    transport.attach(this);
  }

  /** Binds the local socket. Throws PortError for bad addresses or when the bind fails; UdpBatchError when `udpIo: 'batched'` cannot be had. */
  static async open(options: UdpWireOptions): Promise<UdpWirePort> {
    const what = `port ${options.number} (UDP wire)`;
    checkPortNumber(options.number, what);
    const ends = checkUdpEndpoints(what, options.localAddress, options.peerAddress, options);
    const localPort = parseUdpPort(options.localPort, `${what} local port`, true);
    const peerPort = parseUdpPort(options.peerPort, `${what} peer port`, false);
    const limit = options.sendQueueLimit ?? 1024;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`sendQueueLimit must be a positive integer, not ${limit}`);
    const choice = chooseIo(options);
    const socketOptions: UdpWireSocketOptions = {
      family: ends.family,
      localAddress: ends.localAddress,
      localPort,
      sendQueueLimit: limit,
      recvBufferSize: options.recvBufferSize ?? DEFAULT_BUFFER_BYTES,
      sendBufferSize: options.sendBufferSize ?? DEFAULT_BUFFER_BYTES,
    };
    let transport: UdpWireTransport;
    try {
      transport = choice.io === 'batched' ? BatchedWireTransport.open(socketOptions, choice.addon) : await DgramWireTransport.open(socketOptions);
    } catch (err) {
      if (typeof (err as NodeJS.ErrnoException).code !== 'string' || !/^E[A-Z0-9]+$/.test((err as NodeJS.ErrnoException).code!)) throw err;
      const reason = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'the address is in use; choose another LOCALPORT' : String((err as Error).message);
      throw new PortError(PORT_ERROR_CODES.bindFailed, `${what}: cannot bind UDP ${ends.localAddress}:${localPort}: ${reason}`, { cause: err });
    }
    logChoice(choice.io, choice.why);
    return new UdpWirePort(options.number, transport, ends.localAddress, options, { address: ends.peerAddress, port: peerPort });
  }

  /** The bound port (the system's choice for an ephemeral wire). */
  get localPort(): number {
    return this.transport.localPort;
  }

  /** Which socket this wire runs on. */
  get udpIo(): UdpWireIo {
    return this.transport.io;
  }

  /** Where frames go, and the only source frames are accepted from. */
  get peer(): { readonly address: string; readonly port: number } {
    return { address: this.peerAddress, port: this.peerPort };
  }

  /** True once the socket is connected to the current peer (sends no longer name it; the kernel filters strangers); never for an ephemeral port. */
  get connectedToPeer(): boolean {
    return this.transport.connected;
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
    this.transport.repoint();
  }

  send(frame: Buffer): boolean {
    if (this.closed) {
      this.counters.drops++;
      return false;
    }
    return this.transport.send(frame);
  }

  /** @internal the transport's: a datagram arrived. */
  deliver(datagram: Buffer, address: string, port: number): void {
    // A wire is point to point: anything not from the peer is a stranger's
    // (the connected socket filters most of them; this catches the rest).
    if (port !== this.peerPort || address !== this.peerAddress) {
      this.foreign++;
      this.counters.drops++;
      return;
    }
    this.receive(datagram);
  }

  /** @internal the transport's: frames refused by the socket. */
  sendFailed(frames: number, err: Error): void {
    this.sendErrors += frames;
    this.counters.drops += frames;
    if (this.sendErrors - frames < LOGGED_SOCKET_ERRORS) log.warn({ err, port: this.number, sendErrors: this.sendErrors }, 'UDP wire socket error');
  }

  protected release(): Promise<void> {
    return this.transport.close();
  }
}
