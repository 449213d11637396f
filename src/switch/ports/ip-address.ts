/**
 * IP literals for UDP wires: parsed to one canonical spelling, so that the
 * source of a received datagram (as Node reports it) can be compared with the
 * configured peer by string equality, and checked for loopback.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { PORT_ERROR_CODES, PortError } from './port-error.js';

export interface IpAddress {
  readonly family: 4 | 6;
  /** Canonical text: a dotted quad, or RFC 5952 IPv6. */
  readonly text: string;
  readonly loopback: boolean;
}

/** Parses an IPv4 or IPv6 literal (brackets around IPv6 allowed). Throws PortError. */
export function parseIpAddress(input: string, what: string): IpAddress {
  const bare = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  // Node's isIPv4 accepts only plain dotted quads (no leading zeros), already canonical.
  if (isIPv4(bare)) return { family: 4, text: bare, loopback: bare.startsWith('127.') };
  if (isIPv6(bare) && !bare.includes('%')) {
    // The WHATWG URL parser serialises IPv6 hosts in the RFC 5952 form, which
    // is also how Node reports datagram sources.
    const text = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
    return { family: 6, text, loopback: text === '::1' };
  }
  throw new PortError(
    PORT_ERROR_CODES.badAddress,
    `${what}: "${input}" is not an IP address; give an IPv4 or IPv6 literal such as 127.0.0.1 or [::1] (host names are not resolved)`,
  );
}

/** Parses a UDP port number; `allowZero` lets the system choose (for a local port). Throws PortError. */
export function parseUdpPort(input: string | number, what: string, allowZero: boolean): number {
  const n = typeof input === 'number' ? input : /^\d{1,5}$/.test(input) ? Number(input) : NaN;
  const min = allowZero ? 0 : 1;
  if (!Number.isInteger(n) || n < min || n > 65535) {
    throw new PortError(PORT_ERROR_CODES.badUdpPort, `${what}: UDP port "${input}" is out of range; choose ${min}..65535`);
  }
  return n;
}
