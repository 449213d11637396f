/**
 * Reading untrusted JSON objects field by field. Each reader reports a wrong
 * type, a missing field, a value out of range or an unknown key to a
 * ProblemLog with the field's JSON path, and returns undefined for that
 * field, so that one pass over a file finds every problem in it. Callers
 * decide which codes to use (topology files and job specs have their own).
 */
import type { ControllerErrorCode, ProblemLog } from './errors.js';

export interface ReaderCodes {
  readonly wrongType: ControllerErrorCode;
  readonly missing: ControllerErrorCode;
  readonly unknownField: ControllerErrorCode;
  readonly badValue: ControllerErrorCode;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `$.hosts.h1`, `$.links[2]`, `$.switches["leaf-1"]`. */
export function jsonPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a JSON value is, in words, for "expected X, found Y" messages. */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

/** The closest known key to a misspelt one, if any is close (edit distance ≤ 2, or a shortened key such as "device"). */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const [k, c] = [key.toLowerCase(), candidate.toLowerCase()];
    const d = k.length >= 3 && c.startsWith(k) ? 1 : editDistance(k, c);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  // Names are short (field names), so the quadratic table is cheap.
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Field-by-field access to one JSON object. */
export class ObjectReader {
  constructor(
    readonly value: Record<string, unknown>,
    readonly path: string,
    readonly log: ProblemLog,
    readonly codes: ReaderCodes,
  ) {}

  /** Reads `value` as an object at `path`, or reports it; undefined when it is not one. */
  static of(value: unknown, path: string, log: ProblemLog, codes: ReaderCodes, what: string): ObjectReader | undefined {
    if (!isPlainObject(value)) {
      log.add(codes.wrongType, path, `${what} must be a JSON object, not ${describeJson(value)}`);
      return undefined;
    }
    return new ObjectReader(value, path, log, codes);
  }

  has(key: string): boolean {
    return this.value[key] !== undefined;
  }

  at(key: string): string {
    return jsonPath(this.path, key);
  }

  /** Reports a missing required field; returns false when it is missing. */
  require(key: string, hint: string): boolean {
    if (this.has(key)) return true;
    this.log.add(this.codes.missing, this.at(key), `"${key}" is missing; ${hint}`);
    return false;
  }

  private wrongType(key: string, expected: string): undefined {
    this.log.add(this.codes.wrongType, this.at(key), `"${key}" must be ${expected}, not ${describeJson(this.value[key])}`);
    return undefined;
  }

  string(key: string): string | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') return this.wrongType(key, 'a string');
    return v;
  }

  /** A non-empty string (after trimming). */
  text(key: string): string | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    if (v.trim() === '') {
      this.log.add(this.codes.badValue, this.at(key), `"${key}" must not be empty`);
      return undefined;
    }
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') return this.wrongType(key, 'true or false');
    return v;
  }

  /** A finite number in [min, max]. */
  number(key: string, min: number, max: number, unit = ''): number | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) return this.wrongType(key, 'a number');
    if (v < min || v > max) {
      this.log.add(this.codes.badValue, this.at(key), `"${key}" must be from ${min} to ${max}${unit}, not ${v}`);
      return undefined;
    }
    return v;
  }

  /** An integer in [min, max]. */
  integer(key: string, min: number, max: number, why = ''): number | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.wrongType(key, 'an integer');
    if (v < min || v > max) {
      this.log.add(this.codes.badValue, this.at(key), `"${key}" must be an integer from ${min} to ${max}${why}, not ${v}`);
      return undefined;
    }
    return v;
  }

  /** One of the allowed words. */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) {
      this.log.add(this.codes.badValue, this.at(key), `"${key}" must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, not "${v}"`);
      return undefined;
    }
    return v as T;
  }

  array(key: string): unknown[] | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.wrongType(key, 'an array');
    return v;
  }

  object(key: string, what: string): ObjectReader | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    return ObjectReader.of(v, this.at(key), this.log, this.codes, what);
  }

  /** Reports every key not in `known`; keys starting with `_` are comments and always allowed. */
  rejectUnknown(known: readonly string[], what: string): void {
    for (const key of Object.keys(this.value)) {
      if (key.startsWith('_') || known.includes(key)) continue;
      const guess = closestKey(key, known);
      const hint = guess ? `did you mean "${guess}"?` : `${what} may have ${known.map((k) => `"${k}"`).join(', ')}`;
      this.log.add(this.codes.unknownField, this.at(key), `unknown field "${key}": ${hint} (prefix a key with "_" to keep it as a comment)`);
    }
  }
}
