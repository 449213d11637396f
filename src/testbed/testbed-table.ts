/**
 * The testbed's results table: the demo's table as it is, or, when ATP ran,
 * the demo's columns with one row per ATP job ("atp 2" when there are
 * several) and the ATP columns after them: "PS summed", the sequences the
 * parameter server summed itself from several pieces, of all it completed
 * (its fallback work: collisions, resends, overflowed packets, and the
 * share of racks whose ToR does not aggregate), the pieces that reported a
 * collision, and with --ecn the ECN marks the workers saw and the smallest
 * congestion window.
 */
import type { DemoRow } from '../report/demo-results.js';
import { RESULT_COLUMNS, formatResultsTable, resultCells } from '../report/results-table.js';
import { formatTable, type Cell, type Column } from '../report/table.js';
import type { AtpRunDetails } from './atp-run-report.js';

const ATP_COLUMNS: readonly Column[] = [
  { title: 'PS summed', align: 'right' },
  { title: 'collisions', align: 'right' },
];
const ECN_COLUMNS: readonly Column[] = [
  { title: 'ECN marks', align: 'right' },
  { title: 'IP CE marks', align: 'right' },
  { title: 'window min', align: 'right' },
];

/** How a row is named: its algorithm, or "atp J" for job J of several. */
export function rowLabel(row: DemoRow, details: AtpRunDetails | undefined, severalAtpJobs: boolean): string {
  return details && severalAtpJobs ? `atp ${details.job}` : row.algorithm;
}

/** `details[i]` belongs to `rows[i]` (undefined for runs other than ATP's). */
export function formatTestbedTable(rows: readonly DemoRow[], details: readonly (AtpRunDetails | undefined)[], ecn: boolean): string {
  if (details.every((d) => d === undefined)) return formatResultsTable(rows);
  const several = details.filter((d) => d !== undefined).length > 1;
  const columns = [...RESULT_COLUMNS, ...ATP_COLUMNS, ...(ecn ? ECN_COLUMNS : [])];
  const cells = rows.map((row, i): Cell[] => {
    const d = details[i];
    const fallback = d?.ps ? `${d.ps.completedInSoftware}/${d.ps.completed}` : undefined;
    return [...resultCells(row, rowLabel(row, d, several)), fallback, d?.ps?.collisionPieces, ...(ecn ? [d?.ecnMarks, d?.ipCeMarks, d?.windowMin] : [])];
  });
  const notes = rows.map((r, i) => (r.failure === undefined ? '' : `${rowLabel(r, details[i], several)} failed: ${r.failure}\n`));
  return formatTable(columns, cells) + notes.join('');
}
