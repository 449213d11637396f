/**
 * How the server turns statuses into gRPC failures. A batch (Write, or a Read
 * of several entities) in which anything failed ends with UNKNOWN and a
 * `grpc-status-details-bin` trailer: a google.rpc.Status holding one p4.v1.Error
 * per item, in request order, with canonical_code 0 for the items that
 * succeeded (spec §"Error Reporting Messages"). An RPC-wide failure carries
 * just its own code and message.
 */
import { Metadata, status as Code } from '@grpc/grpc-js';
import { encodeMessage, packAny } from '../../proto/codec.js';
import type * as p4r from '../../proto/p4r.js';
import { pluralNoun } from '../../util/plural-noun.js';
import { isOk, type Status } from '../state/status.js';

/** The error space we put in every p4.v1.Error and StreamError. */
export const ERROR_SPACE = 'p4ina';

/** What a grpc-js handler passes to its callback or emits as 'error'. */
export interface GrpcFailure {
  code: number;
  details: string;
  metadata?: Metadata;
}

export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** An RPC-wide failure. */
export function failure(status: Status): GrpcFailure {
  return { code: status.code, details: status.message || Code[status.code] || `code ${status.code}` };
}

/** A failure with the code and a message, without a Status at hand. */
export function fail(code: number, message: string): GrpcFailure {
  return { code, details: message };
}

/**
 * Budget for the encoded google.rpc.Status in the trailer. grpc-js clients (and
 * Node's HTTP/2) accept at most 64 KiB of headers and cannot be told to take
 * more; a bigger trailer makes their call hang until its deadline. 40 KiB of
 * binary is about 54 KiB once base64-encoded, which leaves room for the rest.
 */
export const DEFAULT_MAX_ERROR_DETAILS_BYTES = 40 * 1024;

/** Longest per-item or summary message we put on the wire. */
const MAX_MESSAGE_CHARS = 500;

const clip = (text: string): string => (text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text);

/**
 * Which failure explains the batch: the first that is not ABORTED. In an atomic
 * batch every other update is ABORTED ("not applied because update i failed"),
 * so the first failure is usually not the reason; when all are ABORTED, the first.
 */
function causeIndex(statuses: readonly Status[]): number {
  let first = -1;
  for (let i = 0; i < statuses.length; i++) {
    const s = statuses[i]!;
    if (isOk(s)) continue;
    if (s.code !== Code.ABORTED) return i;
    if (first < 0) first = i;
  }
  return first;
}

function encodeDetails(statuses: readonly Status[], summary: string, messages: 'all' | 'cause', cause: number): Buffer {
  const errors: p4r.Error[] = statuses.map((s, i) => {
    if (isOk(s)) return { canonical_code: Code.OK };
    const keep = messages === 'all' || i === cause;
    return { canonical_code: s.code, space: ERROR_SPACE, ...(keep ? { message: clip(s.message) } : {}) };
  });
  return Buffer.from(
    encodeMessage('google.rpc.Status', { code: Code.UNKNOWN, message: summary, details: errors.map((e) => packAny('p4.v1.Error', e)) }),
  );
}

/**
 * The UNKNOWN failure for a batch where some item failed. `noun` names the
 * items in the summary message ("update", "entity"), which quotes the failure
 * that explains the batch (the first one, or in an atomic batch the one that
 * made the others ABORTED). When the details do not fit `maxDetailsBytes`,
 * every message but that one is left out; when even that does not fit (about
 * a thousand items), the trailer is left out and the message says to send
 * smaller batches.
 */
export function batchFailure(statuses: readonly Status[], noun: string, maxDetailsBytes = DEFAULT_MAX_ERROR_DETAILS_BYTES): GrpcFailure {
  const failed = statuses.filter((s) => !isOk(s)).length;
  const firstIndex = statuses.findIndex((s) => !isOk(s));
  const cause = causeIndex(statuses);
  const explained = statuses[cause];
  const summary = clip(
    `${failed} of ${statuses.length} ${statuses.length === 1 ? noun : pluralNoun(noun)} failed` +
      (explained ? `; ${cause === firstIndex ? 'first' : 'cause'}: ${noun} ${cause}: ${Code[explained.code] ?? explained.code}: ${explained.message}` : ''),
  );
  for (const messages of ['all', 'cause'] as const) {
    const details = encodeDetails(statuses, summary, messages, cause);
    if (details.length > maxDetailsBytes) continue;
    const metadata = new Metadata();
    metadata.set(STATUS_DETAILS_KEY, details);
    return { code: Code.UNKNOWN, details: summary, metadata };
  }
  return {
    code: Code.UNKNOWN,
    details: clip(`${summary} (per-${noun} errors left out: they exceed the ${maxDetailsBytes}-byte metadata budget; send smaller batches)`),
  };
}
