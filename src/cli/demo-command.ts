/**
 * `p4ina demo`: the main job on loopback (see src/demo/run-demo.ts). Prints
 * the results table (or JSON with --json) on stdout and a progress line on
 * stderr. Exit status: 0 every run exact and identical on all workers,
 * 1 a run failed or was not exact, 2 bad options, 130 interrupted (Ctrl-C).
 */
import { runInterruptible } from './interruptible.js';
import { DEMO_ERROR_CODES } from '../demo/demo-error.js';
import { DEMO_USAGE, parseDemoArgs, type DemoOptions } from '../demo/demo-options.js';
import { rowIsExact, rowProblem } from '../report/demo-results.js';
import { formatDemoJson, formatDemoTable } from '../demo/demo-report.js';
import { stderrProgress } from '../demo/progress.js';
import { runDemo } from '../demo/run-demo.js';
import { P4inaError } from '../errors/p4ina-error.js';

const EXIT_INTERRUPTED = 130;

export async function run(argv: string[]): Promise<number> {
  let options: DemoOptions | undefined;
  try {
    options = parseDemoArgs(argv);
  } catch (err) {
    if (!P4inaError.is(err)) throw err;
    process.stderr.write(`p4ina demo: ${err.message}\n\n${DEMO_USAGE}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${DEMO_USAGE}\n`);
    return 0;
  }
  return runInterruptible(async (signal) => {
    try {
      const outcome = await runDemo(options, { progress: stderrProgress(), signal: signal });
      if (options.json) {
        process.stdout.write(`${formatDemoJson(options, outcome)}\n`);
        for (const row of outcome.rows) {
          const problem = rowProblem(row);
          if (problem !== undefined) process.stderr.write(`p4ina demo: ${problem}\n`);
        }
      } else {
        const loss = options.loss > 0 ? `\nloss ${options.loss} on every wire, each way: ${outcome.framesLost} frame(s) dropped by the demo's relays\n` : '';
        process.stdout.write(`${formatDemoTable(outcome)}${loss}`);
      }
      return outcome.rows.every(rowIsExact) ? 0 : 1;
    } catch (err) {
      if (!P4inaError.is(err)) throw err;
      process.stderr.write(`p4ina demo: error ${err.code}: ${err.message}\n`);
      return err.code === DEMO_ERROR_CODES.interrupted ? EXIT_INTERRUPTED : 1;
    }
  });
}
