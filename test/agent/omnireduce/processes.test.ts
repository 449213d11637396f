// `p4ina agent omnireduce-aggregator` and `omnireduce-worker` as real processes
// over the kernel's UDP on 127.0.0.1 (and one over a UDP wire): exact results
// (the digest of the sum re-derived here from the inputs by the SwitchML
// tests' own quantisation, a block being a chunk), the blocks each worker
// sent counted here from its tensor, and clean failures when the job cannot
// finish. No child outlives its test.
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { workerTensor, type SparsityPattern } from '../../../src/agent/baseline/sparse-tensor.js';
import { ChildGroup, waitExit, type TrackedChild } from '../../../src/demo/child-group.js';
import { parseWorkerReport } from '../../../src/report/demo-results.js';
import { omniReduceLength } from '../../../src/wire/omnireduce.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { expectedSwitchMlResult } from '../switchml/helpers/numbers.js';
import { aggregatorReport, missingBuild, spawnWorker, startAggregator, workerReport } from './helpers/processes.js';

const missing = missingBuild();
if (missing !== undefined) console.warn(`omnireduce processes: skipped: ${missing}`);

const sha256Of = (a: Float32Array): string => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
const at = (port: number): string => `127.0.0.1:${port}`;

interface JobInput {
  readonly workers: number;
  readonly length: number;
  readonly blockSize: number;
  readonly sparsity: number;
  readonly pattern: SparsityPattern;
  readonly seed: number;
}

function inputs(job: JobInput): Float32Array[] {
  return Array.from({ length: job.workers }, (_, rank) => workerTensor(job.length, job.seed, rank, job.workers, { sparsity: job.sparsity, pattern: job.pattern, blockElements: job.blockSize }));
}

/** Blocks a worker must send: those with a non-zero element, and the first block of every slot. */
function blocksToSend(t: Float32Array, blockSize: number, slots: number): number {
  let n = 0;
  for (let b = 0; b * blockSize < t.length; b++) if (b < slots || t.subarray(b * blockSize, (b + 1) * blockSize).some((x) => x !== 0)) n++;
  return n;
}

function workerArgs(job: JobInput, rank: number, ports: readonly number[], aggregators: readonly string[], extra: readonly string[] = []): string[] {
  return [
    '--local', at(ports[rank]!), '--rank', String(rank), '--workers', String(job.workers), '--aggregator', aggregators.join(','),
    '--block-size', String(job.blockSize), '--sparsity', String(job.sparsity), '--pattern', job.pattern,
    '--length', String(job.length), '--seed', String(job.seed), '--check', ...extra,
  ];
}

async function exitAll(children: readonly TrackedChild[]): Promise<void> {
  const exited = await Promise.all(children.map((c) => waitExit(c, 60_000)));
  expect(exited, children.map((c) => `${c.name}: ${c.stderr()}`).join('\n')).toEqual(children.map(() => true));
}

