/**
 * Every algorithm's worker takes the same --sparsity/--pattern/--sparse-block,
 * with its own error type, so that a density sweep can give every worker the
 * same block-sparse tensors.
 */
import { describe, expect, test } from 'vitest';
import { parseAtpWorkerArgs } from '../../../src/agent/atp/worker-args.js';
import { parseSparsity, sparsityArgs } from '../../../src/agent/baseline/sparsity-args.js';
import { parseWorkerArgv, workerArgs } from '../../../src/agent/baseline/worker-args.js';
import { parseRinaWorkerArgs } from '../../../src/agent/rina/worker-args.js';
import { parseSwitchMlWorkerArgs } from '../../../src/agent/switchml/worker-args.js';

const SPARSE = ['--sparsity', '0.9', '--pattern', 'clustered', '--sparse-block', '64'];
const EXPECTED = { sparsity: 0.9, pattern: 'clustered', blockElements: 64 };
const fail = (message: string): Error => new Error(`bad: ${message}`);

describe('sparsity options', () => {
  test('absent: dense (undefined); any one given: the others default', () => {
    expect(parseSparsity({}, fail)).toBeUndefined();
    expect(parseSparsity({ sparsity: '0.5' }, fail)).toEqual({ sparsity: 0.5, pattern: 'random', blockElements: 256 });
    expect(parseSparsity({ pattern: 'per-worker' }, fail, 32)).toEqual({ sparsity: 0, pattern: 'per-worker', blockElements: 32 });
  });

  test.each([
    [{ sparsity: '1.5' }, /--sparsity must be a share/],
    [{ sparsity: '-0.1' }, /--sparsity/],
    [{ sparsity: 'lots' }, /--sparsity/],
    [{ pattern: 'striped' }, /--pattern must be one of random, clustered, per-worker, shared/],
    [{ 'sparse-block': '0' }, /--sparse-block must be an integer in 1..65535/],
    [{ 'sparse-block': '70000' }, /--sparse-block/],
  ])('%o is refused', (values, message) => {
    expect(() => parseSparsity(values, fail)).toThrow(message);
  });

  test('sparsityArgs gives back what parseSparsity reads', () => {
    const args = sparsityArgs({ sparsity: 0.99, pattern: 'per-worker', blockElements: 128 });
    const values = Object.fromEntries(Array.from({ length: args.length / 2 }, (_, i) => [args[2 * i]!.slice(2), args[2 * i + 1]!]));
    expect(parseSparsity(values, fail)).toEqual({ sparsity: 0.99, pattern: 'per-worker', blockElements: 128 });
    expect(sparsityArgs(undefined)).toEqual([]);
  });

  test('switchml, atp, rina and the TCP baselines all take them, and refuse bad ones with their own code', () => {
    const switchml = ['--job', '3', '--worker', '1', '--workers', '2', '--pool', '8', '--transport', 'udp', '--local', '10.0.0.2:40001', '--switch', '10.0.0.254'];
    const atp = ['--local', '10.0.1.2:48896', '--ps', '10.0.9.1', '--job', '4', '--rank', '1', '--workers', '3', '--pool', '1024', '--bitmap1-bit', '2', '--fan-in1', '3'];
    const rina = ['--member', 'worker:127.0.0.1:5000', '--member', 'worker:127.0.0.1:5001', '--position', '0', '--rank', '0', '--job', '9', '--pool', '4'];
    expect(parseSwitchMlWorkerArgs([...switchml, ...SPARSE])?.sparsity).toEqual(EXPECTED);
    expect(parseAtpWorkerArgs([...atp, ...SPARSE])?.sparsity).toEqual(EXPECTED);
    expect(parseRinaWorkerArgs([...rina, ...SPARSE])?.sparsity).toEqual(EXPECTED);
    expect(workerArgs(parseWorkerArgv(['--rank', '0', '--world', '2', ...SPARSE], {}), 8).sparsity).toEqual(EXPECTED);
    expect(() => parseSwitchMlWorkerArgs([...switchml, '--sparsity', '2'])).toThrow(expect.objectContaining({ code: 'SWITCHML_BAD_CONFIG' }));
    expect(() => parseAtpWorkerArgs([...atp, '--pattern', 'x'])).toThrow(expect.objectContaining({ code: 'ATP_BAD_CONFIG' }));
    expect(() => parseRinaWorkerArgs([...rina, '--sparse-block', 'x'])).toThrow(expect.objectContaining({ code: 'RINA_BAD_CONFIG' }));
    expect(() => workerArgs(parseWorkerArgv(['--rank', '0', '--world', '2', '--sparsity', '9'], {}), 8)).toThrow(expect.objectContaining({ code: 'BASELINE_BAD_CONFIG' }));
  });
});
