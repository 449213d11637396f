/**
 * The sender of a received datagram as a SocketAddress, for server agents
 * that tell peers apart by address (the OmniReduce aggregator). A server
 * hears from the same few peers over and over, so each distinct source is
 * built once and then found without allocating: by dgram's address text and
 * port, or by a frame's IPv4 address and UDP port as one number. The cache
 * is bounded, so a flood of strangers cannot grow it: when full, it starts
 * over.
 */
import type { RemoteInfo } from 'node:dgram';
import { ipv4ToText } from '../../wire/index.js';
import { isLoopbackAddress, type SocketAddress } from './socket-address.js';

/** Distinct sources kept; far above the workers of any job. */
const MAX_SOURCES = 4096;

export class SourceAddresses {
  private readonly byText = new Map<string, Map<number, SocketAddress>>();
  private readonly byIpv4 = new Map<number, SocketAddress>();
  private textEntries = 0;

  /** The source of a datagram the kernel delivered. */
  ofRemote(rinfo: RemoteInfo): SocketAddress {
    let ports = this.byText.get(rinfo.address);
    const known = ports?.get(rinfo.port);
    if (known !== undefined) return known;
    if (this.textEntries >= MAX_SOURCES) {
      this.byText.clear();
      this.textEntries = 0;
      ports = undefined;
    }
    if (ports === undefined) {
      ports = new Map();
      this.byText.set(rinfo.address, ports);
    }
    const family = rinfo.family === 'IPv6' ? 6 : 4;
    const address: SocketAddress = { family, address: rinfo.address, port: rinfo.port, loopback: isLoopbackAddress(family, rinfo.address) };
    ports.set(rinfo.port, address);
    this.textEntries++;
    return address;
  }

  /** The source named by a frame's IPv4 header (a 32-bit address) and UDP header. */
  ofIpv4(ip: number, port: number): SocketAddress {
    const key = ip * 65536 + port;
    const known = this.byIpv4.get(key);
    if (known !== undefined) return known;
    if (this.byIpv4.size >= MAX_SOURCES) this.byIpv4.clear();
    const text = ipv4ToText(ip);
    const address: SocketAddress = { family: 4, address: text, port, loopback: isLoopbackAddress(4, text) };
    this.byIpv4.set(key, address);
    return address;
  }
}

