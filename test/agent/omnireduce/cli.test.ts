// The command lines of `p4ina agent omnireduce-worker` and
// `omnireduce-aggregator`: what they parse to, and every bad flag refused
// with OMNIREDUCE_BAD_CONFIG naming it (exit 2, in this process and as a
// process of the built CLI).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseOmniReduceAggregatorArgs } from '../../../src/agent/omnireduce/aggregator-args.js';
import { omniReduceAggregatorCommand } from '../../../src/agent/omnireduce/aggregator-main.js';
import { parseOmniReduceWorkerArgs } from '../../../src/agent/omnireduce/worker-args.js';
import { omniReduceWorkerCommand } from '../../../src/agent/omnireduce/worker-main.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import { CLI, missingBuild } from './helpers/processes.js';

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

const refusal = (parse: () => unknown): string => {
  try {
    parse();
    return 'accepted';
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return `${e.code}: ${e.message}`;
  }
};

const WORKER = ['--local', '127.0.0.1:4001', '--rank', '1', '--workers', '3', '--aggregator', '127.0.0.1:5000@0+4'];
const AGGREGATOR = ['--listen', '127.0.0.1:0', '--workers', '127.0.0.1:4000,127.0.0.1:4001', '--slots', '8'];

describe('omnireduce-worker arguments', () => {
  it('reads the shards from a comma list or repeated flags, with the defaults of the usage', () => {
    const a = parseOmniReduceWorkerArgs([...WORKER.slice(0, 6), '--aggregator', '127.0.0.1:5000@0+4,127.0.0.1:5001@4+2']);
    const b = parseOmniReduceWorkerArgs([...WORKER.slice(0, 6), '--aggregator', '127.0.0.1:5000@0+4', '--aggregator', '127.0.0.1:5001@4+2']);
    expect(a).toEqual(b);
    expect(a).toMatchObject({
      localAddress: '127.0.0.1', localPort: 4001, rank: 1, worldSize: 3, blockSize: 256, zeroThreshold: 0, sparsity: undefined, wire: undefined,
      timing: 'loopback', length: 1_048_576, seed: 1, iterations: 1, check: false, json: false,
      aggregators: [{ address: { address: '127.0.0.1', port: 5000 }, firstSlot: 0, slotCount: 4 }, { address: { address: '127.0.0.1', port: 5001 }, firstSlot: 4, slotCount: 2 }],
    });
  });

  it('takes the pattern\'s block from --block-size unless --sparse-block says otherwise', () => {
    expect(parseOmniReduceWorkerArgs([...WORKER, '--block-size', '64', '--sparsity', '0.9', '--pattern', 'clustered'])?.sparsity).toEqual({ sparsity: 0.9, pattern: 'clustered', blockElements: 64 });
    expect(parseOmniReduceWorkerArgs([...WORKER, '--block-size', '64', '--sparsity', '0.9', '--sparse-block', '16'])?.sparsity).toEqual({ sparsity: 0.9, pattern: 'random', blockElements: 16 });
    expect(parseOmniReduceWorkerArgs([...WORKER, '--zero-threshold', '1e-3'])?.zeroThreshold).toBe(0.001);
  });

  it.each([
    [[...WORKER.slice(0, 6)], /OMNIREDUCE_BAD_CONFIG: --aggregator is required/],
    [[...WORKER.slice(0, 6), '--aggregator', '127.0.0.1:5000'], /--aggregator must be ADDR:PORT@FIRST\+COUNT/],
    [[...WORKER.slice(0, 6), '--aggregator', '127.0.0.1:5000@1+4'], /--aggregator: .*shards must cover 0..S−1/],
    [[...WORKER.slice(0, 6), '--aggregator', '127.0.0.1:5000@0+4,127.0.0.1:5001@3+2'], /--aggregator: .*shards must cover 0..S−1/],
    [[...WORKER.slice(0, 6), '--aggregator', 'agg:5000@0+4'], /--aggregator must be ADDRESS:PORT/],
    [[...WORKER.slice(0, 6), '--aggregator', '[::1]:5000@0+4'], /--aggregator ::1 is not of --local's IP family/],
    [[...WORKER.slice(2)], /--local is required/],
    [[...WORKER, '--rank', '3'], /--rank must be an integer in 0..2/],
    [[...WORKER, '--block-size', '366'], /--block-size must be an integer in 1..365/],
    [[...WORKER, '--zero-threshold=-1'], /--zero-threshold must be a number ≥ 0/],
    [[...WORKER, '--sparsity', '1.5'], /--sparsity must be a share of zero blocks from 0 to 1/],
    [[...WORKER, '--pattern', 'striped'], /--pattern must be one of random, clustered, per-worker/],
    [[...WORKER, '--timing', 'lan'], /--timing must be loopback or mininet/],
    [[...WORKER, '--transport', 'wire'], /--local must be an IPv4 address and a port other than 0 with --transport wire|--peer is required/],
    [[...WORKER, '--peer', '127.0.0.1:9'], /--peer is for --transport wire only/],
    [[...WORKER, '--nope'], /Unknown option '--nope'/],
  ])('%j is refused', (argv, message) => {
    expect(refusal(() => parseOmniReduceWorkerArgs(argv))).toMatch(/^OMNIREDUCE_BAD_CONFIG: /);
    expect(refusal(() => parseOmniReduceWorkerArgs(argv))).toMatch(message);
  });

  it('exits 2 with the error and the usage for bad arguments, 0 with the usage for --help', async () => {
    const io = captureIo();
    expect(await omniReduceWorkerCommand([...WORKER, '--block-size', '0'], io)).toBe(2);
    expect(io.errors[0]).toMatch(/^error OMNIREDUCE_BAD_CONFIG: --block-size/);
    expect(io.errors[1]).toMatch(/^usage: omnireduce-worker/);
    const help = captureIo();
    expect(await omniReduceWorkerCommand(['--help'], help)).toBe(0);
    expect(help.lines[0]).toMatch(/^usage: omnireduce-worker/);
  });
});

describe('omnireduce-aggregator arguments', () => {
  it('reads the workers in rank order, the slots and the block size', () => {
    expect(parseOmniReduceAggregatorArgs([...AGGREGATOR, '--workers', '127.0.0.1:4002', '--first-slot', '8', '--block-size', '64', '--json'])).toMatchObject({
      listenAddress: '127.0.0.1', listenPort: 0, wire: undefined, firstSlot: 8, slotCount: 8, blockSize: 64, json: true,
      workers: [4000, 4001, 4002].map((port) => ({ family: 4, address: '127.0.0.1', port })),
    });
  });

  it.each([
    [['--workers', '127.0.0.1:4000', '--slots', '1'], /--listen is required/],
    [AGGREGATOR.slice(0, 2).concat(['--slots', '1']), /--workers is required/],
    [AGGREGATOR.slice(0, 4), /--slots is required/],
    [[...AGGREGATOR.slice(0, 4), '--slots', '0'], /--slots must be an integer in 1..32768/],
    [[...AGGREGATOR, '--first-slot', '32767'], /--slots must be an integer in 1..1/],
    [[...AGGREGATOR, '--workers', '127.0.0.1:4000'], /--workers lists 127.0.0.1:4000 twice/],
    [[...AGGREGATOR, '--workers', '[::1]:4000'], /--workers: \[::1\]:4000 is not of --listen's IP family/],
    [[...AGGREGATOR, '--block-size', 'x'], /--block-size must be an integer/],
    [[...AGGREGATOR, '--transport', 'wire'], /--listen must be an IPv4 address and a port other than 0 with --transport wire/],
    [[...AGGREGATOR, '--gateway-mac', '02:00:00:00:00:01'], /--gateway-mac is for --transport wire only/],
  ])('%j is refused', (argv, message) => {
    expect(refusal(() => parseOmniReduceAggregatorArgs(argv))).toMatch(/^OMNIREDUCE_BAD_CONFIG: /);
    expect(refusal(() => parseOmniReduceAggregatorArgs(argv))).toMatch(message);
  });

  it('exits 2 with the error and the usage for bad arguments', async () => {
    const io = captureIo();
    expect(await omniReduceAggregatorCommand([...AGGREGATOR.slice(0, 4), '--slots', 'many'], io)).toBe(2);
    expect(io.errors[0]).toMatch(/^error OMNIREDUCE_BAD_CONFIG: --slots/);
    expect(io.errors[1]).toMatch(/^usage: omnireduce-aggregator/);
  });
});

describe.skipIf(missingBuild() !== undefined)('bad flags to the built CLI', () => {
  it.each([
    ['omnireduce-worker', [...WORKER, '--sparsity', 'most'], '--sparsity'],
    ['omnireduce-aggregator', [...AGGREGATOR, '--first-slot=-1'], '--first-slot'],
  ])('%s exits 2 naming %j\'s bad flag', (kind, argv, flag) => {
    const run = spawnSync(process.execPath, [CLI, 'agent', kind, ...argv], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(new RegExp(`^error OMNIREDUCE_BAD_CONFIG: ${flag}`));
  });
});
