/**
 * Reads the IPv4 ECN field of the datagrams an agent receives on the
 * kernel's UDP, which dgram cannot do: a raw IPv4 socket for protocol UDP
 * gets a copy of every UDP datagram the host delivers, header included. The
 * observer keeps the copies addressed to the agent's port (and address,
 * unless it listens on 0.0.0.0) and reports those marked CE (ECN = 3), with
 * their UDP payload, to its listener (ce-marks.ts).
 *
 * - Needs CAP_NET_RAW and the raw-socket package (raw-udp-socket.ts says
 *   what to do when either is missing).
 * - Every UDP datagram of the host costs one read and a few header fields
 *   (ipv4-udp-copy.ts), whoever it is for; a packet's copy may be read before
 *   or after the agent's socket reads the packet itself.
 * - The raw socket has its own receive buffer: when the host receives faster
 *   than the observer reads, the kernel drops copies, and those marks go
 *   unseen (nothing is lost for the agent's own socket).
 */
import { isIPv4 } from 'node:net';
import { moduleLogger } from '../../log/logger.js';
import { ipv4FromText } from '../../wire/index.js';
import { CeMarkRelay, type CeMarkListener, type CeMarkSource } from './ce-marks.js';
import { classifyUdpCopy, UdpCopyVerdict, type UdpCopy, type UdpCopyFilter } from './ipv4-udp-copy.js';
import type { RawSocket, RawSocketModule } from './raw-socket-module.js';
import { loadRawSocketModule, openRawUdpSocket } from './raw-udp-socket.js';
import { formatSocketAddress, type SocketAddress } from './socket-address.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';

const log = moduleLogger('agent.transport.ce');

/** The largest IPv4 packet: the raw socket reads whole datagrams, never truncated. */
const MAX_IPV4_PACKET = 0xffff;
const DEFAULT_RECEIVE_BUFFER = 4 * 1024 * 1024;
const ECN_CE = 3;
/** Packets read per readiness event beyond the first. */
const DRAIN_LIMIT = 256;
/** Errors logged per observer; the rest are only counted. */
const LOGGED_ERRORS = 10;

export interface Ipv4CeObserverOptions {
  /** The agent's IPv4 address; 0.0.0.0 keeps datagrams to any address of the host. */
  readonly address: string;
  /** The agent's UDP port (its socket's bound port). */
  readonly port: number;
  /** SO_RCVBUF of the raw socket in bytes (default 4 MiB; the kernel caps it at net.core.rmem_max). */
  readonly receiveBufferBytes?: number;
  /** The raw-socket package (default: loaded now; tests pass a stand-in). */
  readonly rawSocket?: RawSocketModule;
}

export interface Ipv4CeObserverCounters {
  /** Packets read from the raw socket: every UDP datagram the host received. */
  readonly seen: number;
  /** Of those, whole datagrams to the agent's address and port. */
  readonly forUs: number;
  /** Of those, marked CE: each reported to the listener (if any). */
  readonly ce: number;
  /** Fragments and malformed packets, skipped. */
  readonly fragments: number;
  readonly malformed: number;
  /** Errors the raw socket reported. */
  readonly receiveErrors: number;
}

export class Ipv4CeObserver implements CeMarkSource {
  private seen = 0;
  private forUs = 0;
  private fragments = 0;
  private malformed = 0;
  private receiveErrors = 0;
  private readonly ce: CeMarkRelay;
  private closed = false;
  private readonly copy: UdpCopy = { ecn: 0, payloadOffset: 0, payloadLength: 0 };

  private constructor(
    private readonly socket: RawSocket,
    private readonly filter: UdpCopyFilter,
    readonly name: string,
  ) {
    this.ce = new CeMarkRelay(name);
    socket.on('message', (packet) => {
      this.packet(packet);
      this.drain();
    });
    socket.on('error', (err) => this.failed(err));
    socket.on('close', () => {
      if (!this.closed) log.warn({ observer: name }, 'the raw socket closed: no more IPv4 CE marks are seen');
      this.closed = true;
    });
  }

