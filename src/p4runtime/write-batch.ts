/**
 * Writes of any size. With CONTINUE_ON_ERROR (the default) a long list of
 * updates is sent as several Write requests of at most `maxPerRequest`
 * updates, in order, so that each request and the per-update error trailer
 * of its answer stay within gRPC's limits; the failures of every request are
 * gathered into one P4WriteError whose indexes refer to the caller's list.
 * The atomic modes (ROLLBACK_ON_ERROR, DATAPLANE_ATOMIC) promise all or
 * nothing, so their updates always go in a single request.
 */
import type * as p4r from '../proto/p4r.js';
import { isServiceError, P4WriteError, writeErrorFrom, type P4WriteFailure } from './errors.js';
import type { Update } from './update.js';

export type Atomicity = 'CONTINUE_ON_ERROR' | 'ROLLBACK_ON_ERROR' | 'DATAPLANE_ATOMIC';

/** Sends one Write request of these updates; rejects with the raw gRPC error. */
export type SendWrite = (updates: p4r.Update[], atomicity: Atomicity) => Promise<void>;

/**
 * Sends `encoded` (the messages of `updates`, same order) in batches. Throws
 * P4WriteError listing every failed update, or the P4RuntimeError of the first
 * request that failed as a whole (later batches are then not sent, and the
 * failures of earlier batches are not reported).
 */
export async function writeInBatches(
  updates: readonly Update[],
  encoded: readonly p4r.Update[],
  atomicity: Atomicity,
  maxPerRequest: number,
  send: SendWrite,
): Promise<void> {
  if (!Number.isInteger(maxPerRequest) || maxPerRequest < 1) throw new RangeError(`maxUpdatesPerWrite must be an integer >= 1, got ${maxPerRequest}`);
  const step = atomicity === 'CONTINUE_ON_ERROR' ? maxPerRequest : Math.max(1, encoded.length);
  const failures: P4WriteFailure[] = [];
  for (let start = 0; start < encoded.length; start += step) {
    try {
      await send(encoded.slice(start, start + step), atomicity);
    } catch (err) {
      if (!isServiceError(err)) throw err; // not an answer from the switch (e.g. the client was closed)
      const error = writeErrorFrom(err, updates.slice(start, start + step), start);
      if (!(error instanceof P4WriteError)) throw error;
      failures.push(...error.failures);
    }
  }
  if (failures.length) throw new P4WriteError(failures, updates.length);
}
