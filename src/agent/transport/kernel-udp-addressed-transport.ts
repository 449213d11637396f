/**
 * The kernel's UDP for a server agent: one socket bound to the server's
 * address and port, sending each datagram where the caller says
 * (AddressedTransport), receiving from anyone. The ATP parameter server uses
 * it; in Mininet and on real hosts the kernel builds the headers.
 */
import type { RemoteInfo } from 'node:dgram';
import { MAX_UDP_PAYLOAD } from '../../wire/index.js';
import type { AddressedTransport } from './addressed-transport.js';
import { ListeningTransport } from './base-transport.js';
import { sendLength } from './datagram-transport.js';
import { DEFAULT_MAX_PAYLOAD } from './kernel-udp-transport.js';
import { formatSocketAddress, socketAddress, type SocketAddress } from './socket-address.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';
import { PooledUdpSocket, type UdpSocketOptions } from './udp-socket.js';

export interface KernelUdpAddressedTransportOptions extends UdpSocketOptions {
  /** The server's own address (an IP literal). */
  readonly localAddress: string;
  /** The server's UDP port; 0 lets the system choose. */
  readonly localPort: number;
  /** The largest payload to send (default 1472). */
  readonly maxPayload?: number;
}

export class KernelUdpAddressedTransport extends ListeningTransport implements AddressedTransport {
  private readonly onMessage = (msg: Buffer, _rinfo: RemoteInfo): void => this.deliver(msg, 0, msg.length);
  private socket!: PooledUdpSocket;

  private constructor(name: string, maxPayload: number) {
    super(name, maxPayload);
  }

  /** Binds the socket. Throws TransportError for a bad address or a failed bind. */
  static async open(options: KernelUdpAddressedTransportOptions): Promise<KernelUdpAddressedTransport> {
    const local = socketAddress(options.localAddress, options.localPort, 'kernel UDP server address', true);
    const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
    if (!Number.isInteger(maxPayload) || maxPayload < 1 || maxPayload > MAX_UDP_PAYLOAD) {
      throw new RangeError(`maxPayload must be an integer in 1..${MAX_UDP_PAYLOAD}, not ${maxPayload}`);
    }
    const transport = new KernelUdpAddressedTransport('udp', maxPayload);
    transport.socket = await PooledUdpSocket.bind(local, 'kernel UDP server transport', options, maxPayload, transport.counters, transport.onMessage);
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

  protected release(): Promise<void> {
    return this.socket.close();
  }
}