  /** Opens the raw socket. Throws TransportError (bad address, no raw-socket package, no CAP_NET_RAW). */
  static open(options: Ipv4CeObserverOptions): Ipv4CeObserver {
    if (!isIPv4(options.address)) {
      throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `IPv4 CE marks: "${options.address}" is not an IPv4 address; CE marks are read from IPv4 headers only`);
    }
    if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) throw new RangeError(`port must be a bound UDP port, 1..65535, not ${options.port}`);
    const receiveBuffer = options.receiveBufferBytes ?? DEFAULT_RECEIVE_BUFFER;
    if (!Number.isInteger(receiveBuffer) || receiveBuffer < 1) throw new RangeError(`receiveBufferBytes must be a positive integer, not ${receiveBuffer}`);
    const module = options.rawSocket ?? loadRawSocketModule();
    const socket = openRawUdpSocket(MAX_IPV4_PACKET, module);
    const name = `ipv4-ce ${formatSocketAddress({ family: 4, address: options.address, port: options.port })}`;
    try {
      socket.setOption(module.SocketLevel.SOL_SOCKET, module.SocketOption.SO_RCVBUF, receiveBuffer);
    } catch (err) {
      // A smaller buffer only means more copies dropped under load.
      log.debug({ err, observer: name }, 'SO_RCVBUF not set');
    }
    return new Ipv4CeObserver(socket, { ip: ipv4FromText(options.address), port: options.port }, name);
  }

  /** Throws TRANSPORT_BAD_ADDRESS unless an observer can watch `local` (IPv4); call it before binding. */
  static checkAddress(local: SocketAddress, what: string): void {
    if (local.family !== 4) {
      throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${what}: IPv4 CE marks can be read for an IPv4 address only, not ${local.address}`);
    }
  }

  /** The observer for a bound dgram socket's address. */
  static forSocket(local: SocketAddress, what: string): Ipv4CeObserver {
    Ipv4CeObserver.checkAddress(local, what);
    return Ipv4CeObserver.open({ address: local.address, port: local.port });
  }

  onCeMark(listener: CeMarkListener | undefined): void {
    this.ce.set(listener);
  }

  get ceMarks(): number {
    return this.ce.count;
  }

  /** A copy of the counters. */
  get counters(): Ipv4CeObserverCounters {
    const { seen, forUs, fragments, malformed, receiveErrors } = this;
    return { seen, forUs, ce: this.ce.count, fragments, malformed, receiveErrors };
  }

  /** Closes the raw socket; idempotent. Nothing is reported afterwards. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.ce.set(undefined);
    this.socket.close();
  }

  /**
   * Reads what else is queued, up to a bound: raw-socket reads one packet per
   * turn of the event loop, dgram up to 32, and a copy read late is a mark
   * taken late (or dropped when the raw socket's buffer fills).
   */
  private drain(): void {
    const { wrap, buffer } = this.socket;
    for (let i = 0; i < DRAIN_LIMIT && !this.closed; i++) {
      try {
        wrap.recv(buffer, this.onDrained);
      } catch (err) {
        // EAGAIN ends the batch: nothing more is queued.
        if (!/temporarily unavailable/i.test((err as Error).message)) this.failed(err);
        return;
      }
    }
  }

  private failed(err: unknown): void {
    if (this.receiveErrors++ < LOGGED_ERRORS) log.warn({ err, observer: this.name }, 'raw socket error');
  }

  private readonly onDrained = (buffer: Buffer, bytes: number): void => this.packet(buffer.subarray(0, bytes));

  private packet(packet: Buffer): void {
    if (this.closed) return;
    this.seen++;
    const copy = this.copy;
    const verdict = classifyUdpCopy(packet, packet.length, this.filter, copy);
    if (verdict !== UdpCopyVerdict.forUs) {
      if (verdict === UdpCopyVerdict.fragment) this.fragments++;
      else if (verdict === UdpCopyVerdict.malformed) this.malformed++;
      return;
    }
    this.forUs++;
    if (copy.ecn === ECN_CE) this.ce.report(packet, copy.payloadOffset, copy.payloadLength);
  }
}