describe.skipIf(missing !== undefined)('OmniReduce as processes', () => {
  let group: ChildGroup | undefined;
  afterEach(async () => {
    expect(group?.livePids() ?? [], 'children still running').toEqual([]);
    await group?.close();
    group = undefined;
  });

  it('4 workers and 1 aggregator, 10% random: exact, identical, far fewer bytes than dense; a stranger\'s datagram is dropped and counted', async () => {
    group = new ChildGroup();
    const job: JobInput = { workers: 4, length: 262_144, blockSize: 256, sparsity: 0.9, pattern: 'random', seed: 5 };
    const slots = 8;
    const [aggPort, ...ports] = await testUdpPorts(5);
    const aggregator = await startAggregator(group, 'aggregator', ['--listen', at(aggPort!), '--workers', ports.map(at).join(','), '--slots', String(slots)]);
    // A malformed datagram from a socket that is no worker of the job, before the job starts.
    const stranger = createSocket('udp4');
    await new Promise<void>((resolve, reject) => stranger.send(Buffer.from('not omnireduce'), aggPort!, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
    await new Promise<void>((resolve) => stranger.close(() => resolve()));

    const workers = await Promise.all(ports.map((_, r) => spawnWorker(group!, r, workerArgs(job, r, ports, [`${at(aggPort!)}@0+${slots}`], ['--iterations', '2']))));
    await exitAll(workers);
    expect(workers.map((w) => [w.exit()?.code, w.stderr()])).toEqual(workers.map(() => [0, '']));
    await group.stop([aggregator]);
    expect(aggregator.exit()?.code).toBe(0);

    const tensors = inputs(job);
    const expected = sha256Of(expectedSwitchMlResult(tensors, job.blockSize));
    const reports = workers.map(workerReport);
    const denseMinimum = Math.ceil(job.length / job.blockSize) * omniReduceLength(job.blockSize);
    reports.forEach((r, rank) => {
      expect(parseWorkerReport(workers[rank]!.stdout())).toMatchObject({ rank, resultSha256: expected, boundViolations: 0, bytes: 4 * job.length });
      expect(r.iterations).toHaveLength(2);
      for (const call of r.iterations) {
        expect(call).toMatchObject({ blocks: 1024, blocksSent: blocksToSend(tensors[rank]!, job.blockSize, slots) });
        // Dense, every block goes at least once: a quarter of that is far above 10% of the blocks plus the slots' first ones.
        expect(call.payloadBytesSent).toBeLessThan(denseMinimum / 4);
        expect(call.bytesSent).toBeLessThan(denseMinimum / 4);
      }
    });
    const agg = aggregatorReport(aggregator);
    expect(agg.counters.invalid).toBe(1);
    expect(agg.waiting).toEqual([]);
  }, 90_000);

  it.each(['clustered', 'per-worker'] as const)('3 workers and 2 aggregator shards, %s blocks, a tensor not a multiple of the block: exact and identical', async (pattern) => {
    group = new ChildGroup();
    const job: JobInput = { workers: 3, length: 50_001, blockSize: 128, sparsity: 0.8, pattern, seed: 9 };
    const [a0, a1, ...ports] = await testUdpPorts(5);
    const workerList = ports.map(at).join(',');
    const shards = await Promise.all([
      startAggregator(group, 'shard-0', ['--listen', at(a0!), '--workers', workerList, '--first-slot', '0', '--slots', '5', '--block-size', '128']),
      startAggregator(group, 'shard-1', ['--listen', at(a1!), '--workers', workerList, '--first-slot', '5', '--slots', '3', '--block-size', '128']),
    ]);
    const workers = await Promise.all(ports.map((_, r) => spawnWorker(group!, r, workerArgs(job, r, ports, [`${at(a0!)}@0+5`, `${at(a1!)}@5+3`]))));
    await exitAll(workers);
    expect(workers.map((w) => [w.exit()?.code, w.stderr()])).toEqual(workers.map(() => [0, '']));
    await group.stop(shards);
    expect(shards.map((s) => s.exit()?.code)).toEqual([0, 0]);
    const expected = sha256Of(expectedSwitchMlResult(inputs(job), job.blockSize));
    expect(workers.map((w) => parseWorkerReport(w.stdout())).map((o) => [o.resultSha256, o.boundViolations])).toEqual(workers.map(() => [expected, 0]));
    // Both shards did rounds, and finished every one they started.
    expect(shards.map(aggregatorReport).map((r) => [r.counters.rounds > 0, r.waiting])).toEqual([[true, []], [true, []]]);
  }, 90_000);

  it('a worker that never starts: the others fail with OMNIREDUCE_TIMEOUT and exit 1; the aggregator names whom it waited for', async () => {
    group = new ChildGroup();
    const job: JobInput = { workers: 3, length: 4096, blockSize: 64, sparsity: 0.5, pattern: 'random', seed: 2 };
    const [aggPort, ...ports] = await testUdpPorts(4);
    const aggregator = await startAggregator(group, 'aggregator', ['--listen', at(aggPort!), '--workers', ports.map(at).join(','), '--slots', '4', '--block-size', '64']);
    const running = await Promise.all([0, 1].map((r) => spawnWorker(group!, r, workerArgs(job, r, ports, [`${at(aggPort!)}@0+4`], ['--timeout', '20', '--max-retries', '3']))));
    await exitAll(running);
    for (const w of running) {
      expect(w.exit()?.code).toBe(1);
      expect(w.stderr()).toMatch(/^error OMNIREDUCE_TIMEOUT: worker \d: aggregator 127\.0\.0\.1:\d+ did not answer slot \d \(the priming round\) through 3 retransmissions/);
    }
    await group.stop([aggregator]);
    expect(aggregator.exit()?.code).toBe(0);
    expect(aggregatorReport(aggregator).waiting).toEqual([0, 1, 2, 3].map((slot) => ({ slot, tsi: slot * 64, ranks: [2] })));
  }, 90_000);
});
