/**
 * `host:port` endpoints as users write them on the command line
 * (`127.0.0.1:4000`, `h1:4000`, `[::1]:4000`). Bad text is a
 * BASELINE_BAD_CONFIG error that quotes it.
 */
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';

export interface Endpoint {
  readonly host: string;
  /** 0 only where binding is meant ("let the system choose"). */
  readonly port: number;
}

export function parseEndpoint(text: string, what = 'address'): Endpoint {
  const trimmed = text.trim();
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(trimmed) ?? /^([^:[\]\s]+):(\d+)$/.exec(trimmed);
  if (!match) {
    throw new BaselineError(BASELINE_ERROR_CODES.badConfig, `${what} "${text}" is not host:port (write IPv6 as [addr]:port)`);
  }
  const port = Number(match[2]);
  if (!Number.isInteger(port) || port > 65535) {
    throw new BaselineError(BASELINE_ERROR_CODES.badConfig, `${what} "${text}" has port ${match[2]}, outside 0..65535`);
  }
  return { host: match[1]!, port };
}

/** A comma-separated list of endpoints, e.g. the value of --peers. */
export function parseEndpointList(text: string, what = 'peer list'): Endpoint[] {
  const parts = text.split(',').filter((part) => part.trim() !== '');
  if (parts.length === 0) throw new BaselineError(BASELINE_ERROR_CODES.badConfig, `${what} is empty`);
  return parts.map((part, i) => parseEndpoint(part, `${what} entry ${i}`));
}

export function formatEndpoint(endpoint: Endpoint): string {
  return endpoint.host.includes(':') ? `[${endpoint.host}]:${endpoint.port}` : `${endpoint.host}:${endpoint.port}`;
}
