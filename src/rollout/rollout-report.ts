/**
 * The sweep's results for people and machines: a table of stage × algorithm
 * (time, goodput, goodput over ring's at the same stage, retransmissions,
 * exactness, failures), the JSON document behind it, and the SVG plot of
 * goodput against the share of INA-capable ToRs, one line per algorithm.
 */
import { renderLinePlot } from '../report/svg-line-plot.js';
import { formatTable, type Cell } from '../report/table.js';
import { cellIsExact, type RolloutAlgorithm, type RolloutCell } from './rollout-cells.js';

export interface RolloutReport {
  readonly topology: string;
  readonly net: 'loopback' | 'mininet';
  /** ToRs with workers: the denominator of a stage's share. */
  readonly tors: number;
  readonly workers: number;
  readonly tensorBytes: number;
  readonly repeats: number;
  readonly seed: number | string;
  readonly bwMbps: number | undefined;
  readonly loss: number;
  readonly algorithms: readonly RolloutAlgorithm[];
  readonly cells: readonly RolloutCell[];
}

function ringGoodput(report: RolloutReport, stage: number): number | undefined {
  return report.cells.find((c) => c.stage === stage && c.algorithm === 'ring')?.goodputMbps;
}

function exactText(cell: RolloutCell): string {
  if (cellIsExact(cell)) return 'yes';
  return `${cell.exactRuns}/${cell.repeats}`;
}

export function formatRolloutTable(report: RolloutReport): string {
  const lossy = report.loss > 0;
  const columns = ['stage', 'INA ToRs', 'algorithm', 'runs', 'time (ms)', 'goodput (Mbit/s)', 'vs ring', 'retransmissions', ...(lossy ? ['frames lost'] : []), 'exact', 'failure'];
  const rows: Cell[][] = report.cells.map((c) => {
    const ring = ringGoodput(report, c.stage);
    return [
      `${c.stage}/${report.tors}`,
      c.inaTors.join(',') || 'none',
      c.algorithm,
      c.runs ?? '-',
      c.timeMs,
      c.goodputMbps,
      c.goodputMbps !== undefined && ring ? Number((c.goodputMbps / ring).toFixed(2)) : undefined,
      c.retransmissions === undefined ? undefined : Math.round(c.retransmissions),
      ...(lossy ? [c.framesLost === undefined ? undefined : Math.round(c.framesLost)] : []),
      exactText(c),
      c.failures[0] === undefined ? '' : `${c.failures.length}× ${c.failures[0]}`,
    ];
  });
  const exact = report.cells.filter(cellIsExact).length;
  const head =
    `rollout on ${report.topology} (${report.net}): ${report.workers} workers in ${report.tors} racks, ` +
    `${report.tensorBytes.toLocaleString('en-US')} bytes per worker, ${report.repeats} repeat(s), seed ${report.seed}` +
    `${report.bwMbps === undefined ? '' : `, links ${report.bwMbps} Mbit/s`}${report.loss ? `, loss ${report.loss}` : ''}\n`;
  return `${head}${formatTable(columns, rows)}${exact} of ${report.cells.length} cells exact in every repeat\n`;
}

export function formatRolloutJson(report: RolloutReport): string {
  return `${JSON.stringify(report)}\n`;
}

/** Goodput (Mbit/s) against the share of INA ToRs; a failed cell is a gap in its line. */
export function renderRolloutPlot(report: RolloutReport): string {
  const stages = [...new Set(report.cells.map((c) => c.stage))].sort((a, b) => a - b);
  const share = (stage: number): number => (report.tors ? stage / report.tors : 0);
  return renderLinePlot({
    title: `Goodput per worker across an INA rollout (${report.workers} workers, ${report.tors} racks, ${report.net})`,
    xLabel: 'INA-capable ToRs',
    yLabel: 'goodput per worker (Mbit/s)',
    xs: stages.map(share),
    formatX: (x) => `${Math.round(x * 100)}%`,
    series: report.algorithms.map((algorithm) => ({
      name: algorithm,
      values: stages.map((stage) => report.cells.find((c) => c.stage === stage && c.algorithm === algorithm)?.goodputMbps),
    })),
  });
}
