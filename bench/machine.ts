/** A one-line description of the machine a benchmark ran on, for RESULTS.md. */
import { cpus, totalmem, type as osType, release } from 'node:os';

export function describeMachine(): string {
  const cores = cpus();
  const model = cores[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const gib = (totalmem() / 2 ** 30).toFixed(0);
  return `${cores.length} × ${model}, ${gib} GiB, ${osType()} ${release()}, Node ${process.version}`;
}
