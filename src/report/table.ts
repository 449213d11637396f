/**
 * Plain-text tables for results printed to a terminal: one header row, a rule,
 * right-aligned numbers and left-aligned text. Machines get `--json` instead.
 */
export type Cell = string | number | bigint | boolean | null | undefined;

export interface Column {
  /** Header text. */
  title: string;
  /** Alignment; numbers default to right, everything else to left. */
  align?: 'left' | 'right';
}

function show(cell: Cell): string {
  if (cell === null || cell === undefined) return '-';
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return String(cell);
    return Number.isInteger(cell) ? cell.toLocaleString('en-US') : cell.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
  return String(cell);
}

/** Renders rows under the given columns; each row has one cell per column. */
export function formatTable(columns: readonly (Column | string)[], rows: readonly (readonly Cell[])[]): string {
  const cols = columns.map((c) => (typeof c === 'string' ? { title: c } : c));
  const text = rows.map((row) => cols.map((_, i) => show(row[i])));
  const widths = cols.map((c, i) => Math.max(c.title.length, ...text.map((r) => r[i]!.length)));
  const alignOf = (i: number): 'left' | 'right' => {
    const col = cols[i]!;
    if (col.align) return col.align;
    return rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || typeof r[i] === 'bigint') ? 'right' : 'left';
  };
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (alignOf(i) === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(cols.map((c) => c.title)), widths.map((w) => '-'.repeat(w)).join('  '), ...text.map(line)].join('\n') + '\n';
}
