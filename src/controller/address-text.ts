/**
 * Addresses and quantities as users write them in topology files and job
 * specs: "10.0.1.1/24", "08:00:00:00:01:11", "127.0.0.1:50051", "2ms".
 * Each parser returns the value or a sentence saying what is wrong, so the
 * caller can report it with the JSON path; none of them throws on bad text.
 */
import { ipv4FromText, macFromText } from '../wire/index.js';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(why: string): Parsed<T> => ({ ok: false, why });

export function parseIpv4(text: string): Parsed<number> {
  try {
    return ok(ipv4FromText(text));
  } catch {
    return bad(`"${text}" is not an IPv4 address; write four decimal octets, e.g. 10.0.1.1`);
  }
}

export function parseMac(text: string): Parsed<number> {
  try {
    return ok(macFromText(text));
  } catch {
    return bad(`"${text}" is not a MAC address; write six hex bytes, e.g. 08:00:00:00:01:11`);
  }
}

export interface Ipv4WithPrefix {
  readonly ip: number;
  /** The prefix length after "/", or undefined when the text had none. */
  readonly prefixLength: number | undefined;
}

/** "10.0.1.1/24" or "10.0.1.1" (the tutorials write the host's subnet with its address). */
export function parseIpv4WithPrefix(text: string): Parsed<Ipv4WithPrefix> {
  const slash = text.indexOf('/');
  const address = parseIpv4(slash < 0 ? text : text.slice(0, slash));
  if (!address.ok) return address;
  if (slash < 0) return ok({ ip: address.value, prefixLength: undefined });
  const prefix = text.slice(slash + 1).trim();
  if (!/^\d{1,2}$/.test(prefix) || Number(prefix) > 32) {
    return bad(`"${text}" has a bad prefix length "/${prefix}"; write /0 to /32, e.g. 10.0.1.1/24`);
  }
  return ok({ ip: address.value, prefixLength: Number(prefix) });
}

export interface GrpcAddress {
  readonly host: string;
  readonly port: number;
}

const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9][A-Za-z0-9.-]*)):(\d{1,5})$/;

/** "127.0.0.1:50051", "switch1.lab:9559", "[::1]:9559". */
export function parseGrpcAddress(text: string): Parsed<GrpcAddress> {
  const m = HOST_PORT.exec(text.trim());
  const port = m ? Number(m[3]) : 0;
  if (!m || port < 1 || port > 65535) {
    return bad(`"${text}" is not a gRPC address; write host:port with a port from 1 to 65535, e.g. 127.0.0.1:50051`);
  }
  return ok({ host: (m[1] ?? m[2])!.toLowerCase(), port });
}

const THIS_MACHINE = new Set(['localhost', '0.0.0.0', '::', '::1']);

/**
 * A key under which two addresses that would collide get the same value:
 * 0.0.0.0, localhost and 127.x all mean this machine, so a switch on
 * 0.0.0.0:50051 and one on 127.0.0.1:50051 cannot both listen.
 */
export function grpcCollisionKey(address: GrpcAddress): string {
  const local = THIS_MACHINE.has(address.host) || address.host.startsWith('127.');
  return `${local ? 'this-machine' : address.host}:${address.port}`;
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(us|ms|s)$/;

/**
 * A link delay in milliseconds from the tutorials' forms: a number (ms) or
 * Mininet's text ("0ms", "100us", "1.5ms", "1s").
 */
export function parseDelayMs(value: number | string): Parsed<number> {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? ok(value) : bad(`a delay must be a number of milliseconds ≥ 0, not ${value}`);
  }
  const m = DURATION.exec(value.trim());
  if (!m) return bad(`"${value}" is not a delay; write a number of milliseconds or text such as "2ms", "100us" or "1s"`);
  const amount = Number(m[1]);
  const factor = m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1;
  return ok(amount * factor);
}
