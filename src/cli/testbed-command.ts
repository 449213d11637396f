/**
 * `p4ina testbed [options]`: a Mininet testbed in one command (run as root).
 * The testbed is `mininet/testbed.py` (Python, because Mininet is); this
 * runs it with the same arguments (`p4ina testbed --help` shows them) and
 * passes signals on. `p4ina testbed format [--json] [FILE]` is the script's
 * last step: its results document (stdin or FILE) → the demo's table.
 * Exit codes: 0 every run exact and traffic through, 1 otherwise, 2 bad usage.
 */
import { readFile } from 'node:fs/promises';
import { P4inaError } from '../errors/p4ina-error.js';
import { runTestbedScript } from '../testbed/python-runner.js';
import { formatTestbedJson, formatTestbedText, parseTestbedDocument, testbedOk, testbedProblems, testbedRows } from '../testbed/testbed-report.js';

const FORMAT_USAGE = 'usage: p4ina testbed format [--json] [FILE]   (the runner’s results document; default stdin)';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function format(argv: readonly string[]): Promise<number> {
  const json = argv.includes('--json');
  const rest = argv.filter((a) => a !== '--json');
  if (rest.some((a) => a.startsWith('-') && a !== '-') || rest.length > 1) {
    process.stderr.write(`${FORMAT_USAGE}\n`);
    return 2;
  }
  const file = rest[0];
  const text = file === undefined || file === '-' ? await readStdin() : await readFile(file, 'utf8');
  const doc = parseTestbedDocument(text);
  const rows = testbedRows(doc);
  process.stdout.write(json ? `${formatTestbedJson(doc, rows)}\n` : formatTestbedText(doc, rows));
  const ok = testbedOk(doc, rows);
  // The text table shows a bad row; a JSON reader's terminal should still say why the exit code is 1.
  if (json && !ok) for (const problem of testbedProblems(doc, rows)) process.stderr.write(`p4ina testbed: ${problem}\n`);
  return ok ? 0 : 1;
}

export async function run(argv: string[]): Promise<number> {
  try {
    if (argv[0] === 'format') return await format(argv.slice(1));
    return await runTestbedScript(argv);
  } catch (err) {
    if (!P4inaError.is(err)) throw err;
    process.stderr.write(`p4ina testbed: error ${err.code}: ${err.message}\n`);
    return 1;
  }
}
