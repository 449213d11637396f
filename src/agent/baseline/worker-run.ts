/**
 * What a baseline worker process does once connected: reduce its seeded
 * tensor `iterations` times, and report the timings and a digest of the
 * result (the same digest on every rank shows the results are identical
 * without shipping them around). With `check`, it rebuilds every rank's
 * tensor from the seed and measures the error against the float64 reference.
 */
import { createHash } from 'node:crypto';
import type { AllReduce, AllReduceStats } from '../allreduce.js';
import { compareWithReference, float64Reference, parameterServerErrorBound, ringErrorBound } from './accuracy.js';
import { workerTensor } from './sparse-tensor.js';
import type { WorkerArgs } from './worker-args.js';

export interface WorkerReport<S extends AllReduceStats = AllReduceStats> {
  readonly algorithm: 'ring' | 'parameter-server' | 'hierarchical';
  readonly rank: number;
  readonly worldSize: number;
  readonly jobId: string;
  readonly length: number;
  readonly iterations: readonly S[];
  /** SHA-256 of the last result's bytes. */
  readonly resultSha256: string;
  /** With --check: the largest |result − reference| and how many elements broke the documented bound. */
  readonly check?: { readonly maxAbsError: number; readonly boundViolations: number };
}

export async function runWorkerIterations<S extends AllReduceStats>(
  algorithm: WorkerReport['algorithm'],
  instance: AllReduce<S>,
  args: WorkerArgs,
  signal: AbortSignal | undefined,
): Promise<WorkerReport<S>> {
  const tensor = workerTensor(args.length, args.seed, args.rank, args.worldSize, args.sparsity);
  const iterations: S[] = [];
  let result: Float32Array = new Float32Array(0);
  for (let i = 0; i < args.iterations; i++) {
    const outcome = await instance.allreduce(tensor, { signal });
    iterations.push(outcome.stats);
    result = outcome.result;
  }
  const resultSha256 = createHash('sha256').update(new Uint8Array(result.buffer, result.byteOffset, result.byteLength)).digest('hex');
  const report: WorkerReport<S> = { algorithm, rank: args.rank, worldSize: args.worldSize, jobId: args.jobId, length: args.length, iterations, resultSha256 };
  if (!args.check) return report;
  const tensors = Array.from({ length: args.worldSize }, (_, rank) => (rank === args.rank ? tensor : workerTensor(args.length, args.seed, rank, args.worldSize, args.sparsity)));
  const reference = float64Reference(tensors);
  // The ring's bound is that of any fixed float32 summation order of n terms, so it is hierarchical AllReduce's too.
  const bound = algorithm === 'parameter-server' ? (i: number) => parameterServerErrorBound(reference.sum[i]) : (i: number) => ringErrorBound(args.worldSize, reference.absSum[i]);
  const comparison = compareWithReference(result, reference, bound);
  return { ...report, check: { maxAbsError: comparison.maxAbsError, boundViolations: comparison.violations } };
}

/** One human-readable line per report. */
export function formatWorkerReport(report: WorkerReport): string {
  const last = report.iterations[report.iterations.length - 1];
  const ms = last ? last.elapsedMs : 0;
  const goodput = ms > 0 && last ? (last.bytes * 8) / (ms * 1e6) : 0;
  const check = report.check ? `, max error ${report.check.maxAbsError.toExponential(3)}, ${report.check.boundViolations} over the bound` : '';
  return (
    `${report.algorithm} rank ${report.rank}/${report.worldSize}: ${report.length} elements × ${report.iterations.length} call(s), ` +
    `last ${ms.toFixed(1)} ms (${goodput.toFixed(2)} Gbit/s), result sha256 ${report.resultSha256.slice(0, 16)}…${check}`
  );
}
