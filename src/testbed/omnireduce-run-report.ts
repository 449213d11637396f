/**
 * What OmniReduce runs add to the testbed's results document: where each
 * run aggregated (its host aggregator's host, or the switch running
 * omnireduce.p4), its block size and slots; and the block sparsity every
 * algorithm's workers were given (`--sparsity/--pattern/--sparse-block`), so
 * that the table says which tensors the rows reduced.
 */
import { TESTBED_ERROR_CODES, TestbedError } from './testbed-error.js';

export interface OmniReduceRunInfo {
  /** The host of the aggregator process, or the switch that aggregated. */
  readonly aggregator: string;
  readonly blockSize: number;
  readonly slots: number;
}

/** The workers' block-sparse input: a share of all-zero blocks of `block` elements, chosen by `pattern`. */
export interface TestbedSparsity {
  readonly sparsity: number;
  readonly pattern: string;
  readonly block: number;
}

function fail(why: string): never {
  throw new TestbedError(TESTBED_ERROR_CODES.badReport, `the testbed's results document ${why}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** The `omnireduce` object of run `index`: required for OmniReduce runs that ran, absent otherwise. */
export function parseOmniReduceRunInfo(run: Record<string, unknown>, index: number): OmniReduceRunInfo | undefined {
  const value = run.omnireduce;
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || typeof value.aggregator !== 'string' || !isCount(value.blockSize) || !isCount(value.slots)) {
    fail(`has a malformed "omnireduce" in run ${index} (want {aggregator, blockSize, slots})`);
  }
  return { aggregator: value.aggregator, blockSize: value.blockSize, slots: value.slots };
}

/** The document's `sparsity`: null or absent for dense tensors. */
export function parseTestbedSparsity(value: unknown): TestbedSparsity | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value) || typeof value.sparsity !== 'number' || !(value.sparsity >= 0 && value.sparsity <= 1) || typeof value.pattern !== 'string' || !isCount(value.block)) {
    fail('has a malformed "sparsity" (want {sparsity 0..1, pattern, block})');
  }
  return { sparsity: value.sparsity, pattern: value.pattern, block: value.block };
}

/** "; aggregator ps1, blocks of 256, 32 slots" for a run's line above the table. */
export function describeOmniReduceRun(info: OmniReduceRunInfo): string {
  return `; aggregator ${info.aggregator}, blocks of ${info.blockSize}, ${info.slots} slots`;
}

/** ", sparsity 0.9 (random, blocks of 256)" for the document's first line. */
export function describeSparsity(s: TestbedSparsity | null): string {
  return s === null ? '' : `, sparsity ${s.sparsity} (${s.pattern}, blocks of ${s.block})`;
}
