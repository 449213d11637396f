/**
 * One algorithm's run: N `p4ina agent …` processes started together, waited
 * for together (bounded by a deadline and by the demo's abort signal), their
 * JSON reports read. When one worker fails the others would wait for it for
 * ever (a ring, a switch slot), so the first failure stops them all.
 */
import os from 'node:os';
import type { ChildGroup, TrackedChild } from './child-group.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import { parseWorkerReport, type WorkerOutcome } from '../report/demo-results.js';

export interface WorkerRunRequest {
  readonly label: string;
  readonly cliEntry: string;
  /** argv after `p4ina agent`, one per rank. */
  readonly argvByRank: readonly (readonly string[])[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Called whenever a worker finishes, with how many have. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Niceness the workers get above this process's (0: the same); see run-demo.ts for why SwitchML's get more. */
  readonly niceness?: number;
  /**
   * Rejects when the run cannot go on whatever the workers do (the switch
   * they talk to exited): the run stops at once with that error instead of
   * waiting for the workers to give up or for the deadline.
   */
  readonly fatal?: Promise<never>;
}

export function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

function workerFailure(child: TrackedChild, rank: number): string {
  const exit = child.exit();
  const how = exit?.signal ? `was killed by ${exit.signal}` : `exited with status ${exit?.code ?? '?'}`;
  // A typed error's line ("error CODE: message") says it best; the usage printed after it does not.
  const stderr = child.stderr().split('\n').find((line) => line.startsWith('error')) ?? lastLines(child.stderr(), 5);
  return `worker ${rank} ${how}${stderr ? `: ${stderr}` : ''}`;
}

/** Raises a child's niceness by `by` (never refused: lowering a priority needs no privilege); best effort. */
function lowerPriority(pid: number, by: number): void {
  try {
    os.setPriority(pid, Math.min(19, os.getPriority() + by));
  } catch {
    // The child may already have exited; its priority no longer matters.
  }
}

/** Runs the workers; resolves to their outcomes by rank or rejects with a DemoError. Leaves no worker running. */
export async function runWorkers(group: ChildGroup, request: WorkerRunRequest): Promise<WorkerOutcome[]> {
  const children: TrackedChild[] = [];
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    for (const [rank, argv] of request.argvByRank.entries()) {
      const child = await group.spawn({ name: `${request.label}-${rank}`, command: process.execPath, args: [request.cliEntry, 'agent', ...argv] });
      children.push(child);
      if (request.niceness) lowerPriority(child.pid, request.niceness);
    }
    let done = 0;
    const failures = new Promise<never>((_, reject) => {
      children.forEach((child, rank) =>
        void child.exited.then((exit) => {
          if (exit.code === 0) request.onProgress?.(++done, children.length);
          else reject(new DemoError(DEMO_ERROR_CODES.worker, `${request.label}: ${workerFailure(child, rank)}`));
        }),
      );
      timer = setTimeout(() => reject(new DemoError(DEMO_ERROR_CODES.timeout, `${request.label}: the workers did not finish within ${request.timeoutMs / 1000} s`)), request.timeoutMs);
      request.fatal?.catch((err: unknown) => reject(err));
      onAbort = () => reject(new DemoError(DEMO_ERROR_CODES.interrupted, `${request.label}: interrupted`));
      if (request.signal?.aborted) onAbort();
      else request.signal?.addEventListener('abort', onAbort, { once: true });
    });
    // Workers stopped below after the race is settled reject it again: nobody listens then.
    failures.catch(() => {});
    await Promise.race([Promise.all(children.map((c) => c.exited)), failures]);
    const failed = children.findIndex((c) => c.exit()?.code !== 0);
    if (failed >= 0) throw new DemoError(DEMO_ERROR_CODES.worker, `${request.label}: ${workerFailure(children[failed]!, failed)}`);
    return children.map((child, rank) => {
      try {
        return parseWorkerReport(child.stdout());
      } catch (err) {
        throw new DemoError(DEMO_ERROR_CODES.worker, `${request.label}: worker ${rank}: ${(err as Error).message}`);
      }
    });
  } finally {
    clearTimeout(timer);
    if (onAbort) request.signal?.removeEventListener('abort', onAbort);
    // Whatever happened, none of this run's workers may outlive it.
    await group.stop(children);
  }
}
