// How a refusal looks from the outside, reduced to what the tests compare: the
// failed updates of a P4WriteError as [index, code name], the code of a
// P4RuntimeError, the per-item codes of a raw batch.
import { P4RuntimeError, P4WriteError } from '../../../src/p4runtime/index.js';
import { RawRpcError } from './raw-p4runtime.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The P4WriteError a client write rejects with. */
export async function writeError(promise: Promise<unknown>): Promise<P4WriteError> {
  const err = await rejection(promise);
  if (!(err instanceof P4WriteError)) throw new Error(`expected a P4WriteError, got ${String(err)}`, { cause: err });
  return err;
}

/** [index in the caller's list, code name] of every failed update. */
export async function failedUpdates(promise: Promise<unknown>): Promise<[number, string][]> {
  return (await writeError(promise)).failures.map((f) => [f.index, f.codeName]);
}

/** The P4RuntimeError (not a P4WriteError) a client call rejects with. */
export async function rpcError(promise: Promise<unknown>): Promise<P4RuntimeError> {
  const err = await rejection(promise);
  if (!(err instanceof P4RuntimeError) || err instanceof P4WriteError) throw new Error(`expected a P4RuntimeError, got ${String(err)}`, { cause: err });
  return err;
}

/** The grpc code name a client call rejects with. */
export async function rpcCode(promise: Promise<unknown>): Promise<string> {
  return (await rpcError(promise)).grpcCodeName;
}

/** The RawRpcError a bare-stub call rejects with. */
export async function rawError(promise: Promise<unknown>): Promise<RawRpcError> {
  const err = await rejection(promise);
  if (!(err instanceof RawRpcError)) throw new Error(`expected a RawRpcError, got ${String(err)}`, { cause: err });
  return err;
}

/** The per-item code names of a batch the switch refused (UNKNOWN with grpc-status-details-bin). */
export async function rawItemCodes(promise: Promise<unknown>): Promise<string[]> {
  const err = await rawError(promise);
  if (err.codeName !== 'UNKNOWN' || !err.itemCodes) throw new Error(`expected per-item errors, got ${err.message}`);
  return err.itemCodes;
}

/** The code of a client-side refusal (a P4inaError such as ENTITY_CONST_TABLE, thrown before anything is sent). */
export async function clientRefusal(promise: Promise<unknown>): Promise<string> {
  const err = await rejection(promise);
  if (err instanceof P4RuntimeError) throw new Error(`expected a client-side refusal, got a switch answer: ${err.message}`);
  return (err as { code?: string }).code ?? String(err);
}
