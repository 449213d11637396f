/**
 * The parameter server's end of a UDP wire, for the end-to-end tests: an
 * AddressedTransport (src/agent/transport) that builds Ethernet/IPv4/UDP
 * frames in user space, as UdpWireTransport does for a worker, but with the
 * IPv4 destination and UDP port of each send chosen by the caller (the PS
 * answers each rack or worker) and the Ethernet destination its gateway, the
 * ToR, which routes by IPv4. It hands the listener the UDP payload of frames
 * addressed to its own IPv4 address and port; everything else is counted as
 * dropped. The agents have no such transport of their own yet (the PS runs
 * on the kernel's UDP in `p4ina agent atp-ps`).
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressedTransport } from '../../../../src/agent/transport/addressed-transport.js';
import { MutableTransportCounters, type DatagramListener } from '../../../../src/agent/transport/datagram-transport.js';
import type { SocketAddress } from '../../../../src/agent/transport/index.js';
import { buildUdpFrame, ipv4FromText, macFromText, parseUdpFrame } from '../../../../src/wire/index.js';

export interface WireAddressedOptions {
  readonly localPort: number;
  readonly peerPort: number;
  /** This host. */
  readonly mac: string;
  readonly ip: string;
  readonly udpPort: number;
  /** Where every frame goes first: the ToR's MAC. */
  readonly gatewayMac: string;
}

export class WireAddressedTransport implements AddressedTransport {
  readonly maxPayload = 1472;
  readonly counters = new MutableTransportCounters();
  private listener: DatagramListener | undefined;
  private closedFlag = false;
  private readonly mac: number;
  private readonly ip: number;
  private readonly gateway: number;
  private readonly buf = Buffer.alloc(1600);

  private constructor(
    private readonly socket: Socket,
    private readonly options: WireAddressedOptions,
  ) {
    this.mac = macFromText(options.mac);
    this.ip = ipv4FromText(options.ip);
    this.gateway = macFromText(options.gatewayMac);
    socket.on('message', (msg) => this.frame(msg));
  }

  static async open(options: WireAddressedOptions): Promise<WireAddressedTransport> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(options.localPort, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new WireAddressedTransport(socket, options);
  }

  get name(): string {
    return `ps-wire ${this.options.ip}:${this.options.udpPort}`;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  sendTo(to: SocketAddress, payload: Uint8Array, length = payload.length): boolean {
    if (length > this.maxPayload) throw new RangeError(`${length} bytes exceed ${this.maxPayload}`);
    if (this.closedFlag) {
      this.counters.sendDrops++;
      return false;
    }
    const flow = { srcMac: this.mac, dstMac: this.gateway, srcIp: this.ip, dstIp: ipv4FromText(to.address), srcPort: this.options.udpPort, dstPort: to.port };
    const n = buildUdpFrame(this.buf, 0, flow, payload.subarray(0, length));
    this.socket.send(Buffer.from(this.buf.subarray(0, n)), this.options.peerPort, '127.0.0.1');
    this.counters.datagramsOut++;
    this.counters.bytesOut += n;
    return true;
  }

  onDatagram(listener: DatagramListener | undefined): void {
    this.listener = listener;
  }

  private frame(msg: Buffer): void {
    const udp = parseUdpFrame(msg);
    const listener = this.listener;
    if (this.closedFlag || !listener || !udp.ok || udp.ethernet.dstMac !== this.mac || udp.ipv4.dstIp !== this.ip || udp.udp.dstPort !== this.options.udpPort) {
      this.counters.receiveDrops++;
      return;
    }
    this.counters.datagramsIn++;
    this.counters.bytesIn += udp.payloadLength;
    listener(msg, udp.payloadOffset, udp.payloadLength);
  }

  close(): Promise<void> {
    if (this.closedFlag) return Promise.resolve();
    this.closedFlag = true;
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}
