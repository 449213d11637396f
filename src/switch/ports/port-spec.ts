/**
 * The `-i PORT@SPEC` argument of `p4ina switch`, as BMv2's simple_switch
 * takes `-i 1@veth0`, with our two extra backends:
 *   PORT@udp:LOCALADDR:LOCALPORT:PEERADDR:PEERPORT   a UDP wire (IPv6 in brackets)
 *   PORT@mem:NAME                                    an in-memory wire
 *   PORT@IFACE                                       a network interface (AF_PACKET)
 * Parsing checks everything that can be checked without opening anything.
 */
import { parseIpAddress, parseUdpPort } from './ip-address.js';
import { PORT_ERROR_CODES, PortError } from './port-error.js';
import { checkPortNumber } from './port-number.js';

interface SpecBase {
  /** The switch port number, 0..510. */
  readonly number: number;
  /** The argument as given, for messages. */
  readonly text: string;
}

export interface UdpPortSpec extends SpecBase {
  readonly kind: 'udp';
  readonly localAddress: string;
  /** 0 lets the system choose an ephemeral port. */
  readonly localPort: number;
  readonly peerAddress: string;
  readonly peerPort: number;
}

export interface MemoryPortSpec extends SpecBase {
  readonly kind: 'memory';
  readonly wire: string;
}

export interface IfacePortSpec extends SpecBase {
  readonly kind: 'iface';
  readonly iface: string;
}

export type PortSpec = UdpPortSpec | MemoryPortSpec | IfacePortSpec;

export interface PortSpecOptions {
  /** Accept UDP wires on non-loopback addresses (off by default: a wire is for this machine). */
  readonly allowNonLoopback?: boolean;
}

const FORMS = 'PORT@udp:LOCALADDR:LOCALPORT:PEERADDR:PEERPORT, PORT@mem:NAME or PORT@IFACE';
const ADDRESS = String.raw`(\[[^\]]*\]|[^:\[\]]+)`;
const UDP = new RegExp(`^udp:${ADDRESS}:([^:]*):${ADDRESS}:([^:]*)$`);
/** Linux interface names: 1..15 bytes, no slash, whitespace or colon. */
const IFACE = /^[^\s/:]{1,15}$/;
const WIRE = /^[A-Za-z0-9._-]{1,64}$/;

function syntax(text: string, why: string): PortError {
  return new PortError(PORT_ERROR_CODES.syntax, `port argument "${text}": ${why}; expected ${FORMS}`);
}

/** Checks both ends of a UDP wire: literals, one family, loopback unless allowed. Returns canonical addresses. */
export function checkUdpEndpoints(
  what: string,
  local: string,
  peer: string,
  options: PortSpecOptions,
): { localAddress: string; peerAddress: string; family: 4 | 6 } {
  const l = parseIpAddress(local, `${what} local address`);
  const p = parseIpAddress(peer, `${what} peer address`);
  if (l.family !== p.family) {
    throw new PortError(PORT_ERROR_CODES.badAddress, `${what}: the local address ${l.text} and the peer ${p.text} are of different IP families; use two IPv4 or two IPv6 addresses`);
  }
  if (!options.allowNonLoopback) {
    for (const [role, address] of [['local', l], ['peer', p]] as const) {
      if (!address.loopback) {
        throw new PortError(
          PORT_ERROR_CODES.notLoopback,
          `${what}: the ${role} address ${address.text} is not a loopback address; UDP wires stay on this machine (127.0.0.0/8 or ::1) unless non-loopback addresses are explicitly allowed`,
        );
      }
    }
  }
  return { localAddress: l.text, peerAddress: p.text, family: l.family };
}

/** Parses one PORT@SPEC argument. Throws PortError with a code from PORT_ERROR_CODES. */
export function parsePortSpec(text: string, options: PortSpecOptions = {}): PortSpec {
  const at = text.indexOf('@');
  if (at < 0) throw syntax(text, 'there is no "@" between the port number and the port');
  const numberText = text.slice(0, at);
  const rest = text.slice(at + 1);
  if (!/^\d{1,9}$/.test(numberText)) throw syntax(text, `"${numberText}" is not a port number`);
  const number = Number(numberText);
  checkPortNumber(number, `port argument "${text}"`);
  if (rest.startsWith('udp:')) {
    const m = UDP.exec(rest);
    if (!m) throw syntax(text, 'a UDP wire needs four parts after "udp:"');
    const what = `port argument "${text}"`;
    const ends = checkUdpEndpoints(what, m[1]!, m[3]!, options);
    return {
      kind: 'udp',
      number,
      text,
      localAddress: ends.localAddress,
      localPort: parseUdpPort(m[2]!, `${what} local port`, true),
      peerAddress: ends.peerAddress,
      peerPort: parseUdpPort(m[4]!, `${what} peer port`, false),
    };
  }
  if (rest.startsWith('mem:')) {
    const wire = rest.slice(4);
    if (!WIRE.test(wire)) throw syntax(text, `in-memory wire name "${wire}" must be 1..64 letters, digits, ".", "_" or "-"`);
    return { kind: 'memory', number, text, wire };
  }
  if (rest.includes(':')) throw syntax(text, `unknown port kind "${rest.slice(0, rest.indexOf(':'))}"`);
  if (!IFACE.test(rest)) throw syntax(text, `"${rest}" is not an interface name (1..15 characters, no "/" or spaces)`);
  return { kind: 'iface', number, text, iface: rest };
}

/** Parses every `-i` argument and refuses a port number given twice. */
export function parsePortSpecs(texts: readonly string[], options: PortSpecOptions = {}): PortSpec[] {
  const specs: PortSpec[] = [];
  const seen = new Map<number, string>();
  for (const text of texts) {
    const spec = parsePortSpec(text, options);
    const earlier = seen.get(spec.number);
    if (earlier !== undefined) {
      throw new PortError(PORT_ERROR_CODES.duplicate, `port ${spec.number} is given twice ("${earlier}" and "${text}"); give each port number once`);
    }
    seen.set(spec.number, text);
    specs.push(spec);
  }
  return specs;
}
