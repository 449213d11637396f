/**
 * The runner's results document (what `mininet/testbed.py` hands to
 * `p4ina testbed format`) turned into the demo's rows and table: the same
 * columns and the same JSON keys as `p4ina demo`, plus what only a testbed
 * has (the topology, ordinary traffic, the PIDs it started).
 */
import type { DemoAlgorithm, DemoRow } from '../report/demo-results.js';
import { failedRun, parseWorkerReport, rowIsExact, summariseRun } from '../report/demo-results.js';
import { formatResultsJson, formatResultsTable } from '../report/results-table.js';
import { TESTBED_ERROR_CODES, TestbedError } from './testbed-error.js';

export interface TrafficResult {
  /** Ordered host pairs pinged (`sent`) and those answered within a few tries (`received`). */
  readonly ping: { readonly sent: number; readonly received: number; readonly failed: readonly string[] };
  readonly tcp: readonly { readonly from: string; readonly to: string; readonly bytes: number; readonly ok: boolean }[];
}

export interface TestbedRun {
  readonly algorithm: DemoAlgorithm;
  /** The hosts that ran it, by rank. */
  readonly hosts: readonly string[];
  /** Each worker's stdout (its JSON report), by rank; empty when the run failed. */
  readonly reports: readonly string[];
  readonly failure: string | null;
}

export interface TestbedDocument {
  readonly topology: string;
  readonly tensorBytes: number;
  readonly loss: number;
  /** Packets the hosts' loss rules dropped (0 without --loss). */
  readonly packetsLost: number;
  readonly seed: number | string;
  readonly runs: readonly TestbedRun[];
  readonly traffic: TrafficResult | null;
  /** Every process the runner started (switches, agents), for clean-up checks. */
  readonly pids: readonly number[];
}

function fail(why: string): never {
  throw new TestbedError(TESTBED_ERROR_CODES.badReport, `the testbed's results document ${why}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

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
    if (!isRecord(run) || (run.algorithm !== 'switchml' && run.algorithm !== 'ring')) fail(`run ${i} names no algorithm (switchml or ring)`);
    if (!isStringArray(run.hosts) || !isStringArray(run.reports)) fail(`run ${i} lacks "hosts" or "reports"`);
    if (run.failure !== null && typeof run.failure !== 'string') fail(`run ${i} has a "failure" that is not text`);
    return { algorithm: run.algorithm, hosts: run.hosts, reports: run.reports, failure: run.failure };
  });
  const pids = Array.isArray(doc.pids) ? doc.pids.filter((p): p is number => Number.isInteger(p)) : [];
  const packetsLost = typeof doc.packetsLost === 'number' ? doc.packetsLost : 0;
  return { topology: doc.topology, tensorBytes: doc.tensorBytes, loss: doc.loss, packetsLost, seed: doc.seed, runs, traffic: parseTraffic(doc.traffic), pids };
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

export function trafficOk(traffic: TrafficResult | null): boolean {
  return traffic === null || (traffic.ping.received === traffic.ping.sent && traffic.tcp.every((t) => t.ok));
}

/** True when every run is exact and identical on all workers and any traffic check passed. */
export function testbedOk(doc: TestbedDocument, rows: readonly DemoRow[]): boolean {
  return rows.every(rowIsExact) && trafficOk(doc.traffic);
}

export function formatTestbedText(doc: TestbedDocument, rows: readonly DemoRow[]): string {
  const loss = doc.loss > 0 ? `, loss ${doc.loss} on every host link each way (${doc.packetsLost} packets dropped)` : '';
  const lines = [`testbed ${doc.topology}${loss}`];
  for (const run of doc.runs) lines.push(`  ${run.algorithm}: ${run.hosts.join(', ')}`);
  let text = `${lines.join('\n')}\n\n${formatResultsTable(rows)}`;
  if (doc.traffic) {
    const { ping, tcp } = doc.traffic;
    text += `\nping: ${ping.received}/${ping.sent} host pairs reach each other${ping.failed.length ? ` (no answer: ${ping.failed.join(' ')})` : ''}\n`;
    for (const t of tcp) text += `tcp ${t.from} → ${t.to}: ${t.bytes} bytes, ${t.ok ? 'intact' : 'FAILED'}\n`;
  }
  return text;
}

export function formatTestbedJson(doc: TestbedDocument, rows: readonly DemoRow[]): string {
  const base = JSON.parse(formatResultsJson({ workers: Math.max(0, ...rows.map((r) => r.workers)), tensorBytes: doc.tensorBytes, loss: doc.loss, seed: doc.seed, framesLost: doc.packetsLost, runs: rows })) as Record<string, unknown>;
  return JSON.stringify({ topology: doc.topology, ...base, hosts: Object.fromEntries(doc.runs.map((r) => [r.algorithm, r.hosts])), traffic: doc.traffic, pids: doc.pids, ok: testbedOk(doc, rows) });
}
