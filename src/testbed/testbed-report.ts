/**
 * The runner's results document (what `mininet/testbed.py` hands to
 * `p4ina testbed format`) turned into the demo's rows and table: the same
 * columns and the same JSON keys as `p4ina demo`, plus what only a testbed
 * has (the topology, ordinary traffic, the PIDs it started, per ATP job
 * its levels, its parameter server's work and ECN: atp-run-report.ts; per
 * OmniReduce run where it aggregated, and the workers' block sparsity:
 * omnireduce-run-report.ts; the SwitchML run's values per packet; per run
 * the switches' and the workers' CPU: cpu-report.ts).
 */
import type { DemoRow, ResultAlgorithm } from '../report/demo-results.js';
import { failedRun, parseWorkerReport, rowProblem, summariseRun } from '../report/demo-results.js';
import { formatResultsJson } from '../report/results-table.js';
import { describeRunCpu, parseSwitchCpu, workersCpuMs, type RunCpu, type SwitchCpuUse } from './cpu-report.js';
import { atpRunDetails, parseAtpRunInfo, type AtpRunDetails, type AtpRunInfo } from './atp-run-report.js';
import { describeOmniReduceRun, describeSparsity, parseOmniReduceRunInfo, parseTestbedSparsity, type OmniReduceRunInfo, type TestbedSparsity } from './omnireduce-run-report.js';
import { TESTBED_ERROR_CODES, TestbedError } from './testbed-error.js';
import { formatTestbedTable, rowLabel } from './testbed-table.js';

export interface TrafficResult {
  /** Ordered host pairs pinged (`sent`) and those answered within a few tries (`received`). */
  readonly ping: { readonly sent: number; readonly received: number; readonly failed: readonly string[] };
  readonly tcp: readonly { readonly from: string; readonly to: string; readonly bytes: number; readonly ok: boolean }[];
}

export interface TestbedRun {
  readonly algorithm: ResultAlgorithm;
  /** The hosts that ran it, by rank. */
  readonly hosts: readonly string[];
  /** Each worker's stdout (its JSON report), by rank; empty when the run failed. */
  readonly reports: readonly string[];
  readonly failure: string | null;
  /** ATP runs (one per job): the job, its PS and levels. */
  readonly atp: AtpRunInfo | undefined;
  /** Rina runs: the ToRs that aggregated their racks (none: a plain ring over UDP). */
  readonly inaRacks: readonly string[] | undefined;
  /** OmniReduce runs (host aggregator or switch) that got as far as the controller's plan: where they aggregated, block size, slots. */
  readonly omnireduce: OmniReduceRunInfo | undefined;
  /** SwitchML runs: int32 values per packet (switchml.p4's SWITCHML_ELEMENTS, the job's and the workers'). */
  readonly elements: number | undefined;
  /** CPU each switch process used while the run's agents ran (empty: not measured). */
  readonly switchCpu: readonly SwitchCpuUse[];
}

/** --ecn: the switches' marking threshold, and whether the links' RED marks too. */
export interface EcnSetting {
  readonly threshold: number;
  readonly kernelRed: boolean;
  readonly bandwidthMbps: number;
}

export interface TestbedDocument {
  readonly topology: string;
  readonly tensorBytes: number;
  readonly loss: number;
  /** Packets the hosts' loss rules dropped (0 without --loss). */
  readonly packetsLost: number;
  readonly seed: number | string;
  /** The block sparsity every algorithm's workers were given; null: dense tensors. */
  readonly sparsity: TestbedSparsity | null;
  readonly runs: readonly TestbedRun[];
  readonly traffic: TrafficResult | null;
  readonly ecn: EcnSetting | null;
  /** Every process the runner started (switches, agents), for clean-up checks. */
  readonly pids: readonly number[];
}

