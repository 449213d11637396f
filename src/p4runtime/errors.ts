/**
 * Errors of P4Runtime calls. `P4RuntimeError` is any failed RPC (gRPC code,
 * its name and the server's details); `P4WriteError` is a Write in which some
 * updates failed, each failure decoded from the `grpc-status-details-bin`
 * trailer (a google.rpc.Status holding one p4.v1.Error per update, in order,
 * with canonical_code 0 for the updates that succeeded) and tied back to the
 * Update object the caller passed. A trailer that cannot be decoded, or does
 * not have one error per update, leaves a plain P4RuntimeError. `P4ReadError`
 * does the same for the entities of a failed Read.
 */
import * as grpc from '@grpc/grpc-js';
import { P4inaError } from '../errors/p4ina-error.js';
import { decodeMessage, unpackAny } from '../proto/codec.js';
import type * as p4r from '../proto/p4r.js';
import type * as rpc from '../proto/rpc.js';
import type { P4Entity } from './entities/entity.js';
import { describeUpdate, type Update } from './update.js';

/** The name of a gRPC / google.rpc code ("NOT_FOUND"), or CODE_<n> for codes outside the table. */
export function grpcCodeName(code: number): string {
  return (grpc.status as Record<number, string | undefined>)[code] ?? `CODE_${code}`;
}

const HINTS: Partial<Record<number, string>> = {
  [grpc.status.UNAVAILABLE]: 'is the switch running and listening on that address?',
  [grpc.status.DEADLINE_EXCEEDED]: 'the switch did not answer in time (see rpcTimeoutMs)',
};

export class P4RuntimeError extends P4inaError {
  /** The gRPC status code (google.rpc.Code). */
  readonly grpcCode: number;
  /** Its name, e.g. "PERMISSION_DENIED". */
  readonly grpcCodeName: string;
  /** The server's status message. */
  readonly details: string;
  /** Which call failed: "Write", "Read", "StreamChannel", … */
  readonly rpc: string;

  constructor(rpcName: string, grpcCode: number, details: string, options: { cause?: unknown; code?: string; message?: string } = {}) {
    const name = grpcCodeName(grpcCode);
    const hint = HINTS[grpcCode];
    super(options.code ?? `P4RUNTIME_${name}`, options.message ?? `${rpcName} failed with ${name}: ${details || '(no details)'}${hint ? ` (${hint})` : ''}`, {
      cause: options.cause,
    });
    this.grpcCode = grpcCode;
    this.grpcCodeName = name;
    this.details = details;
    this.rpc = rpcName;
  }
}

/** One failed update of a Write. */
export interface P4WriteFailure {
  /** Position of the update in the list passed to write(). */
  readonly index: number;
  /** The update the caller passed. */
  readonly update: Update;
  /** canonical_code of the p4.v1.Error (a google.rpc.Code). */
  readonly code: number;
  readonly codeName: string;
  readonly message: string;
  /** Who defines `targetCode`, e.g. "ALL-sswitch-p4org" for BMv2. */
  readonly space: string;
  /** The target-specific code of the p4.v1.Error. */
  readonly targetCode: number;
}

export class P4WriteError extends P4RuntimeError {
  constructor(
    readonly failures: readonly P4WriteFailure[],
    /** How many updates the write had. */
    readonly total: number,
    options: { cause?: unknown } = {},
  ) {
    // In an atomic batch every update but the culprit is ABORTED: name the culprit first.
    const culpritsFirst = [...failures.filter((f) => f.code !== grpc.status.ABORTED), ...failures.filter((f) => f.code === grpc.status.ABORTED)];
    const shown = culpritsFirst.slice(0, 3).map((f) => `#${f.index} ${describeUpdate(f.update)}: ${f.codeName}: ${f.message}`);
    const more = failures.length > shown.length ? `; … and ${failures.length - shown.length} more` : '';
    const message = `Write failed for ${failures.length} of ${total} update${total === 1 ? '' : 's'}: ${shown.join('; ')}${more}`;
    super('Write', grpc.status.UNKNOWN, message, { ...options, code: 'P4RUNTIME_WRITE_FAILED', message });
  }
}

/** One entity of a Read that the switch refused, tied to the entity the caller asked for. */
export interface P4ReadFailure {
  /** Index of the entity in the caller's query. */
  readonly index: number;
  readonly entity: P4Entity;
  readonly code: number;
  readonly codeName: string;
  readonly message: string;
}

export class P4ReadError extends P4RuntimeError {
  constructor(
    readonly failures: readonly P4ReadFailure[],
    options: { cause?: unknown } = {},
  ) {
    const shown = failures.slice(0, 3).map((f) => `#${f.index} ${f.entity.describe()}: ${f.codeName}: ${f.message}`);
    const more = failures.length > shown.length ? `; … and ${failures.length - shown.length} more` : '';
    const message = `Read failed for ${shown.join('; ')}${more}`;
    super('Read', grpc.status.UNKNOWN, message, { ...options, code: 'P4RUNTIME_READ_FAILED', message });
  }
}

