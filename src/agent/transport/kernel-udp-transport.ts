/**
 * The kernel's UDP as an agent transport: one UDP socket bound to the
 * worker's address and port, sending every datagram to the switch (or next
 * hop) at `remote`. This is the Mininet and real-host mode (design §3): each
 * host has its own IP, and the kernel builds the Ethernet/IPv4/UDP headers.
 *
 * Datagrams are accepted from any source. A switch that aggregates writes its
 * result into the last contributor's packet and rewrites the destination only,
 * so results may come from any worker's address; the agent checks the job,
 * epoch and sequence numbers itself. Bind the port the job spec gives the
 * worker: the switch sends results to that port.
 *
 * With `observeCe`, an Ipv4CeObserver beside the socket reports datagrams
 * that arrived CE-marked (`onCeMark`, ce-marks.ts).
 */
import type { RemoteInfo } from 'node:dgram';
import { MAX_UDP_PAYLOAD } from '../../wire/index.js';
import type { AgentUdpSocket, UdpSocketOptions } from './agent-udp-socket.js';
import { BaseTransport } from './base-transport.js';
import type { CeMarkListener, CeMarkSource } from './ce-marks.js';
import { sendLength } from './datagram-transport.js';
import { Ipv4CeObserver, type Ipv4CeObserverCounters } from './ipv4-ce-observer.js';
import { formatSocketAddress, socketAddress, type SocketAddress } from './socket-address.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';
import { openUdpSocket } from './open-udp-socket.js';

export interface KernelUdpTransportOptions extends UdpSocketOptions {
  /** The worker's own address (an IP literal, e.g. 10.0.0.1 in Mininet, 127.0.0.1 on loopback). */
  readonly localAddress: string;
  /** The worker's UDP port; 0 (the default) lets the system choose. */
  readonly localPort?: number;
  /** Where datagrams go: the switch's address and an INA port (SwitchML: 0xBEE0..0xBEEF). */
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** The largest payload to send (default 1472: a 1500-byte MTU less IPv4 and UDP headers). */
  readonly maxPayload?: number;
  /** Report datagrams that arrive CE-marked (`onCeMark`) with a raw IP socket beside the UDP one (IPv4 only; needs CAP_NET_RAW). */
  readonly observeCe?: boolean;
}

export const DEFAULT_MAX_PAYLOAD = 1472;

export class KernelUdpTransport extends BaseTransport implements CeMarkSource {
  private readonly onMessage = (msg: Buffer, _rinfo: RemoteInfo): void => this.deliver(msg, 0, msg.length);
  private socket!: AgentUdpSocket;
  private observer: Ipv4CeObserver | undefined;

  private constructor(
    name: string,
    maxPayload: number,
    readonly remote: SocketAddress,
  ) {
    super(name, maxPayload);
  }

  /** Binds the socket. Throws TransportError for bad addresses or a failed bind. */
  static async open(options: KernelUdpTransportOptions): Promise<KernelUdpTransport> {
    const local = socketAddress(options.localAddress, options.localPort ?? 0, 'kernel UDP transport local address', true);
    const remote = socketAddress(options.remoteAddress, options.remotePort, 'kernel UDP transport remote address');
    if (local.family !== remote.family) {
      throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `kernel UDP transport: ${local.address} and ${remote.address} are of different IP families; use two IPv4 or two IPv6 addresses`);
    }
    if (options.observeCe === true) Ipv4CeObserver.checkAddress(local, 'kernel UDP transport');
    const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
    if (!Number.isInteger(maxPayload) || maxPayload < 1 || maxPayload > MAX_UDP_PAYLOAD) {
      throw new RangeError(`maxPayload must be an integer in 1..${MAX_UDP_PAYLOAD}, not ${maxPayload}`);
    }
    const transport = new KernelUdpTransport('udp', maxPayload, remote);
    transport.socket = await openUdpSocket(local, 'kernel UDP transport', options, maxPayload, transport.counters, transport.onMessage, false);
    if (options.observeCe === true) {
      try {
        transport.observer = Ipv4CeObserver.forSocket(transport.socket.local, 'kernel UDP transport');
      } catch (err) {
        await transport.socket.close();
        throw err;
      }
    }
    transport.rename(`udp ${formatSocketAddress(transport.socket.local)} -> ${formatSocketAddress(remote)}`);
    return transport;
  }

  /** The bound local address (with the port the system chose, if 0 was asked for). */
  get local(): SocketAddress {
    return this.socket.local;
  }

  send(payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    const buf = this.closed ? undefined : this.socket.acquire();
    if (buf === undefined) {
      if (this.closed) this.counters.sendDrops++;
      return false;
    }
    buf.set(n === payload.length ? payload : payload.subarray(0, n));
    this.socket.transmit(buf, n, this.remote);
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
