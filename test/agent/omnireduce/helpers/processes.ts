/**
 * OmniReduce jobs as real processes of the built CLI on 127.0.0.1: an
 * aggregator shard is started and waited for until it announces where it
 * listens; workers are started together. Every child is in the caller's
 * ChildGroup, which ends whatever is left when the test closes it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { OmniReduceAggregatorReport } from '../../../../src/agent/omnireduce/aggregator-main.js';
import type { OmniReduceWorkerReport } from '../../../../src/agent/omnireduce/worker-main.js';
import { JSON_LISTENING } from '../../../../src/demo/announced-child.js';
import type { ChildGroup, TrackedChild } from '../../../../src/demo/child-group.js';
import { builtCliEntry } from '../../../../src/run/package-paths.js';

export const CLI = builtCliEntry();

/** Why the process tests cannot run here, or undefined when they can. */
export function missingBuild(): string | undefined {
  const entry = path.join(path.dirname(CLI), '..', 'agent', 'omnireduce', 'aggregator-main.js');
  return existsSync(CLI) && existsSync(entry) ? undefined : `${entry} is missing (npm run build)`;
}

/** Starts `p4ina agent omnireduce-aggregator … --json` and resolves once it says where it listens. */
export async function startAggregator(group: ChildGroup, name: string, args: readonly string[]): Promise<TrackedChild> {
  let announced: () => void = () => {};
  const listening = new Promise<void>((resolve) => (announced = resolve));
  const child = await group.spawn({
    name,
    command: process.execPath,
    args: [CLI, 'agent', 'omnireduce-aggregator', ...args, '--json'],
    onStdoutLine: (line) => {
      if (JSON_LISTENING.test(line)) announced();
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    listening.then(() => 'listening'),
    child.exited.then(() => 'exited'),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve('silent'), 30_000))),
  ]).finally(() => clearTimeout(timer));
  if (outcome !== 'listening') throw new Error(`aggregator ${name} ${outcome} before it listened: ${child.stderr()}`);
  return child;
}

export function spawnWorker(group: ChildGroup, rank: number, args: readonly string[]): Promise<TrackedChild> {
  return group.spawn({ name: `worker-${rank}`, command: process.execPath, args: [CLI, 'agent', 'omnireduce-worker', ...args, '--json'] });
}

function lastJsonLine(child: TrackedChild): unknown {
  const line = child.stdout().trim().split('\n').at(-1);
  if (line === undefined || !line.startsWith('{')) throw new Error(`${child.name} printed no report; stderr: ${child.stderr()}`);
  return JSON.parse(line);
}

export const workerReport = (child: TrackedChild): OmniReduceWorkerReport => lastJsonLine(child) as OmniReduceWorkerReport;
export const aggregatorReport = (child: TrackedChild): OmniReduceAggregatorReport => lastJsonLine(child) as OmniReduceAggregatorReport;