/** A StreamError the switch sent on the stream channel (a PacketOut or digest ack it refused). */
export class P4StreamError extends P4RuntimeError {
  constructor(readonly streamError: p4r.StreamError__Output) {
    super('StreamChannel', streamError.canonical_code, streamError.message, { code: 'P4RUNTIME_STREAM_ERROR' });
  }
}

/** True for a grpc-js call error (a status with code, details and metadata). */
export function isServiceError(err: unknown): err is grpc.ServiceError {
  return err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === 'number' && 'details' in err;
}

/** Any error of a call as a P4RuntimeError (codes of non-gRPC errors become UNKNOWN). */
export function toP4RuntimeError(rpcName: string, err: unknown): P4RuntimeError {
  if (err instanceof P4RuntimeError) return err;
  if (isServiceError(err)) return new P4RuntimeError(rpcName, err.code, err.details, { cause: err });
  return new P4RuntimeError(rpcName, grpc.status.UNKNOWN, err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * The per-update errors of a `grpc-status-details-bin` trailer, or undefined
 * when the bytes are not a google.rpc.Status of p4.v1.Errors.
 */
export function decodeStatusDetails(bytes: Uint8Array): p4r.Error__Output[] | undefined {
  try {
    const status = decodeMessage<rpc.Status__Output>('google.rpc.Status', bytes);
    const errors: p4r.Error__Output[] = [];
    for (const any of status.details) {
      const error = unpackAny<p4r.Error__Output>('p4.v1.Error', any);
      if (!error) return undefined;
      errors.push(error);
    }
    return errors;
  } catch {
    return undefined;
  }
}

/**
 * The error of a failed Write of `updates` (the updates of this request,
 * which start at `offset` in the caller's list): a P4WriteError when the
 * trailer names the failing updates, else a plain P4RuntimeError.
 */
export function writeErrorFrom(err: unknown, updates: readonly Update[], offset = 0): P4RuntimeError {
  if (!isServiceError(err)) return toP4RuntimeError('Write', err);
  const raw = err.metadata?.get('grpc-status-details-bin')[0];
  const errors = raw instanceof Buffer ? decodeStatusDetails(raw) : undefined;
  if (!errors || errors.length !== updates.length) return toP4RuntimeError('Write', err);
  const failures = errors.flatMap((e, i): P4WriteFailure[] =>
    e.canonical_code === grpc.status.OK
      ? []
      : [{ index: offset + i, update: updates[i]!, code: e.canonical_code, codeName: grpcCodeName(e.canonical_code), message: e.message, space: e.space, targetCode: e.code }],
  );
  return failures.length ? new P4WriteError(failures, updates.length, { cause: err }) : toP4RuntimeError('Write', err);
}

/**
 * The error of a failed Read of `entities`: a P4ReadError when the trailer
 * holds one p4.v1.Error per entity (as p4ina's switch sends), else a plain
 * P4RuntimeError with the RPC's code.
 */
export function readErrorFrom(err: unknown, entities: readonly P4Entity[]): P4RuntimeError {
  if (!isServiceError(err)) return toP4RuntimeError('Read', err);
  const raw = err.metadata?.get('grpc-status-details-bin')[0];
  const errors = raw instanceof Buffer ? decodeStatusDetails(raw) : undefined;
  if (!errors || errors.length !== entities.length) return toP4RuntimeError('Read', err);
  const failures = errors.flatMap((e, i): P4ReadFailure[] =>
    e.canonical_code === grpc.status.OK ? [] : [{ index: i, entity: entities[i]!, code: e.canonical_code, codeName: grpcCodeName(e.canonical_code), message: e.message }],
  );
  return failures.length ? new P4ReadError(failures, { cause: err }) : toP4RuntimeError('Read', err);
}

function hasCode(err: unknown, code: grpc.status): err is P4RuntimeError {
  return err instanceof P4RuntimeError && err.grpcCode === code;
}

/** Another stream holds this election id (INVALID_ARGUMENT on arbitration; BMv2, Stratum and p4ina wordings). */
export function isElectionIdUsed(err: unknown): boolean {
  return hasCode(err, grpc.status.INVALID_ARGUMENT) && /election.?id\b.*\b(used|exists|in use|held|taken)\b|duplicate election.?id/i.test(err.details);
}

/** The device has no forwarding pipeline yet (FAILED_PRECONDITION naming the pipeline or config). */
export function isPipelineMissing(err: unknown): boolean {
  return hasCode(err, grpc.status.FAILED_PRECONDITION) && /pipeline|p4info|config/i.test(err.details);
}

/** This client is not the primary of its (device, role) (PERMISSION_DENIED naming primary/master). */
export function isNotPrimary(err: unknown): boolean {
  return hasCode(err, grpc.status.PERMISSION_DENIED) && /primary|master/i.test(err.details);
}

/** Every failed update of a Write failed with NOT_FOUND (e.g. deleting entries that are gone). */
export function isNotFoundOnly(err: unknown): boolean {
  return err instanceof P4WriteError && err.failures.every((f) => f.code === grpc.status.NOT_FOUND);
}
