/** What every benchmark in bench/ provides to the runner. */
import type { Cell } from '../src/report/table.js';

export interface BenchResult {
  /** A heading for the table, e.g. "P4Runtime table-entry inserts". */
  title: string;
  columns: string[];
  rows: Cell[][];
  /** What was measured and how, what limits it: printed under the table and recorded. */
  notes: string[];
}

export interface Benchmark {
  name: string;
  summary: string;
  /** `quick` runs a smaller version (for a smoke run); recorded figures come from full runs. */
  run(options: { quick: boolean; progress: (line: string) => void }): Promise<BenchResult>;
}
