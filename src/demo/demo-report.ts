/**
 * The demo's results as printed: the results table (src/report), with a
 * column "by switch" when ATP ran — the share of its result packets the
 * switch aggregated whole — and a line under it saying what the parameter
 * server summed; and the JSON document, with the same under "atp" and
 * SwitchML's values per packet under "switchmlElements" (null when it did
 * not run). When
 * hierarchical AllReduce ran, a line (and "hierarchical" in the JSON) says
 * which hosts formed its racks, and that on one machine they are only groups.
 */
import { formatResultsJson, formatResultsTable, RESULT_COLUMNS, resultCells } from '../report/results-table.js';
import { formatTable } from '../report/table.js';
import { switchShare, type AtpServerSummary } from './atp-server-report.js';
import type { DemoOptions } from './demo-options.js';
import type { DemoOutcome } from './run-demo.js';

/** Truncated, not rounded: "100.0%" only when the switch did every packet. */
function percent(share: number | undefined): string | undefined {
  return share === undefined ? undefined : `${(Math.floor(share * 1000) / 10).toFixed(1)}%`;
}

const count = (n: number): string => n.toLocaleString('en-US');

function atpLine(s: AtpServerSummary): string {
  return (
    `atp: ${count(s.sequences)} result packets: ${count(s.bySwitch)} aggregated whole by the switch, ${count(s.byServer)} summed by the parameter server ` +
    `from ${count(s.piecesSummed)} pieces (${count(s.collisionPieces)} collided, ${count(s.resendPieces)} resent)\n`
  );
}

function hierarchicalLine(racks: readonly (readonly string[])[]): string {
  return (
    `hierarchical: racks ${racks.map((hosts) => hosts.join(' ')).join(' | ')}, each led by its first host; ` +
    'all on this machine over loopback TCP, so a rack only groups processes: links inside and between racks are alike\n'
  );
}

export function formatDemoTable(outcome: DemoOutcome): string {
  const hierarchical = outcome.hierarchical ? hierarchicalLine(outcome.hierarchical.racks) : '';
  const atp = outcome.atp;
  if (!atp) return `${formatResultsTable(outcome.rows)}${hierarchical ? `\n${hierarchical}` : ''}`;
  const columns = [...RESULT_COLUMNS, { title: 'by switch', align: 'right' } as const];
  const cells = outcome.rows.map((r) => [...resultCells(r), r.algorithm === 'atp' ? percent(switchShare(atp)) : undefined]);
  const notes = outcome.rows.filter((r) => r.failure !== undefined).map((r) => `${r.algorithm} failed: ${r.failure}\n`);
  return `${formatTable(columns, cells)}${notes.join('')}\n${atpLine(atp)}${hierarchical}`;
}

export function formatDemoJson(options: DemoOptions, outcome: DemoOutcome): string {
  const base = JSON.parse(
    formatResultsJson({ workers: options.workers, tensorBytes: options.tensorBytes, loss: options.loss, seed: options.seed, framesLost: outcome.framesLost, runs: outcome.rows }),
  ) as Record<string, unknown>;
  const atp = outcome.atp ? { ...outcome.atp, switchShare: switchShare(outcome.atp) ?? null } : null;
  const switchmlElements = options.algorithms.includes('switchml') ? options.switchMlElements : null;
  return JSON.stringify({ ...base, sparsity: options.sparsity ?? null, switchmlElements, atp, hierarchical: outcome.hierarchical ?? null });
}
