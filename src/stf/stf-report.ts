/**
 * The report of an STF run: a readable text for people (what failed, on
 * which line, expected against received in hex, like p4c's runner prints it)
 * and a JSON document for machines.
 */
import path from 'node:path';
import type { StfResult } from './stf-runner.js';

/** The exit status of `p4ina stf`: 0 passed, 1 an expectation failed, 2 the test could not run. */
export function stfExitCode(result: StfResult): number {
  return result.status === 'passed' ? 0 : result.status === 'failed' ? 1 : 2;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The text report; `file:line:` prefixes name the STF file as the user gave it. */
export function formatStfReport(result: StfResult): string {
  const out: string[] = [];
  const at = (line: number): string => (line > 0 ? `${result.stf}:${line}: ` : `${result.stf}: `);
  if (result.status === 'error') {
    if (result.compileDiagnostics) out.push(result.compileDiagnostics.trimEnd());
    for (const e of result.errors) out.push(`${e.line > 0 ? at(e.line) : ''}error: ${e.message}`);
    out.push(`stf: ${path.basename(result.stf)}: not run (${plural(result.errors.length, 'error')})`);
    return `${out.join('\n')}\n`;
  }
  for (const r of result.readings) out.push(`${at(r.line)}${r.what} = ${r.value}`);
  for (const f of result.failures) {
    out.push(`${at(f.line)}FAIL: ${f.message}`);
    if (f.expected !== undefined) out.push(`    expected: ${f.expected}`);
    if (f.received !== undefined) out.push(`    received: ${f.received}`);
  }
  const c = result.counts;
  const summary = `${plural(c.packetsIn, 'packet')} in, ${c.packetsOut} out, ${plural(c.expects, 'expected packet')}, ${plural(c.checks, 'check')}`;
  out.push(
    result.status === 'passed'
      ? `stf: ${path.basename(result.stf)} PASSED (${summary})`
      : `stf: ${path.basename(result.stf)} FAILED: ${plural(result.failures.length, 'failure')} (${summary})`,
  );
  return `${out.join('\n')}\n`;
}

/** The JSON report (one document). */
export function formatStfJson(result: StfResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
