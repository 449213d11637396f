/**
 * runWorkers with stand-in workers: a small script in place of the CLI that
 * prints a report carrying its own niceness, so the test sees what priority
 * each worker ran at.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ChildGroup, type SpawnRequest, type TrackedChild } from '../../src/demo/child-group.js';
import { runWorkers } from '../../src/demo/worker-runs.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-worker-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Called as `node SCRIPT agent RANK`: prints a valid worker report plus its niceness. */
const script = path.join(dir, 'fake-agent.cjs');
writeFileSync(
  script,
  `const os = require('node:os');
const rank = Number(process.argv[3]);
console.log(JSON.stringify({ rank, resultSha256: 'ab'.repeat(32), iterations: [{ bytes: 8, elapsedMs: 1, retransmissions: 0 }],
  check: { maxAbsError: 0, boundViolations: 0 }, niceness: os.getPriority() }));
`,
);

/** A ChildGroup that remembers its children, to read their output afterwards. */
class RecordingGroup extends ChildGroup {
  readonly started: TrackedChild[] = [];
  override async spawn(request: SpawnRequest): Promise<TrackedChild> {
    const child = await super.spawn(request);
    this.started.push(child);
    return child;
  }
}

async function nicenessOfWorkers(niceness: number | undefined): Promise<number[]> {
  const group = new RecordingGroup();
  try {
    const outcomes = await runWorkers(group, { label: 'fake', cliEntry: script, argvByRank: [['0'], ['1']], timeoutMs: 30_000, niceness });
    expect(outcomes.map((o) => o.rank)).toEqual([0, 1]);
    return group.started.map((c) => (JSON.parse(c.stdout().trim()) as { niceness: number }).niceness);
  } finally {
    await group.close();
  }
}

describe('runWorkers', () => {
  test('workers run at the demo’s priority unless told to be nicer', async () => {
    // runWorkers sets the niceness as soon as the child is spawned; the stand-in reads it only after
    // Node's start-up, which the parent's one system call precedes.
    const own = os.getPriority();
    expect(await nicenessOfWorkers(undefined)).toEqual([own, own]);
    const nicer = Math.min(19, own + 3);
    expect(await nicenessOfWorkers(3)).toEqual([nicer, nicer]);
  });
});
