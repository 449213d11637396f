/**
 * Socket addresses in transport options: IP literals (host names are not
 * resolved, so a typo cannot silently go to another machine) and UDP ports.
 * Addresses are kept in Node's own spelling so that the source of a received
 * datagram can be compared with a configured peer by string equality.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';

export interface SocketAddress {
  readonly family: 4 | 6;
  readonly address: string;
  readonly port: number;
  readonly loopback: boolean;
}

/** Checks an IP literal and a port; `allowZeroPort` lets the system choose (a local port). */
export function socketAddress(address: string, port: number, what: string, allowZeroPort = false): SocketAddress {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  let family: 4 | 6;
  let text: string;
  if (isIPv4(bare)) {
    family = 4;
    text = bare;
  } else if (isIPv6(bare) && !bare.includes('%')) {
    family = 6;
    // The URL parser writes IPv6 in the RFC 5952 form, which is how Node reports sources.
    text = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } else {
    throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${what}: "${address}" is not an IP address; give a literal such as 127.0.0.1 (host names are not resolved)`);
  }
  const min = allowZeroPort ? 0 : 1;
  if (!Number.isInteger(port) || port < min || port > 65535) {
    throw new TransportError(TRANSPORT_ERROR_CODES.badAddress, `${what}: UDP port ${port} is out of range; choose ${min}..65535`);
  }
  return { family, address: text, port, loopback: isLoopbackAddress(family, text) };
}

/** 127.0.0.0/8 or ::1, for an address already in Node's spelling. */
export function isLoopbackAddress(family: 4 | 6, address: string): boolean {
  return family === 4 ? address.startsWith('127.') : address === '::1';
}

/** Text for logs: `127.0.0.1:9000` or `[::1]:9000`. */
export function formatSocketAddress(a: { family: 4 | 6; address: string; port: number }): string {
  return a.family === 6 ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}
