/**
 * `p4ina rollout`: one job at every stage of an incremental INA rollout
 * (src/rollout). Prints the table (or JSON with --json) on stdout, a
 * progress line on stderr, and writes the SVG plot. Exit status: 0 every
 * cell exact in every repeat, 1 a run failed or was not exact, 2 bad
 * options, 130 interrupted (Ctrl-C).
 */
import { runInterruptible } from './interruptible.js';
import { writeFile } from 'node:fs/promises';
import { stderrProgress } from '../demo/progress.js';
import { P4inaError } from '../errors/p4ina-error.js';
import { ROLLOUT_ERROR_CODES } from '../rollout/rollout-error.js';
import { parseRolloutArgs, ROLLOUT_USAGE, type RolloutOptions } from '../rollout/rollout-options.js';
import { formatRolloutJson, formatRolloutTable, renderRolloutPlot } from '../rollout/rollout-report.js';
import { runRollout } from '../rollout/run-rollout-command.js';

const EXIT_INTERRUPTED = 130;

export async function run(argv: string[]): Promise<number> {
  let options: RolloutOptions | undefined;
  try {
    options = parseRolloutArgs(argv);
  } catch (err) {
    if (!P4inaError.is(err)) throw err;
    process.stderr.write(`p4ina rollout: ${err.message}\n\n${ROLLOUT_USAGE}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${ROLLOUT_USAGE}\n`);
    return 0;
  }
  return runInterruptible(async (signal) => {
    try {
      const { report, allExact } = await runRollout(options, stderrProgress(), signal);
      process.stdout.write(options.json ? formatRolloutJson(report) : formatRolloutTable(report));
      if (options.plotPath !== undefined) {
        await writeFile(options.plotPath, renderRolloutPlot(report));
        if (!options.json) process.stdout.write(`plot: ${options.plotPath}\n`);
      }
      return allExact ? 0 : 1;
    } catch (err) {
      if (!P4inaError.is(err)) throw err;
      process.stderr.write(`p4ina rollout: error ${err.code}: ${err.message}\n`);
      return err.code === ROLLOUT_ERROR_CODES.interrupted ? EXIT_INTERRUPTED : 1;
    }
  });
}
