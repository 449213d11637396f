/**
 * Shared pieces of the in-process runners (local ring, local parameter
 * server): run one call per rank, always close everything, and when ranks
 * fail, report the failure that caused the others.
 */
import type { AllReduce, AllReduceResult, AllReduceStats } from '../allreduce.js';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';

export interface LocalRunResult<S extends AllReduceStats> {
  /** Each rank's result, by rank. */
  readonly results: Float32Array[];
  /** Each rank's stats, by rank. */
  readonly stats: S[];
}

/** Codes that are only echoes of another rank's failure. */
const ECHOES: ReadonlySet<string> = new Set([BASELINE_ERROR_CODES.peerClosed, BASELINE_ERROR_CODES.peerFailed, BASELINE_ERROR_CODES.unusable]);

/** The most telling of several failures: the first that is not merely an echo of another rank's. */
export function rootCause(errors: readonly unknown[]): unknown {
  return errors.find((err) => !(err instanceof BaselineError && ECHOES.has(err.code))) ?? errors[0];
}

/** Runs `allreduce` on every instance at once with its tensor, then closes them all, whatever happened. */
export async function allreduceEverywhere<S extends AllReduceStats>(
  instances: readonly AllReduce<S>[],
  tensors: readonly Float32Array[],
  signal: AbortSignal | undefined,
): Promise<LocalRunResult<S>> {
  let outcomes: PromiseSettledResult<AllReduceResult<S>>[];
  try {
    outcomes = await Promise.allSettled(instances.map((instance, rank) => instance.allreduce(tensors[rank]!, { signal })));
  } finally {
    await Promise.all(instances.map((instance) => instance.close()));
  }
  const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (errors.length > 0) throw rootCause(errors);
  const values = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<AllReduceResult<S>>).value);
  return { results: values.map((v) => v.result), stats: values.map((v) => v.stats) };
}

/** Settles every promise, then throws the root cause if any rejected; otherwise returns the values. */
export async function allOrRootCause<T>(promises: readonly Promise<T>[], cleanup: (fulfilled: T[]) => Promise<void>): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const fulfilled = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (errors.length > 0) {
    await cleanup(fulfilled);
    throw rootCause(errors);
  }
  return fulfilled;
}
