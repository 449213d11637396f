/**
 * `npm run bench -- [NAME…] [--quick] [--json] [--record]`: runs the benchmarks
 * (all by default) one after another, prints a table per benchmark, and with
 * --record appends them to bench/RESULTS.md with the date and the machine.
 */
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatTable } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { describeMachine } from './machine.js';
import { compileBench } from './compile.js';
import { p4runtimeWrite } from './p4runtime-write.js';
import { p4runtimeLpmWrite } from './p4runtime-lpm-write.js';
import { pipelineBench } from './pipeline.js';
import { wireCodecBench } from './wire-codec.js';
import { switchMlVsRing } from './switchml-vs-ring.js';
import { testbedBench } from './testbed.js';
import { mininetFourAlgorithms } from './mininet-four-algorithms.js';
import { fourAlgorithms } from './four-algorithms.js';
import { atpMultiJob } from './atp-multi-job.js';
import { rolloutMininet } from './rollout-mininet.js';
import { omniReduceDensity } from './omnireduce-density.js';
import { omniReduceDensityMininet } from './omnireduce-density-mininet.js';
import { switchMlElements } from './switchml-elements.js';
import { switchMlUdpWire } from './switchml-udp-wire.js';

const benchmarks: Benchmark[] = [p4runtimeWrite, p4runtimeLpmWrite, compileBench, pipelineBench, wireCodecBench, switchMlVsRing, switchMlElements, switchMlUdpWire, fourAlgorithms, atpMultiJob, omniReduceDensity, testbedBench, mininetFourAlgorithms, rolloutMininet, omniReduceDensityMininet];

async function main(argv: string[]): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const names = argv.filter((a) => !a.startsWith('--'));
  for (const f of flags) {
    if (!['--quick', '--json', '--record', '--help'].includes(f)) {
      process.stderr.write(`bench: unknown option ${f}\n`);
      return 2;
    }
  }
  if (flags.has('--help')) {
    process.stdout.write(
      'usage: npm run bench -- [NAME…] [--quick] [--json] [--record]\n\n' +
        benchmarks.map((b) => `  ${b.name.padEnd(18)} ${b.summary}`).join('\n') +
        '\n',
    );
    return 0;
  }
  const unknown = names.filter((n) => !benchmarks.some((b) => b.name === n));
  if (unknown.length) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; known: ${benchmarks.map((b) => b.name).join(', ')}\n`);
    return 2;
  }
  const chosen = names.length ? benchmarks.filter((b) => names.includes(b.name)) : benchmarks;
  const machine = describeMachine();
  const date = new Date().toISOString().slice(0, 10);
  const results: (BenchResult & { name: string })[] = [];
  for (const bench of chosen) {
    const progress = (line: string): void => {
      if (!flags.has('--json')) process.stderr.write(`[${bench.name}] ${line}\n`);
    };
    const result = await bench.run({ quick: flags.has('--quick'), progress });
    results.push({ name: bench.name, ...result });
    if (!flags.has('--json')) {
      process.stdout.write(`\n${result.title}\n\n${formatTable(result.columns, result.rows)}`);
      for (const note of result.notes) process.stdout.write(`  ${note}\n`);
    }
  }
  if (flags.has('--json')) process.stdout.write(JSON.stringify({ date, machine, results }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) + '\n');
  if (flags.has('--record')) {
    const file = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url));
    const sections = results.map(
      (r) =>
        `\n## ${r.title}\n\n${date}, ${machine}${flags.has('--quick') ? ' (quick run)' : ''}\n\n\`\`\`\n${formatTable(r.columns, r.rows)}\`\`\`\n\n${r.notes.map((n) => `- ${n}`).join('\n')}\n`,
    );
    appendFileSync(file, sections.join(''));
    process.stderr.write(`bench: recorded in ${file}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
