/** The demo's results for people (a table) and for programs (one JSON document). */
import { formatTable, type Cell } from './table.js';
import type { DemoRow } from './demo-results.js';

/** "16 MiB", "64 KiB", "1000 B": the tensor size as the user would write it. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  }
  return `${bytes} B`;
}

/** The table's columns; other tables (the testbed's ATP jobs) append their own after these. */
export const RESULT_COLUMNS = [
  { title: 'algorithm' },
  { title: 'workers', align: 'right' },
  { title: 'bytes', align: 'right' },
  { title: 'time (ms)', align: 'right' },
  { title: 'goodput (Mbit/s)', align: 'right' },
  { title: 'sent/worker', align: 'right' },
  { title: 'retransmissions', align: 'right' },
  { title: 'max error', align: 'right' },
  { title: 'identical' },
] as const;

/** One row's cells under RESULT_COLUMNS; `label` replaces the algorithm's name (e.g. "atp 2" for one of several jobs). */
export function resultCells(r: DemoRow, label: string = r.algorithm): Cell[] {
  return [
    label,
    r.workers,
    formatBytes(r.bytes),
    r.timeMs === undefined ? undefined : r.timeMs.toFixed(1),
    r.goodputGbps === undefined ? undefined : (r.goodputGbps * 1000).toFixed(1),
    r.sentPerWorker === undefined ? undefined : formatBytes(Math.round(r.sentPerWorker)),
    r.retransmissions,
    r.maxAbsError === undefined ? undefined : r.maxAbsError.toExponential(2) + (r.boundViolations ? ` (${r.boundViolations} over bound)` : ''),
    r.failure !== undefined ? 'failed' : r.identical ? 'yes' : 'no',
  ];
}

/** The table, with one line per failed run under it. */
export function formatResultsTable(rows: readonly DemoRow[]): string {
  const notes = rows.filter((r) => r.failure !== undefined).map((r) => `${r.algorithm} failed: ${r.failure}\n`);
  return formatTable(RESULT_COLUMNS, rows.map((r) => resultCells(r))) + notes.join('');
}

export interface DemoJsonDocument {
  readonly workers: number;
  readonly tensorBytes: number;
  readonly loss: number;
  readonly seed: number | string;
  /** Frames the demo's loss relays dropped. */
  readonly framesLost: number;
  readonly runs: readonly DemoRow[];
}

/** One JSON document; undefined fields become null so every run has the same keys. */
export function formatResultsJson(document: DemoJsonDocument): string {
  return JSON.stringify(document, (_key, value: unknown) => (value === undefined ? null : value));
}