function fail(why: string): never {
  throw new TestbedError(TESTBED_ERROR_CODES.badReport, `the testbed's results document ${why}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isPositiveInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
/** What mininet/testbed.py runs (ALGORITHMS in its options.py). */
const TESTBED_ALGORITHMS: readonly ResultAlgorithm[] = ['switchml', 'atp', 'rina', 'omnireduce', 'omnireduce-switch', 'ps', 'ring', 'hierarchical'];
const isAlgorithm = (v: unknown): v is ResultAlgorithm => TESTBED_ALGORITHMS.some((a) => a === v);

/** Checks the document's shape (it crosses a process and a language boundary). */
export function parseTestbedDocument(text: string): TestbedDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    fail('is not JSON');
  }
  if (!isRecord(doc)) fail('is not a JSON object');
  if (typeof doc.topology !== 'string') fail('has no "topology"');
  if (typeof doc.tensorBytes !== 'number' || typeof doc.loss !== 'number') fail('has no "tensorBytes" or "loss"');
  if (typeof doc.seed !== 'number' && typeof doc.seed !== 'string') fail('has no "seed"');
  if (!Array.isArray(doc.runs)) fail('has no "runs" list');
  const runs = doc.runs.map((run: unknown, i): TestbedRun => {
    if (!isRecord(run) || !isAlgorithm(run.algorithm)) fail(`run ${i} names no algorithm (${TESTBED_ALGORITHMS.join(', ')})`);
    if (!isStringArray(run.hosts) || !isStringArray(run.reports)) fail(`run ${i} lacks "hosts" or "reports"`);
    if (run.failure !== null && typeof run.failure !== 'string') fail(`run ${i} has a "failure" that is not text`);
    const atp = run.algorithm === 'atp' ? parseAtpRunInfo(run, i) : undefined;
    if (run.inaRacks !== undefined && !isStringArray(run.inaRacks)) fail(`run ${i} has an "inaRacks" that is not a list of switch names`);
    const omnireduce = run.algorithm === 'omnireduce' || run.algorithm === 'omnireduce-switch' ? parseOmniReduceRunInfo(run, i) : undefined;
    const elements = run.elements === undefined ? undefined : isPositiveInteger(run.elements) ? run.elements : fail(`run ${i} has an "elements" that is not a positive whole number`);
    const switchCpu = parseSwitchCpu(run.switchCpu, i);
    return { algorithm: run.algorithm, hosts: run.hosts, reports: run.reports, failure: run.failure, atp, inaRacks: run.inaRacks, omnireduce, elements, switchCpu };
  });
  const pids = Array.isArray(doc.pids) ? doc.pids.filter((p): p is number => Number.isInteger(p)) : [];
  const packetsLost = typeof doc.packetsLost === 'number' ? doc.packetsLost : 0;
  const sparsity = parseTestbedSparsity(doc.sparsity);
  return { topology: doc.topology, tensorBytes: doc.tensorBytes, loss: doc.loss, packetsLost, seed: doc.seed, sparsity, runs, traffic: parseTraffic(doc.traffic), ecn: parseEcn(doc.ecn), pids };
}

function parseEcn(value: unknown): EcnSetting | null {
  if (value === null || value === undefined) return null;
  if (!isRecord(value) || typeof value.threshold !== 'number' || typeof value.kernelRed !== 'boolean' || typeof value.bandwidthMbps !== 'number') fail('has a malformed "ecn"');
  return { threshold: value.threshold, kernelRed: value.kernelRed, bandwidthMbps: value.bandwidthMbps };
}

function parseTraffic(value: unknown): TrafficResult | null {
  if (!isRecord(value) || !isRecord(value.ping) || !Array.isArray(value.tcp)) return null;
  const ping = value.ping;
  if (typeof ping.sent !== 'number' || typeof ping.received !== 'number' || !isStringArray(ping.failed)) fail('has a malformed "traffic.ping"');
  const tcp = value.tcp.map((t: unknown) => {
    if (!isRecord(t) || typeof t.from !== 'string' || typeof t.to !== 'string' || typeof t.bytes !== 'number' || typeof t.ok !== 'boolean') fail('has a malformed "traffic.tcp"');
    return { from: t.from, to: t.to, bytes: t.bytes, ok: t.ok };
  });
  return { ping: { sent: ping.sent, received: ping.received, failed: ping.failed }, tcp };
}

/** One row per run, as the demo makes them; a report that cannot be read fails its run, not the process. */
export function testbedRows(doc: TestbedDocument): DemoRow[] {
  return doc.runs.map((run) => {
    if (run.failure !== null) return failedRun(run.algorithm, run.hosts.length, doc.tensorBytes, run.failure);
    try {
      return summariseRun(run.algorithm, doc.tensorBytes, run.reports.map((r) => parseWorkerReport(r)));
    } catch (err) {
      return failedRun(run.algorithm, run.hosts.length, doc.tensorBytes, (err as Error).message);
    }
  });
}

/** Per run, the switches' CPU and the workers' (a failed run's workers: null). */
export function testbedRunCpu(doc: TestbedDocument): RunCpu[] {
  return doc.runs.map((run) => ({ switches: run.switchCpu, workersMs: run.failure === null ? workersCpuMs(run.reports) : null }));
}

/** Per run, its ATP details (undefined for other algorithms). */
export function testbedAtpDetails(doc: TestbedDocument): (AtpRunDetails | undefined)[] {
  return doc.runs.map((run) => (run.atp ? atpRunDetails(run.atp, run.reports) : undefined));
}

/** True when every run is exact and identical on all workers and any traffic check passed. */
export function testbedOk(doc: TestbedDocument, rows: readonly DemoRow[]): boolean {
  return testbedProblems(doc, rows).length === 0;
}

/** What made testbedOk false, one line each (none when it is true). */
export function testbedProblems(doc: TestbedDocument, rows: readonly DemoRow[]): string[] {
  const problems = rows.map(rowProblem).filter((p): p is string => p !== undefined);
  const traffic = doc.traffic;
  if (traffic && traffic.ping.received !== traffic.ping.sent) problems.push(`ping: ${traffic.ping.received}/${traffic.ping.sent} host pairs answered (no answer: ${traffic.ping.failed.join(' ')})`);
  for (const t of traffic?.tcp ?? []) if (!t.ok) problems.push(`tcp ${t.from} → ${t.to} failed`);
  return problems;
}

export function formatTestbedText(doc: TestbedDocument, rows: readonly DemoRow[]): string {
  const loss = doc.loss > 0 ? `, loss ${doc.loss} on every host link each way (${doc.packetsLost} packets dropped)` : '';
  const lines = [`testbed ${doc.topology}${describeSparsity(doc.sparsity)}${loss}`];
  const details = testbedAtpDetails(doc);
  const cpu = testbedRunCpu(doc);
  const several = details.filter((d) => d !== undefined).length > 1;
  doc.runs.forEach((run, i) => {
    const d = details[i];
    const racks = run.inaRacks ? `; INA racks: ${run.inaRacks.join(', ') || 'none (a plain ring)'}` : '';
    const values = run.elements === undefined ? '' : `; ${run.elements} values per packet`;
    const where = d ? `; PS ${d.psHost}; level 0: ${d.level0.join(', ') || 'none'}; level 1: ${d.level1 ?? 'none'}` : run.omnireduce ? describeOmniReduceRun(run.omnireduce) : racks || values;
    lines.push(`  ${rowLabel(rows[i]!, d, several)}: ${run.hosts.join(', ')}${where}${describeRunCpu(cpu[i]!)}`);
  });
  if (doc.ecn) {
    const { threshold, kernelRed, bandwidthMbps } = doc.ecn;
    lines.push(`  ECN: switches mark at ${threshold} packets of egress queue, ports at ${bandwidthMbps} Mbit/s; ${kernelRed ? 'RED on every link marks too' : 'no RED in this kernel, so only the switches mark'}`);
  }
  let text = `${lines.join('\n')}\n\n${formatTestbedTable(rows, details, doc.ecn !== null)}`;
  if (doc.traffic) {
    const { ping, tcp } = doc.traffic;
    text += `\nping: ${ping.received}/${ping.sent} host pairs reach each other${ping.failed.length ? ` (no answer: ${ping.failed.join(' ')})` : ''}\n`;
    for (const t of tcp) text += `tcp ${t.from} → ${t.to}: ${t.bytes} bytes, ${t.ok ? 'intact' : 'FAILED'}\n`;
  }
  return text;
}

export function formatTestbedJson(doc: TestbedDocument, rows: readonly DemoRow[]): string {
  const details = testbedAtpDetails(doc);
  const cpu = testbedRunCpu(doc);
  // ATP rows carry their job's details (`atp`), Rina rows their INA racks, OmniReduce rows where they aggregated;
  // other rows have null, so every row has the same keys. Every row has its CPU.
  const runs = rows.map((row, i) => ({ ...row, atp: details[i] ?? null, inaRacks: doc.runs[i]!.inaRacks ?? null, omnireduce: doc.runs[i]!.omnireduce ?? null, cpu: cpu[i]! }));
  const base = JSON.parse(formatResultsJson({ workers: Math.max(0, ...rows.map((r) => r.workers)), tensorBytes: doc.tensorBytes, loss: doc.loss, seed: doc.seed, framesLost: doc.packetsLost, runs })) as Record<string, unknown>;
  // As `p4ina demo --json` has it: the SwitchML run's values per packet, null when none ran (or it did not say).
  const switchmlElements = doc.runs.find((r) => r.algorithm === 'switchml')?.elements ?? null;
  return JSON.stringify({ topology: doc.topology, sparsity: doc.sparsity, switchmlElements, ...base, hosts: Object.fromEntries(doc.runs.map((r) => [r.algorithm, r.hosts])), traffic: doc.traffic, ecn: doc.ecn, pids: doc.pids, ok: testbedOk(doc, rows) });
}
