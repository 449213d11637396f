/**
 * What the demo makes of its workers' reports: each worker prints one JSON
 * line (SwitchMlWorkerReport, AtpWorkerReport or the baselines' WorkerReport,
 * all with `--check`), read here into the fields the table needs, then one row per
 * algorithm. A report that lacks a field is a failed worker, not a crash.
 */
/** What `p4ina demo --algorithm` takes, in its order of the list: the INA algorithms through a switch, then the baselines over TCP. */
export const DEMO_ALGORITHMS = ['switchml', 'atp', 'omnireduce', 'omnireduce-switch', 'ps', 'hierarchical', 'ring'] as const;
export type DemoAlgorithm = (typeof DEMO_ALGORITHMS)[number];
/** What a row of results can be: the demo's algorithms, and Rina, which runs across racks (the testbed, the rollout sweep). */
export type ResultAlgorithm = DemoAlgorithm | 'rina';

export interface WorkerOutcome {
  readonly rank: number;
  readonly resultSha256: string;
  /** Tensor bytes of the last call. */
  readonly bytes: number;
  readonly elapsedMs: number;
  readonly retransmissions: number;
  /** Bytes the worker sent in the last call as its transport counts them (SentBytes; TCP: wireBytesSent); undefined when not reported. */
  readonly bytesSent: number | undefined;
  readonly maxAbsError: number;
  /** Elements whose error broke the algorithm's documented bound. */
  readonly boundViolations: number;
  /** CPU the worker used in the last call (user + system, ms), for the workers that report it (SwitchML, ATP). */
  readonly cpuMs?: number | undefined;
}

export interface DemoRow {
  readonly algorithm: ResultAlgorithm;
  readonly workers: number;
  /** Bytes of each worker's tensor. */
  readonly bytes: number;
  /** The slowest worker's time for the call, ms; undefined when the run failed. */
  readonly timeMs: number | undefined;
  /** Tensor bits per second per worker over `timeMs`, in Gbit/s. */
  readonly goodputGbps: number | undefined;
  /** Bytes each worker sent in the call, the mean over workers (retransmissions included); undefined when not reported. */
  readonly sentPerWorker: number | undefined;
  /** Summed over the workers (always 0 over TCP). */
  readonly retransmissions: number | undefined;
  /** Largest |result − float64 sum| over all workers and elements. */
  readonly maxAbsError: number | undefined;
  readonly boundViolations: number | undefined;
  /** Every worker's result has the same SHA-256. */
  readonly identical: boolean | undefined;
  /** Undefined when the run worked; else what went wrong. */
  readonly failure: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberField(record: Record<string, unknown>, name: string): number {
  const value = record[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`field "${name}" is missing or not a number`);
  return value;
}

function optionalNumber(record: Record<string, unknown>, name: string): number | undefined {
  return record[name] === undefined ? undefined : numberField(record, name);
}

/** Reads a worker's report from its stdout (the last line that is a JSON object); throws an Error saying what is missing. */
export function parseWorkerReport(stdout: string): WorkerOutcome {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('{'));
  const last = lines.at(-1);
  if (last === undefined) throw new Error('the worker printed no JSON report');
  let report: unknown;
  try {
    report = JSON.parse(last);
  } catch {
    throw new Error('the worker’s report is not valid JSON');
  }
  if (!isRecord(report)) throw new Error('the worker’s report is not a JSON object');
  const iterations = report.iterations;
  const lastCall = Array.isArray(iterations) ? (iterations.at(-1) as unknown) : undefined;
  if (!isRecord(lastCall)) throw new Error('the report has no iterations');
  const check = report.check;
  if (!isRecord(check)) throw new Error('the report has no check (was --check given?)');
  const sha = report.resultSha256;
  if (typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha)) throw new Error('the report has no resultSha256');
  return {
    rank: numberField(report, 'rank'),
    resultSha256: sha,
    bytes: numberField(lastCall, 'bytes'),
    elapsedMs: numberField(lastCall, 'elapsedMs'),
    retransmissions: numberField(lastCall, 'retransmissions'),
    bytesSent: optionalNumber(lastCall, 'bytesSent') ?? optionalNumber(lastCall, 'wireBytesSent'),
    cpuMs: optionalNumber(lastCall, 'cpuMs'),
    maxAbsError: numberField(check, 'maxAbsError'),
    boundViolations: numberField(check, 'boundViolations'),
  };
}

/** One algorithm's row from every worker's outcome (by rank). */
export function summariseRun(algorithm: ResultAlgorithm, tensorBytes: number, outcomes: readonly WorkerOutcome[]): DemoRow {
  const timeMs = Math.max(...outcomes.map((o) => o.elapsedMs));
  return {
    algorithm,
    workers: outcomes.length,
    bytes: tensorBytes,
    timeMs,
    goodputGbps: timeMs > 0 ? (tensorBytes * 8) / (timeMs * 1e6) : undefined,
    sentPerWorker: outcomes.every((o) => o.bytesSent !== undefined) ? outcomes.reduce((sum, o) => sum + o.bytesSent!, 0) / outcomes.length : undefined,
    retransmissions: outcomes.reduce((sum, o) => sum + o.retransmissions, 0),
    maxAbsError: Math.max(...outcomes.map((o) => o.maxAbsError)),
    boundViolations: outcomes.reduce((sum, o) => sum + o.boundViolations, 0),
    identical: outcomes.every((o) => o.resultSha256 === outcomes[0]!.resultSha256),
    failure: undefined,
  };
}

/** The row of a run that did not finish. */
export function failedRun(algorithm: ResultAlgorithm, workers: number, tensorBytes: number, failure: string): DemoRow {
  return { algorithm, workers, bytes: tensorBytes, timeMs: undefined, goodputGbps: undefined, sentPerWorker: undefined, retransmissions: undefined, maxAbsError: undefined, boundViolations: undefined, identical: undefined, failure };
}

/** A row is good when it ran, every worker got the same bits and no element broke the bound. */
export function rowIsExact(row: DemoRow): boolean {
  return rowProblem(row) === undefined;
}

/** Why a row is not exact, in words (undefined when it is): for stderr when the table itself went out as JSON. */
export function rowProblem(row: DemoRow): string | undefined {
  if (row.failure !== undefined) return `${row.algorithm} failed: ${row.failure}`;
  if (row.identical !== true) return `${row.algorithm}: the workers' results differ`;
  if (row.boundViolations !== 0) return `${row.algorithm}: ${row.boundViolations} element(s) outside the error bound`;
  return undefined;
}
