/**
 * Reading the ATP agents' command lines: `node:util` parseArgs, then every
 * value checked here, so that any problem is an ATP_BAD_CONFIG error that
 * names the option and what it takes.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ATP_ERROR_CODES, AtpError } from './atp-error.js';

export type Values = Record<string, string | boolean | string[] | undefined>;

export function bad(message: string): AtpError {
  return new AtpError(ATP_ERROR_CODES.badConfig, message);
}

/** parseArgs, strict, no positionals; its errors become ATP_BAD_CONFIG. */
export function parseValues(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): Values {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Values;
  } catch (err) {
    throw new AtpError(ATP_ERROR_CODES.badConfig, err instanceof Error ? err.message : String(err), { cause: err });
  }
}

export function text(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v.trim() : undefined;
}

export function required(values: Values, name: string, why = ''): string {
  const v = text(values, name);
  if (v === undefined || v === '') throw bad(`--${name} is required${why ? ` ${why}` : ''}`);
  return v;
}

/** An integer option in min..max; `fallback` when absent (absent and no fallback: required). */
export function integer(values: Values, name: string, min: number, max: number, fallback?: number): number {
  const raw = text(values, name);
  if (raw === undefined) {
    if (fallback === undefined) throw bad(`--${name} is required`);
    return fallback;
  }
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw bad(`--${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return n;
}

/** An optional integer option: undefined when absent. */
export function optionalInteger(values: Values, name: string, min: number, max: number): number | undefined {
  return text(values, name) === undefined ? undefined : integer(values, name, min, max);
}

/** A positive finite number. */
export function positiveNumber(values: Values, name: string, fallback: number): number {
  const raw = text(values, name);
  if (raw === undefined) return fallback;
  const n = /^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0 && Number.isFinite(n))) throw bad(`--${name} must be a positive number, got "${raw}"`);
  return n;
}

/** "ADDR:PORT" or "[IPv6]:PORT" with an IP literal; "ADDR" alone takes `defaultPort` when given. */
export function endpoint(raw: string, name: string, options: { allowZeroPort?: boolean; defaultPort?: number } = {}): { address: string; port: number } {
  const min = options.allowZeroPort ? 0 : 1;
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(raw);
  const bare = raw.replace(/^\[(.*)\]$/, '$1');
  const address = m ? m[1]!.replace(/^\[(.*)\]$/, '$1') : bare;
  const port = m ? Number(m[2]) : (options.defaultPort ?? NaN);
  if (!(isIPv4(address) || isIPv6(address)) || !(port >= min && port <= 65535)) {
    const form = options.defaultPort === undefined ? 'ADDRESS:PORT' : `ADDRESS[:PORT] (default port ${options.defaultPort})`;
    throw bad(`--${name} must be ${form} with an IP literal and a port in ${min}..65535, got "${raw}"`);
  }
  return { address, port };
}

/** A seed: an integer when it reads as one, else the text. */
export function seed(values: Values): number | string {
  const raw = text(values, 'seed') ?? '1';
  if (raw === '') throw bad('--seed must not be empty');
  return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}
