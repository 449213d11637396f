// `p4ina demo --elements 256` end to end: switchml.p4 compiled with
// -DSWITCHML_ELEMENTS=256 in the built switch, the controller's job with
// elements_per_packet 256, and worker processes with --elements 256. Every
// worker's result must be, bit for bit, what the tests' own model of
// docs/wire.md (helpers/numbers.ts) derives from the workers' seeded inputs
// with 256 values per packet; the same model with SwitchML's 64 gives other
// bits, so the comparison tells the packet sizes apart.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { seededTensor } from '../../src/agent/baseline/seeded-tensor.js';
import { ChildGroup, type SpawnRequest, type TrackedChild } from '../../src/demo/child-group.js';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../../src/demo/demo-options.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { rowIsExact } from '../../src/report/demo-results.js';
import { expectedSwitchMlResult } from '../agent/switchml/helpers/numbers.js';
import { CLI, isAlive, probeDemoCapability } from './helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/demo/demo-elements-e2e: skipped: ${CLI} is missing: build first (npm run build)`);

/** A group that keeps the children it started, to read each worker's report afterwards. */
class RecordingGroup extends ChildGroup {
  readonly started: TrackedChild[] = [];
  override async spawn(request: SpawnRequest): Promise<TrackedChild> {
    const child = await super.spawn(request);
    this.started.push(child);
    return child;
  }
}

let group: RecordingGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

const sha256 = (values: Float32Array): string => createHash('sha256').update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)).digest('hex');

describe.runIf(built)('p4ina demo --elements 256 through the built switch', () => {
  beforeAll(async () => {
    const probe = await probeDemoCapability();
    if (!probe.ok) throw new Error(`the build cannot run the demo: ${probe.reason}`);
  }, 90_000);

  test('3 workers, 25,000 values each (the last packet part-filled): every result is the model\'s for 256 values per packet', async () => {
    const E = 256;
    const length = 25_000;
    const options: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, algorithms: ['switchml'], workers: 3, tensorBytes: 4 * length, poolSize: 16, switchMlElements: E, seed: 'elements-256', runTimeoutMs: 120_000 };
    group = new RecordingGroup();
    const outcome = await runDemo(options, { cliEntry: CLI, children: group });
    expect(group.allPids().filter(isAlive)).toEqual([]);

    expect(outcome.rows.map((r) => [r.algorithm, r.workers, r.bytes, rowIsExact(r)])).toEqual([['switchml', 3, 4 * length, true]]);
    const tensors = [0, 1, 2].map((rank) => seededTensor(length, options.seed, rank));
    const expected = sha256(expectedSwitchMlResult(tensors, E));
    expect(sha256(expectedSwitchMlResult(tensors, 64))).not.toBe(expected);
    const reports = group.started
      .filter((c) => c.name.startsWith('switchml-'))
      .map((c) => JSON.parse(c.stdout().trim().split('\n').at(-1)!) as { rank: number; resultSha256: string; iterations: { chunks: number }[] });
    expect(reports.map((r) => r.rank).sort()).toEqual([0, 1, 2]);
    for (const report of reports) {
      expect(report.iterations.at(-1)!.chunks).toBe(Math.ceil(length / E));
      expect(report.resultSha256).toBe(expected);
    }
  }, 180_000);
});
