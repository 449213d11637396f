/**
 * An agent on a UDP wire (design §3, loopback mode): the host's "NIC" is a
 * UDP socket on 127.0.0.1 that exchanges one Ethernet frame per datagram with
 * one switch port (or another host). The agent builds Ethernet/IPv4/UDP
 * frames in user space with its own MAC, IP and UDP port, and receives only
 * frames that are for it.
 *
 * Addressing: the agent never sends ARP requests. The destination's MAC comes
 * from the job spec (`remote.mac`), as the switch's MAC/IP are static in
 * SwitchML's set-up too; the agent does answer ARP requests for its own IP, so
 * that a switch or peer that does ARP can find it.
 *
 * Received frames are checked in this order, each failure dropped and counted:
 * 1. from the peer socket, else `foreign` (a wire opened on a given local port
 *    is a connected socket: the kernel drops strangers unseen and uncounted);
 * 2. a readable Ethernet header, else `malformed`;
 * 3. destined to our MAC or broadcast, else `notForUs`;
 * 4. ARP: a request for our IP is answered (`arpReplies`), other ARP is `arpIgnored`;
 * 5. IPv4/UDP that parses with valid checksums (`parseUdpFrame`), else `malformed`
 *    (the code of the last one is kept in `lastMalformed`);
 * 6. to our IP and UDP port, else `notForUs` (other EtherTypes too).
 * What remains is handed to the listener as the UDP payload inside the frame,
 * with the frame's IPv4 source and UDP source port as its sender;
 * when its IPv4 ECN is CE, the CE mark listener (`onCeMark`, ce-marks.ts) gets
 * the same payload first and `ceMarks` counts it.
 *
 * A server on a wire (the ATP parameter server answers each worker at its own
 * address) sends with `sendTo`: the frame goes to the same next hop
 * (`remote.mac`), with the IPv4 destination and UDP port the caller names, so
 * the wire is an AddressedTransport too.
 */
import type { RemoteInfo } from 'node:dgram';
import {
  ArpOperation,
  arpReplyTo,
  BROADCAST_MAC,
  buildArpFrame,
  Ecn,
  buildUdpFrame,
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  ipv4FromText,
  macFromText,
  MAX_UDP_PAYLOAD,
  parseArp,
  parseEthernet,
  parseUdpFrame,
  udpFrameOverhead,
  type UdpFlow,
  type VlanTag,
  type WireErrorCode,
} from '../../wire/index.js';
import type { AddressedTransport } from './addressed-transport.js';
import type { AgentUdpSocket, UdpSocketOptions } from './agent-udp-socket.js';
import { BaseTransport } from './base-transport.js';
import { CeMarkRelay, type CeMarkListener, type CeMarkSource } from './ce-marks.js';
import { sendLength } from './datagram-transport.js';
import { DEFAULT_MAX_PAYLOAD } from './kernel-udp-transport.js';
import { formatSocketAddress, socketAddress, type SocketAddress } from './socket-address.js';
import { SourceAddresses } from './source-addresses.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';
import { openUdpSocket } from './open-udp-socket.js';

/** A host as the network sees it: MAC and IP (numbers or text) and a UDP port. */
export interface WireHostAddress {
  readonly mac: number | string;
  readonly ip: number | string;
  readonly udpPort: number;
}

export interface UdpWireTransportOptions extends UdpSocketOptions {
  /** This end of the wire (default 127.0.0.1, port 0: the system chooses). */
  readonly localAddress?: string;
  readonly localPort?: number;
  /** The other end: the switch port's socket (default address 127.0.0.1). Without a port, call `setPeer` before sending. */
  readonly peerAddress?: string;
  readonly peerPort?: number;
  /** Accept wire sockets on non-loopback addresses (off by default: a wire stays on this machine). */
  readonly allowNonLoopback?: boolean;
  /** This host. */
  readonly host: WireHostAddress;
  /** Where every datagram goes: the switch's (or peer's) static MAC, IP and INA UDP port. */
  readonly remote: WireHostAddress;
  /** Compute UDP checksums on sent frames (default true; false sends 0, "none"). */
  readonly udpChecksum?: boolean;
  /** An 802.1Q tag on sent frames (default none). */
  readonly vlan?: VlanTag | null;
  /** The largest payload to send (default 1472). */
  readonly maxPayload?: number;
}

/**
 * What the UDP wire drops and answers, beyond the common counters. Every frame
 * counted here was not handed to the listener, so each is in `receiveDrops` too.
 */
export interface UdpWireCounters {
  /** Datagrams from a socket other than the peer. */
  readonly foreign: number;
  /** Frames that do not parse (see `lastMalformed`). */
  readonly malformed: number;
  /** Frames for another MAC, IP or UDP port, or of another EtherType. */
  readonly notForUs: number;
  /** ARP requests for our IP that were answered. */
  readonly arpReplies: number;
  /** ARP that needs no answer from us: replies, requests for other addresses. */
  readonly arpIgnored: number;
  /** The wire error code of the last malformed frame. */
  readonly lastMalformed: WireErrorCode | undefined;
  /** Frames handed to the listener whose IPv4 ECN was CE. */
  readonly ceMarks: number;
}

