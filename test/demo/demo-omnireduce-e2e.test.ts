// `p4ina demo --algorithm omnireduce` end to end: the built switch running
// p4/omnireduce.p4, the built OmniReduce aggregator and workers as processes
// on 127.0.0.1, programmed by the controller over gRPC. Each result is held
// against numbers derived here: the exact integer sum of SwitchML's scale
// rule with the block as the chunk (docs/omnireduce.md; its SHA-256 must be
// every worker's) over the block-sparse seeded tensors rebuilt here, and the
// bytes a worker can have sent at that density. Skipped only with no build.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { sparseSeededTensor, type Sparsity } from '../../src/agent/baseline/sparse-tensor.js';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../../src/demo/demo-options.js';
import { runDemo, type DemoOutcome } from '../../src/demo/run-demo.js';
import { rowIsExact } from '../../src/report/demo-results.js';
import { expectedSwitchMlResult } from '../agent/switchml/helpers/numbers.js';
import { CLI, demoTempDirs, isAlive, probeDemoCapability, WatchedGroup } from './helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/demo/demo-omnireduce-e2e: skipped: ${CLI} is missing: build first (npm run build)`);


let group: WatchedGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

async function demo(options: DemoOptions): Promise<{ outcome: DemoOutcome; digests: Map<string, string[]> }> {
  group = new WatchedGroup();
  const before = new Set(demoTempDirs());
  const outcome = await runDemo(options, { cliEntry: CLI, children: group });
  // Nothing outlives the run: switches, the aggregator and the workers are gone, and so are the temp dirs.
  expect(group.livePids()).toEqual([]);
  expect(group.allPids().filter(isAlive)).toEqual([]);
  expect(demoTempDirs().filter((d) => !before.has(d))).toEqual([]);
  const digests = new Map<string, string[]>();
  for (const algorithm of options.algorithms) {
    const workers = group.started.filter((c) => new RegExp(`^${algorithm}-\\d+$`).test(c.name));
    digests.set(algorithm, workers.map((c) => (JSON.parse(c.stdout().trim().split('\n').at(-1)!) as { resultSha256: string }).resultSha256));
  }
  return { outcome, digests };
}

function expectedSha(options: DemoOptions, block: number): string {
  const length = options.tensorBytes / 4;
  const tensors = Array.from({ length: options.workers }, (_, rank) => sparseSeededTensor(length, options.seed, rank, options.workers, options.sparsity!));
  const exact = expectedSwitchMlResult(tensors, block);
  return createHash('sha256').update(new Uint8Array(exact.buffer, exact.byteOffset, exact.byteLength)).digest('hex');
}

const SPARSE: Sparsity = { sparsity: 0.9, pattern: 'random', blockElements: 256 };
const BASE: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, workers: 3, tensorBytes: 256 * 1024, sparsity: SPARSE, poolSize: 8, runTimeoutMs: 240_000 };

describe.runIf(built)('p4ina demo --algorithm omnireduce through the built switch and agents', () => {
  beforeAll(async () => {
    const probe = await probeDemoCapability();
    if (!probe.ok) throw new Error(`the build cannot run the demo: ${probe.reason}`);
  }, 90_000);

  test('90% zero blocks, host aggregator beside dense SwitchML: both exact on the same tensors; OmniReduce sends a fraction of the bytes', async () => {
    const options: DemoOptions = { ...BASE, algorithms: ['omnireduce', 'switchml'], seed: 'omr-demo' };
    const { outcome, digests } = await demo(options);
    const [omni, switchml] = outcome.rows;
    expect(omni).toMatchObject({ algorithm: 'omnireduce', workers: 3, identical: true, boundViolations: 0, failure: undefined });
    expect(rowIsExact(omni!)).toBe(true);
    expect(digests.get('omnireduce')).toEqual(Array(3).fill(expectedSha(options, 256)));
    // SwitchML reduced the same sparse tensors (its chunk is its values per packet, the demo's default).
    expect(rowIsExact(switchml!)).toBe(true);
    expect(digests.get('switchml')).toEqual(Array(3).fill(expectedSha(options, options.switchMlElements)));
    // 10% of the blocks carry values: a worker sends its ~26 blocks of 1 KiB, a priming and a value-less
    // message per round it holds nothing for, and every frame's headers — far below SwitchML's every value.
    const dense = options.tensorBytes;
    expect(omni!.sentPerWorker!).toBeLessThan(0.4 * dense);
    expect(switchml!.sentPerWorker!).toBeGreaterThan(dense);
  }, 300_000);

  test('the switch aggregates (omnireduce.p4, blocks of 128), per-worker pattern, 5% seeded loss on every wire: exact on every worker', async () => {
    const options: DemoOptions = { ...BASE, algorithms: ['omnireduce-switch'], tensorBytes: 128 * 1024, loss: 0.05, seed: 'omr-switch', sparsity: { ...SPARSE, pattern: 'per-worker' } };
    const { outcome, digests } = await demo(options);
    const [row] = outcome.rows;
    expect(rowIsExact(row!)).toBe(true);
    // 128 is the largest block omnireduce.p4 takes that divides the pattern's 256: zero blocks stay whole blocks.
    expect(digests.get('omnireduce-switch')).toEqual(Array(3).fill(expectedSha(options, 128)));
    expect(outcome.framesLost).toBeGreaterThan(0);
    expect(row!.retransmissions).toBeGreaterThan(0);
  }, 300_000);
});
