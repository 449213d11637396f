/**
 * The Read RPC. Every requested entity is checked first (a malformed one
 * fails the read before anything is sent); then the entities are drawn from
 * the device state one by one and streamed in ReadResponses of at most
 * `chunkEntities` entities. Nothing builds the whole answer: between chunks
 * the reader waits for gRPC to take what it has (the 'drain' of a full
 * buffer) and yields to the event loop, so that packets, other RPCs and other
 * reads proceed while a large read is in progress, and a read's memory is
 * one chunk plus gRPC's bounded buffer whatever it asks for.
 *
 * Errors use the Write scheme: if any entity of the request cannot be read,
 * nothing is streamed and the RPC fails with UNKNOWN and one p4.v1.Error per
 * entity in `grpc-status-details-bin`. An unknown device (NOT_FOUND), a
 * switch without a pipeline (FAILED_PRECONDITION) and the read limits
 * (RESOURCE_EXHAUSTED) fail the whole RPC. A read during which the pipeline
 * is replaced ends with ABORTED: what it would return next belongs to a
 * program that is gone.
 */
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { status as Code, type ServerWritableStream } from '@grpc/grpc-js';
import type * as p4r from '../../proto/p4r.js';
import type { InstalledPipeline } from '../state/device-state.js';
import { batchFailure, fail, failure, type GrpcFailure } from './grpc-failure.js';
import { checkDevice, type RpcContext } from './unary-rpcs.js';

export type ReadCall = ServerWritableStream<p4r.ReadRequest__Output, p4r.ReadResponse>;

export interface ReadLimits {
  /** Entities (selectors, wildcards included) one ReadRequest may name. */
  readonly maxReadEntities: number;
  /** Entities per ReadResponse. */
  readonly readChunkEntities: number;
}

export interface ReadPlan {
  readonly results: Iterable<p4r.Entity>[];
  readonly pipeline: InstalledPipeline;
}

/** What to stream, or why not. */
export function planRead(ctx: RpcContext, request: p4r.ReadRequest__Output, limits: ReadLimits): ReadPlan | { failure: GrpcFailure } {
  const wrongDevice = checkDevice(ctx, request.device_id);
  if (wrongDevice) return { failure: wrongDevice };
  if (request.entities.length > limits.maxReadEntities) {
    return {
      failure: fail(
        Code.RESOURCE_EXHAUSTED,
        `the read names ${request.entities.length} entities; this switch takes at most ${limits.maxReadEntities} per ReadRequest: ` +
          'split it into several reads, or use a wildcard (e.g. a register without index reads every cell)',
      ),
    };
  }
  const plan = ctx.state.planRead(request.entities);
  if ('status' in plan) return { failure: failure(plan.status) };
  if ('statuses' in plan) return { failure: batchFailure(plan.statuses, 'entity', ctx.maxErrorDetailsBytes) };
  return plan;
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

/** How a streamed read ended. */
export type ReadOutcome = 'done' | 'cancelled' | 'aborted';

/**
 * Streams the planned results in chunks and ends the call. `current()` tells
 * the pipeline reads address now: when it is no longer the plan's, the read
 * ends with ABORTED.
 */
export async function streamRead(call: ReadCall, plan: ReadPlan, chunkEntities: number, current: () => InstalledPipeline | undefined): Promise<ReadOutcome> {
  let chunk: p4r.Entity[] = [];
  let sent = 0;
  const over = (): boolean => call.cancelled || call.destroyed || call.writableEnded;
  const flush = async (): Promise<boolean> => {
    if (over()) return false;
    const more = call.write({ entities: chunk });
    sent++;
    chunk = [];
    // Let the data plane and other calls run between chunks; wait for the client when gRPC's buffer is full.
    if (more) await nextTurn();
    else await writable(call);
    return !over();
  };
  for (const result of plan.results) {
    for (const entity of result) {
      chunk.push(entity);
      if (chunk.length < chunkEntities) continue;
      if (!(await flush())) return 'cancelled';
      if (current() !== plan.pipeline) {
        call.emit('error', fail(Code.ABORTED, 'the forwarding pipeline was replaced during the read; read again'));
        return 'aborted';
      }
    }
  }
  // Always at least one response, as PI does: some clients wait for one.
  if ((chunk.length > 0 || sent === 0) && !(await flush())) return 'cancelled';
  call.end();
  return 'done';
}