interface ResolvedHost {
  readonly mac: number;
  readonly ip: number;
  readonly udpPort: number;
}

function resolveHost(host: WireHostAddress, what: string): ResolvedHost {
  const mac = typeof host.mac === 'string' ? macFromText(host.mac) : host.mac;
  const ip = typeof host.ip === 'string' ? ipv4FromText(host.ip) : host.ip;
  if (!Number.isInteger(mac) || mac < 0 || mac >= 2 ** 48) throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${what}: MAC ${mac} is not a 48-bit number`);
  if (!Number.isInteger(ip) || ip < 0 || ip >= 2 ** 32) throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${what}: IPv4 address ${ip} is not a 32-bit number`);
  if (!Number.isInteger(host.udpPort) || host.udpPort < 1 || host.udpPort > 65535) {
    throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${what}: UDP port ${host.udpPort} is out of range; choose 1..65535`);
  }
  return { mac, ip, udpPort: host.udpPort };
}

export class UdpWireTransport extends BaseTransport implements UdpWireCounters, AddressedTransport, CeMarkSource {
  foreign = 0;
  malformed = 0;
  notForUs = 0;
  arpReplies = 0;
  arpIgnored = 0;
  lastMalformed: WireErrorCode | undefined;
  readonly host: ResolvedHost;
  readonly remote: ResolvedHost;
  private readonly flow: UdpFlow;
  private readonly vlan: VlanTag | null;
  private readonly allowNonLoopback: boolean;
  private peerAddress: SocketAddress | undefined;
  private socket!: AgentUdpSocket;
  private readonly ce = new CeMarkRelay('udp-wire');
  private readonly sources = new SourceAddresses();
  private readonly onMessage = (msg: Buffer, rinfo: RemoteInfo): void => this.frame(msg, rinfo);

  private constructor(options: UdpWireTransportOptions, maxPayload: number) {
    super('udp-wire', maxPayload);
    this.host = resolveHost(options.host, 'UDP wire transport host');
    this.remote = resolveHost(options.remote, 'UDP wire transport remote');
    this.vlan = options.vlan ?? null;
    this.allowNonLoopback = options.allowNonLoopback ?? false;
    this.flow = {
      srcMac: this.host.mac,
      dstMac: this.remote.mac,
      vlan: this.vlan,
      srcIp: this.host.ip,
      dstIp: this.remote.ip,
      srcPort: this.host.udpPort,
      dstPort: this.remote.udpPort,
      udpChecksum: options.udpChecksum ?? true,
    };
  }

  /** Binds this end of the wire. Throws TransportError (or WireFormatError for MAC/IP text). */
  static async open(options: UdpWireTransportOptions): Promise<UdpWireTransport> {
    const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
    if (!Number.isInteger(maxPayload) || maxPayload < 1 || maxPayload > MAX_UDP_PAYLOAD) {
      throw new RangeError(`maxPayload must be an integer in 1..${MAX_UDP_PAYLOAD}, not ${maxPayload}`);
    }
    const transport = new UdpWireTransport(options, maxPayload);
    const local = transport.wireEnd(options.localAddress ?? '127.0.0.1', options.localPort ?? 0, 'local', true);
    if (options.peerPort !== undefined) transport.setPeer(options.peerAddress ?? '127.0.0.1', options.peerPort, local);
    const frameSize = maxPayload + udpFrameOverhead(transport.vlan);
    transport.socket = await openUdpSocket(local, 'UDP wire transport', options, frameSize, transport.counters, transport.onMessage, true);
    transport.rename(`udp-wire ${formatSocketAddress(transport.socket.local)}`);
    // A wire has one peer: connected, its sends take dgram's fast path. Not on
    // an ephemeral port, which Linux would change if setPeer disconnected it.
    const peer = transport.peerAddress;
    if (peer !== undefined && local.port !== 0) {
      try {
        await transport.socket.connect(peer);
      } catch (err) {
        await transport.socket.close();
        throw new TransportError(TRANSPORT_ERROR_CODES.bindFailed, `UDP wire transport: cannot connect to the peer ${formatSocketAddress(peer)}: ${(err as Error).message}`, { cause: err });
      }
    }
    return transport;
  }

  /** The bound socket of this end (for the switch port's peer setting). */
  get local(): SocketAddress {
    return this.socket.local;
  }

  /** The switch port's socket, once known. */
  get peer(): SocketAddress | undefined {
    return this.peerAddress;
  }

  /** Points the wire at the other end's socket (e.g. once it has bound an ephemeral port). */
  setPeer(address: string, port: number, local: SocketAddress = this.socket.local): void {
    const peer = this.wireEnd(address, port, 'peer', false);
    if (peer.family !== local.family) {
      throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `UDP wire transport: the peer ${peer.address} and the local ${local.address} are of different IP families`);
    }
    this.peerAddress = peer;
    // Connected to another peer (open connects when it knows one): sends name their destination from now on.
    const connected = this.socket as AgentUdpSocket | undefined;
    if (connected?.peer !== undefined && (connected.peer.port !== peer.port || connected.peer.address !== peer.address)) connected.disconnect();
  }

  private wireEnd(address: string, port: number, role: 'local' | 'peer', allowZero: boolean): SocketAddress {
    const end = socketAddress(address, port, `UDP wire transport ${role} address`, allowZero);
    if (!end.loopback && !this.allowNonLoopback) {
      throw new TransportError(
        TRANSPORT_ERROR_CODES.badAddress,
        `UDP wire transport: the ${role} address ${end.address} is not a loopback address; a UDP wire stays on this machine unless allowNonLoopback is set`,
      );
    }
    return end;
  }

  send(payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    const peer = this.peerAddress;
    const buf = this.closed || peer === undefined ? undefined : this.socket.acquire();
    if (buf === undefined) {
      if (this.closed || peer === undefined) this.counters.sendDrops++;
      return false;
    }
    const frameLength = buildUdpFrame(buf, 0, this.flow, n === payload.length ? payload : payload.subarray(0, n));
    this.socket.transmit(buf, frameLength, peer!);
    return true;
  }

  /**
   * Sends to `to` (an IPv4 address and UDP port) through the wire's next hop,
   * `remote.mac`; `remote`'s own IPv4 address and port play no part.
   */
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    if (to.family !== 4) throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${this.name}: cannot send to ${formatSocketAddress(to)}: frames on a wire carry IPv4`);
    const peer = this.peerAddress;
    const buf = this.closed || peer === undefined ? undefined : this.socket.acquire();
    if (buf === undefined) {
      if (this.closed || peer === undefined) this.counters.sendDrops++;
      return false;
    }
    const flow: UdpFlow = { ...this.flow, dstIp: ipv4FromText(to.address), dstPort: to.port };
    const frameLength = buildUdpFrame(buf, 0, flow, n === payload.length ? payload : payload.subarray(0, n));
    this.socket.transmit(buf, frameLength, peer!);
    return true;
  }

  private frame(msg: Buffer, rinfo: RemoteInfo): void {
    const peer = this.peerAddress;
    if (peer === undefined || rinfo.port !== peer.port || rinfo.address !== peer.address) {
      this.foreign++;
      this.counters.receiveDrops++;
      return;
    }
    const ethernet = parseEthernet(msg);
    if (!ethernet.ok) return this.dropMalformed(ethernet.code);
    if (ethernet.dstMac !== this.host.mac && ethernet.dstMac !== BROADCAST_MAC) return this.dropNotForUs();
    if (ethernet.etherType === ETHERTYPE_ARP) return this.arp(msg, ethernet.payloadOffset);
    if (ethernet.etherType !== ETHERTYPE_IPV4) return this.dropNotForUs();
    const udp = parseUdpFrame(msg);
    if (!udp.ok) return this.dropMalformed(udp.code);
    if (udp.ipv4.dstIp !== this.host.ip || udp.udp.dstPort !== this.host.udpPort) return this.dropNotForUs();
    // The mark first: a receiver that keeps state per packet then has it when the packet comes.
    if (udp.ipv4.ecn === Ecn.CE && !this.closed) this.ce.report(msg, udp.payloadOffset, udp.payloadLength);
    this.deliver(msg, udp.payloadOffset, udp.payloadLength, this.sources.ofIpv4(udp.ipv4.srcIp, udp.udp.srcPort));
  }

  onCeMark(listener: CeMarkListener | undefined): void {
    this.ce.set(listener);
  }

  get ceMarks(): number {
    return this.ce.count;
  }

  private arp(msg: Buffer, offset: number): void {
    const arp = parseArp(msg, offset);
    if (!arp.ok) return this.dropMalformed(arp.code);
    this.counters.receiveDrops++;
    if (arp.operation !== ArpOperation.REQUEST || arp.targetIp !== this.host.ip) {
      this.arpIgnored++;
      return;
    }
    const buf = this.closed ? undefined : this.socket.acquire();
    if (buf === undefined) return;
    const length = buildArpFrame(buf, 0, arpReplyTo(arp, this.host.mac), this.vlan);
    this.socket.transmit(buf, length, this.peerAddress!);
    this.arpReplies++;
  }

  private dropMalformed(code: WireErrorCode): void {
    this.malformed++;
    this.lastMalformed = code;
    this.counters.receiveDrops++;
  }

  private dropNotForUs(): void {
    this.notForUs++;
    this.counters.receiveDrops++;
  }

  protected release(): Promise<void> {
    return this.socket.close();
  }
}
