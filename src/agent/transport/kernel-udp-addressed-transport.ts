/**
 * The kernel's UDP for a server agent: one socket bound to the server's
 * address and port, sending each datagram where the caller says
 * (AddressedTransport), receiving from anyone and naming each datagram's
 * sender (dgram's source address and port) to the listener. The ATP parameter server uses
 * it; in Mininet and on real hosts the kernel builds the headers. With
 * `observeCe`, datagrams that arrived CE-marked are reported (`onCeMark`).
 */
import type { RemoteInfo } from 'node:dgram';
import { MAX_UDP_PAYLOAD } from '../../wire/index.js';
import type { AddressedTransport } from './addressed-transport.js';
import type { AgentUdpSocket, UdpSocketOptions } from './agent-udp-socket.js';
import { ListeningTransport } from './base-transport.js';
import type { CeMarkListener, CeMarkSource } from './ce-marks.js';
import { sendLength } from './datagram-transport.js';
import { Ipv4CeObserver, type Ipv4CeObserverCounters } from './ipv4-ce-observer.js';
import { DEFAULT_MAX_PAYLOAD } from './kernel-udp-transport.js';
import { formatSocketAddress, socketAddress, type SocketAddress } from './socket-address.js';
import { SourceAddresses } from './source-addresses.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';
import { openUdpSocket } from './open-udp-socket.js';

export interface KernelUdpAddressedTransportOptions extends UdpSocketOptions {
  /** The server's own address (an IP literal). */
  readonly localAddress: string;
  /** The server's UDP port; 0 lets the system choose. */
  readonly localPort: number;
  /** The largest payload to send (default 1472). */
  readonly maxPayload?: number;
  /** Report datagrams that arrive CE-marked (`onCeMark`) with a raw IP socket beside the UDP one (IPv4 only; needs CAP_NET_RAW). */
  readonly observeCe?: boolean;
}

export class KernelUdpAddressedTransport extends ListeningTransport implements AddressedTransport, CeMarkSource {
  private readonly sources = new SourceAddresses();
  private readonly onMessage = (msg: Buffer, rinfo: RemoteInfo): void => this.deliver(msg, 0, msg.length, this.sources.ofRemote(rinfo));
  private socket!: AgentUdpSocket;
  private observer: Ipv4CeObserver | undefined;

  private constructor(name: string, maxPayload: number) {
    super(name, maxPayload);
  }

  /** Binds the socket. Throws TransportError for a bad address or a failed bind. */
  static async open(options: KernelUdpAddressedTransportOptions): Promise<KernelUdpAddressedTransport> {
    const local = socketAddress(options.localAddress, options.localPort, 'kernel UDP server address', true);
    if (options.observeCe === true) Ipv4CeObserver.checkAddress(local, 'kernel UDP server transport');
    const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
    if (!Number.isInteger(maxPayload) || maxPayload < 1 || maxPayload > MAX_UDP_PAYLOAD) {
      throw new RangeError(`maxPayload must be an integer in 1..${MAX_UDP_PAYLOAD}, not ${maxPayload}`);
    }
    const transport = new KernelUdpAddressedTransport('udp', maxPayload);
    transport.socket = await openUdpSocket(local, 'kernel UDP server transport', options, maxPayload, transport.counters, transport.onMessage, false);
    if (options.observeCe === true) {
      try {
        transport.observer = Ipv4CeObserver.forSocket(transport.socket.local, 'kernel UDP server transport');
      } catch (err) {
        await transport.socket.close();
        throw err;
      }
    }
    transport.rename(`udp ${formatSocketAddress(transport.socket.local)}`);
    return transport;
  }

  /** The bound local address (with the port the system chose, if 0 was asked for). */
  get local(): SocketAddress {
    return this.socket.local;
  }

  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    if (to.family !== this.socket.local.family) {
      throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${this.name}: cannot send to ${formatSocketAddress(to)}, of another IP family`);
    }
    const buf = this.closed ? undefined : this.socket.acquire();
    if (buf === undefined) {
      if (this.closed) this.counters.sendDrops++;
      return false;
    }
    buf.set(n === payload.length ? payload : payload.subarray(0, n));
    this.socket.transmit(buf, n, to);
    return true;
  }

  onCeMark(listener: CeMarkListener | undefined): void {
    this.observer?.onCeMark(listener);
  }

  get ceMarks(): number {
    return this.observer?.ceMarks ?? 0;
  }

  /** The CE observer's counters, when `observeCe` was set. */
  get ceCounters(): Ipv4CeObserverCounters | undefined {
    return this.observer?.counters;
  }

  protected release(): Promise<void> {
    this.observer?.close();
    return this.socket.close();
  }
}
