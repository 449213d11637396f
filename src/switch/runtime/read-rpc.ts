/**
 * The Read RPC: each requested entity (wildcards included) is read from the
 * device state, then the results are streamed in ReadResponses of at most
 * `chunkSize` entities, waiting for the client whenever gRPC's buffer is full,
 * so a large table never becomes one giant message or one giant buffer.
 *
 * Errors use the Write scheme: if any entity of the request cannot be read,
 * nothing is streamed and the RPC fails with UNKNOWN and one p4.v1.Error per
 * entity in `grpc-status-details-bin`. An unknown device (NOT_FOUND) and a
 * switch without a pipeline (FAILED_PRECONDITION, found by reading nothing)
 * fail the whole RPC.
 */
import { once } from 'node:events';
import type { ServerWritableStream } from '@grpc/grpc-js';
import type * as p4r from '../../proto/p4r.js';
import { isOk, OK, type Status } from '../state/status.js';
import { batchFailure, failure, type GrpcFailure } from './grpc-failure.js';
import { checkDevice, type RpcContext } from './unary-rpcs.js';

export type ReadCall = ServerWritableStream<p4r.ReadRequest__Output, p4r.ReadResponse>;

function isIterable(value: Status | Iterable<p4r.Entity>): value is Iterable<p4r.Entity> {
  return typeof (value as Partial<Iterable<p4r.Entity>>)[Symbol.iterator] === 'function';
}

/** What to stream, or why not. */
export function planRead(ctx: RpcContext, request: p4r.ReadRequest__Output): { results: Iterable<p4r.Entity>[] } | { failure: GrpcFailure } {
  const wrongDevice = checkDevice(ctx, request.device_id);
  if (wrongDevice) return { failure: wrongDevice };
  // Reading no entity fails only for reasons that concern every entity (no pipeline).
  const probe = ctx.state.read([]);
  if (!isIterable(probe) && !isOk(probe)) return { failure: failure(probe) };
  const results: Iterable<p4r.Entity>[] = [];
  const statuses: Status[] = [];
  for (const entity of request.entities) {
    const result = ctx.state.read([entity]);
    if (isIterable(result)) {
      results.push(result);
      statuses.push(OK);
    } else {
      results.push([]);
      statuses.push(result);
    }
  }
  if (!statuses.every(isOk)) return { failure: batchFailure(statuses, 'entity', ctx.maxErrorDetailsBytes) };
  return { results };
}

/** Resolves when the call can take more, or is over. */
async function writable(call: ReadCall): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race([once(call, 'drain', { signal: ac.signal }), once(call, 'cancelled', { signal: ac.signal }), once(call, 'close', { signal: ac.signal })]);
  } catch {
    // 'error' rejects once(); the call is over either way.
  } finally {
    ac.abort();
  }
}

/** Streams the planned results in chunks; ends the call. */
export async function streamRead(call: ReadCall, results: readonly Iterable<p4r.Entity>[], chunkSize: number): Promise<void> {
  let chunk: p4r.Entity[] = [];
  let sent = 0;
  const flush = async (): Promise<boolean> => {
    if (call.cancelled) return false;
    const more = call.write({ entities: chunk });
    sent++;
    chunk = [];
    if (!more) await writable(call);
    return !call.cancelled;
  };
  for (const result of results) {
    for (const entity of result) {
      chunk.push(entity);
      if (chunk.length >= chunkSize && !(await flush())) return;
    }
  }
  // Always at least one response, as PI does: some clients wait for one.
  if ((chunk.length > 0 || sent === 0) && !(await flush())) return;
  call.end();
}
