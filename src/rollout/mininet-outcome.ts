/**
 * One Mininet testbed run's --json document (formatTestbedJson in
 * src/testbed/testbed-report.ts: the demo's row per algorithm, ATP rows with
 * their levels) as the sweep's RunOutcome: the slowest worker's time, the
 * retransmissions, exact when every worker's result is identical and within
 * its bound, and what ran (for ATP, where it aggregated). A document that is
 * missing or malformed is the run's failure, with the script's last words.
 */
import type { RolloutAlgorithm, RunOutcome } from './rollout-cells.js';
import type { TestbedProcessResult } from './mininet-testbed-process.js';

interface TestbedRow {
  readonly algorithm: string;
  readonly workers: number;
  readonly timeMs: number | null;
  readonly retransmissions: number | null;
  readonly boundViolations: number | null;
  readonly identical: boolean | null;
  readonly failure: string | null;
  readonly atp: { readonly level0: readonly string[]; readonly level1: string | null } | null;
  /** Rina rows: the ToRs that aggregated their racks. */
  readonly inaRacks?: readonly string[] | null;
}

interface TestbedJson {
  readonly runs: readonly TestbedRow[];
  readonly hosts: Readonly<Record<string, readonly string[]>>;
  readonly loss: number;
  readonly framesLost: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const numberOrNull = (v: unknown): boolean => v === null || typeof v === 'number';

function failed(message: string, runs?: string): RunOutcome {
  return { timeMs: undefined, retransmissions: undefined, exact: undefined, runs, failure: message };
}

function parseRow(v: unknown): TestbedRow | undefined {
  if (!isRecord(v) || typeof v.algorithm !== 'string' || typeof v.workers !== 'number') return undefined;
  if (!numberOrNull(v.timeMs) || !numberOrNull(v.retransmissions) || !numberOrNull(v.boundViolations)) return undefined;
  if (v.identical !== null && typeof v.identical !== 'boolean') return undefined;
  if (v.failure !== null && typeof v.failure !== 'string') return undefined;
  if (v.inaRacks !== undefined && v.inaRacks !== null && !(Array.isArray(v.inaRacks) && v.inaRacks.every((s) => typeof s === 'string'))) return undefined;
  const atp = v.atp;
  if (atp !== null && atp !== undefined && !(isRecord(atp) && Array.isArray(atp.level0) && atp.level0.every((s) => typeof s === 'string') && (atp.level1 === null || typeof atp.level1 === 'string'))) return undefined;
  return v as unknown as TestbedRow;
}

/** The document on the script's last stdout line, or undefined when there is none or it is malformed. */
function parseDocument(stdout: string): TestbedJson | undefined {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || !Array.isArray(doc.runs) || !isRecord(doc.hosts)) return undefined;
  const runs = doc.runs.map(parseRow);
  if (runs.some((r) => r === undefined)) return undefined;
  const hosts = doc.hosts as Record<string, readonly string[]>;
  return { runs: runs as TestbedRow[], hosts, loss: typeof doc.loss === 'number' ? doc.loss : 0, framesLost: typeof doc.framesLost === 'number' ? doc.framesLost : 0 };
}

/** What ran: for ATP where it aggregated (the controller's levels), else the algorithm and its workers. */
function runsLabel(row: TestbedRow, hosts: readonly string[]): string {
  if (row.algorithm === 'atp' && row.atp) {
    const { level0, level1 } = row.atp;
    if (level0.length === 0 && level1 === null) return 'atp (PS only)';
    const levels = [level0.length ? `level 0: ${level0.join(', ')}` : undefined, level1 ? `level 1: ${level1}` : undefined].filter(Boolean);
    return `atp (${levels.join('; ')})`;
  }
  if (row.algorithm === 'ring') return `ring of ${row.workers} (TCP)`;
  if (row.algorithm === 'hierarchical') return `hierarchical (TCP, ${row.workers} workers)`;
  if (row.algorithm === 'rina' && row.inaRacks) {
    const n = row.inaRacks.length;
    return n ? `rina (${n} INA rack${n > 1 ? 's' : ''}: ${row.inaRacks.join(', ')})` : `rina = ring of ${row.workers} (UDP, no INA rack)`;
  }
  return `${row.algorithm} (${row.workers} workers${hosts.length ? `: ${hosts.join(', ')}` : ''})`;
}

/** `workers`: how many the sweep's job has; a run on fewer is not that job, so it is a failure. */
export function outcomeOfTestbedRun(algorithm: RolloutAlgorithm, result: TestbedProcessResult, workers: number): RunOutcome {
  const doc = parseDocument(result.stdout);
  const why = result.stderrTail ? `:\n${result.stderrTail}` : '';
  if (result.timedOut) return failed(`the Mininet testbed ran past its deadline and was stopped${why}`);
  if (!doc) return failed(`the Mininet testbed printed no results document (exit ${result.code ?? result.signal})${why}`);
  const row = doc.runs.find((r) => r.algorithm === algorithm);
  if (!row) return failed(`the Mininet testbed's document has no ${algorithm} run`);
  const runs = runsLabel(row, doc.hosts[algorithm] ?? []);
  if (row.failure !== null) return failed(row.failure, runs);
  if (row.workers !== workers) return failed(`the Mininet testbed ran ${algorithm} on ${row.workers} of the job's ${workers} workers`, runs);
  if (row.timeMs === null) return failed('the Mininet testbed reported no time', runs);
  return {
    timeMs: row.timeMs,
    retransmissions: row.retransmissions ?? undefined,
    exact: row.identical === true && row.boundViolations === 0,
    runs,
    failure: undefined,
    ...(doc.loss > 0 ? { framesLost: doc.framesLost } : {}),
  };
}
