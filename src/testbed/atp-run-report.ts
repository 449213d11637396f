/**
 * What an ATP run of the testbed adds to its row: which job it was, where it
 * aggregated (the controller's levels), what its parameter server did (its
 * `p4ina agent atp-ps --json` report: sequences the switches completed
 * against those the PS summed itself, the fallback work) and what ECN did to
 * the workers (marks on ACKs, window halvings, the smallest window).
 * The runner's document carries the PS's and the workers' stdout as they
 * are; a report that cannot be read leaves its numbers undefined, it never
 * fails the run (the exactness check does that).
 */
import { TESTBED_ERROR_CODES, TestbedError } from './testbed-error.js';

export interface AtpRunInfo {
  readonly job: number;
  readonly psHost: string;
  /** The PS's stdout (its last JSON line is its report). */
  readonly psReport: string;
  readonly level0: readonly string[];
  readonly level1: string | null;
}

/** The PS's counters the testbed shows (src/agent/atp/ps-stats.ts). */
export interface AtpPsSummary {
  readonly completed: number;
  /** Sequences that reached the PS as one aggregate: the switches did it all. */
  readonly completedByOnePiece: number;
  /** Sequences the PS summed from several pieces: the fallback work. */
  readonly completedInSoftware: number;
  readonly piecesSummed: number;
  readonly collisionPieces: number;
  readonly resendPieces: number;
  readonly overflowPieces: number;
  readonly level1Aggregates: number;
}

export interface AtpRunDetails {
  readonly job: number;
  readonly psHost: string;
  readonly level0: readonly string[];
  readonly level1: string | null;
  readonly ps: AtpPsSummary | undefined;
  /** Summed over the workers' last calls; undefined when a report lacks them. ATP's ecn bit on ACKs: */
  readonly ecnMarks: number | undefined;
  /** CE in the IPv4 header of ACKs, read with --ecn-ip (0 without it). */
  readonly ipCeMarks: number | undefined;
  readonly windowHalvings: number | undefined;
  /** The smallest congestion window any worker had. */
  readonly windowMin: number | undefined;
}

const PS_FIELDS = ['completed', 'completedByOnePiece', 'completedInSoftware', 'piecesSummed', 'collisionPieces', 'resendPieces', 'overflowPieces', 'level1Aggregates'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(why: string): never {
  throw new TestbedError(TESTBED_ERROR_CODES.badReport, `the testbed's results document ${why}`);
}

/** The ATP fields of run `i` of the runner's document; throws TESTBED_BAD_REPORT. */
export function parseAtpRunInfo(run: Record<string, unknown>, i: number): AtpRunInfo {
  const ps = run.ps;
  if (!Number.isInteger(run.job) || !isRecord(ps) || typeof ps.host !== 'string' || typeof ps.report !== 'string') bad(`ATP run ${i} lacks "job" or "ps"`);
  const level0 = run.level0;
  if (!Array.isArray(level0) || !level0.every((s) => typeof s === 'string') || (run.level1 !== null && typeof run.level1 !== 'string')) bad(`ATP run ${i} lacks "level0" or "level1"`);
  return { job: run.job as number, psHost: ps.host, psReport: ps.report, level0, level1: run.level1 };
}

/** The last line of `stdout` that is a JSON object, or undefined. */
function lastJson(stdout: string): Record<string, unknown> | undefined {
  const line = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'))
    .at(-1);
  if (line === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function psSummary(stdout: string): AtpPsSummary | undefined {
  const stats = lastJson(stdout)?.stats;
  if (!isRecord(stats) || !PS_FIELDS.every((f) => typeof stats[f] === 'number')) return undefined;
  return Object.fromEntries(PS_FIELDS.map((f) => [f, stats[f]])) as unknown as AtpPsSummary;
}

/** A numeric field of every worker's last call, or undefined if any report lacks it. */
function lastCallField(reports: readonly string[], field: string): number[] | undefined {
  const values = reports.map((r) => {
    const iterations = lastJson(r)?.iterations;
    const last: unknown = Array.isArray(iterations) ? iterations.at(-1) : undefined;
    return isRecord(last) && typeof last[field] === 'number' ? last[field] : undefined;
  });
  return values.length > 0 && values.every((v) => v !== undefined) ? values : undefined;
}

const sum = (values: readonly number[] | undefined): number | undefined => values?.reduce((a, b) => a + b, 0);

export function atpRunDetails(info: AtpRunInfo, workerReports: readonly string[]): AtpRunDetails {
  const mins = lastCallField(workerReports, 'windowMin');
  return {
    job: info.job,
    psHost: info.psHost,
    level0: info.level0,
    level1: info.level1,
    ps: psSummary(info.psReport),
    ecnMarks: sum(lastCallField(workerReports, 'ecnMarks')),
    ipCeMarks: sum(lastCallField(workerReports, 'ipCeMarks')),
    windowHalvings: sum(lastCallField(workerReports, 'windowHalvings')),
    windowMin: mins === undefined ? undefined : Math.min(...mins),
  };
}
