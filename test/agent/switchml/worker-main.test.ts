import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import { parseSwitchMlWorkerArgs } from '../../../src/agent/switchml/worker-args.js';
import { switchMlWorkerCommand, switchMlWorkerMain, type SwitchMlWorkerReport } from '../../../src/agent/switchml/worker-main.js';
import { openUdpHandles } from '../transport/helpers.js';
import { expectedSwitchMlResult } from './helpers/numbers.js';
import { KernelUdpTestSwitch } from './helpers/udp-test-switch.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  expect(await openUdpHandles()).toEqual([]);
});

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

const badConfigOf = (argv: string[]): string | undefined => {
  try {
    parseSwitchMlWorkerArgs(argv);
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

const BASE = ['--job', '3', '--worker', '1', '--workers', '2', '--pool', '8'];

describe('switchml worker arguments', () => {
  test('kernel UDP, with the switch port defaulting to 0xBEE0', () => {
    expect(parseSwitchMlWorkerArgs([...BASE, '--transport', 'udp', '--local', '10.0.0.2:40001', '--switch', '10.0.0.254', '--check', '--seed', '42'])).toEqual({
      transport: { kind: 'udp', localAddress: '10.0.0.2', localPort: 40001, switchAddress: '10.0.0.254', switchPort: 0xbee0 },
      jobId: 3,
      workerId: 1,
      numWorkers: 2,
      poolSize: 8,
      elementsPerPacket: 64,
      timing: 'loopback',
      timeoutMs: undefined,
      maxRetries: undefined,
      epoch: 0,
      length: 1048576,
      seed: 42,
      sparsity: undefined,
      iterations: 1,
      check: true,
      json: false,
    });
  });

  test('UDP wire with static addresses', () => {
    const args = [...BASE, '--transport', 'wire', '--peer', '127.0.0.1:9001', '--mac', '02:00:00:00:00:02', '--ip', '10.0.0.2', '--udp-port', '40001'];
    expect(parseSwitchMlWorkerArgs([...args, '--switch-mac', '02:00:00:00:00:fe', '--switch-ip', '10.0.0.254', '--no-udp-checksum', '--timing', 'mininet'])).toMatchObject({
      transport: {
        kind: 'wire',
        peerAddress: '127.0.0.1',
        peerPort: 9001,
        host: { mac: '02:00:00:00:00:02', ip: '10.0.0.2', udpPort: 40001 },
        remote: { mac: '02:00:00:00:00:fe', ip: '10.0.0.254', udpPort: 0xbee0 },
        udpChecksum: false,
      },
      timing: 'mininet',
    });
  });

  test.each([
    [['--transport', 'udp', '--local', '127.0.0.1:0', '--switch', '127.0.0.1']],
    [[...BASE]],
    [[...BASE, '--transport', 'tcp']],
    [[...BASE, '--transport', 'udp', '--local', 'localhost:1', '--switch', '127.0.0.1']],
    [[...BASE, '--transport', 'udp', '--local', '127.0.0.1:0']],
    [[...BASE, '--transport', 'wire', '--peer', '127.0.0.1:9', '--mac', 'x', '--ip', 'y', '--udp-port', '1']],
    [['--job', '3', '--worker', '2', '--workers', '2', '--pool', '8', '--transport', 'udp', '--local', '127.0.0.1:0', '--switch', '127.0.0.1']],
    [[...BASE, '--transport', 'udp', '--local', '127.0.0.1:0', '--switch', '127.0.0.1', '--timing', 'fast']],
    [[...BASE, '--transport', 'udp', '--local', '127.0.0.1:0', '--switch', '127.0.0.1', '--bogus']],
  ])('%j is SWITCHML_BAD_CONFIG', (argv) => {
    expect(badConfigOf(argv)).toBe('SWITCHML_BAD_CONFIG');
  });

  test('--help prints the usage and exits 0; bad arguments exit 2', async () => {
    const io = captureIo();
    expect(await switchMlWorkerCommand(['--help'], io)).toBe(0);
    expect(io.lines[0]).toMatch(/^usage: switchml-worker/);
    const bad = captureIo();
    expect(await switchMlWorkerCommand(['--transport', 'x'], bad)).toBe(2);
    expect(bad.errors[0]).toMatch(/^error SWITCHML_BAD_CONFIG/);
  });
});

describe('switchMlWorkerMain over kernel UDP', () => {
  test('two workers reduce the seeded tensors; identical digests, no bound violation', async () => {
    const sw = await KernelUdpTestSwitch.open([{ jobId: 3, slotBase: 0, poolSize: 8, workerIds: [0, 1] }]);
    cleanups.push(() => sw.close());
    const ios = [captureIo(), captureIo()];
    const codes = await Promise.all(
      [0, 1].map((workerId) =>
        switchMlWorkerMain(
          {
            transport: { kind: 'udp', localAddress: '127.0.0.1', localPort: 0, switchAddress: '127.0.0.1', switchPort: sw.port },
            jobId: 3,
            workerId,
            numWorkers: 2,
            poolSize: 8,
            length: 5000,
            seed: 9,
            iterations: 2,
            check: true,
            json: true,
            timeoutMs: 50,
          },
          ios[workerId],
        ),
      ),
    );
    expect(codes).toEqual([0, 0]);
    const reports = ios.map((io) => JSON.parse(io.lines[0]!) as SwitchMlWorkerReport);
    // The digest of the result re-derived by the test's own model of docs/wire.md
    // (helpers/numbers.ts) from the workers' inputs (seed 9, rank 0 and 1), not
    // only the two workers agreeing with each other.
    const expected = expectedSwitchMlResult([seededTensor(5000, 9, 0), seededTensor(5000, 9, 1)], 64);
    const expectedSha = createHash('sha256').update(new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength)).digest('hex');
    expect(reports.map((r) => r.resultSha256)).toEqual([expectedSha, expectedSha]);
    for (const report of reports) {
      expect(report).toMatchObject({ algorithm: 'switchml', worldSize: 2, jobId: 3, length: 5000, check: { boundViolations: 0 } });
      expect(report.iterations.map((s) => s.epoch)).toEqual([0, 1]);
      expect(report.transport.datagramsOut).toBeGreaterThanOrEqual(2 * (79 + 8));
    }
  });

  test('no switch: exit 1 with the typed error, sockets closed', async () => {
    const io = captureIo();
    const code = await switchMlWorkerMain(
      {
        transport: { kind: 'udp', localAddress: '127.0.0.1', localPort: 0, switchAddress: '127.0.0.1', switchPort: 9 },
        jobId: 1,
        workerId: 0,
        numWorkers: 1,
        poolSize: 2,
        length: 10,
        seed: 1,
        iterations: 1,
        check: false,
        json: false,
        timeoutMs: 1,
        maxRetries: 2,
      },
      io,
    );
    expect(code).toBe(1);
    expect(io.errors[0]).toMatch(/^error SWITCHML_TIMEOUT: no result for packet/);
  });
});
