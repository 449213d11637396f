import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { atpPsCommand, parseAtpPsArgs, type AtpPsReport } from '../../../src/agent/atp/ps-main.js';
import { parseAtpWorkerArgs } from '../../../src/agent/atp/worker-args.js';
import { atpWorkerCommand, atpWorkerMain, type AtpWorkerReport } from '../../../src/agent/atp/worker-main.js';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import { runAgent } from '../../../src/cli/agent-command.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { openUdpHandles } from '../transport/helpers.js';
import { expectedAtp } from './helpers/numbers.js';

afterEach(async () => {
  expect(await openUdpHandles()).toEqual([]);
});

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

const codeOf = (parse: () => unknown): string | undefined => {
  try {
    parse();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

const WORKER = ['--local', '10.0.1.2:48896', '--ps', '10.0.9.1', '--job', '4', '--rank', '1', '--workers', '3', '--pool', '1024'];

describe('atp-worker and atp-ps arguments', () => {
  test('a worker of an aggregating rack and one of a legacy rack; the PS port defaults to 0xBF00', () => {
    expect(parseAtpWorkerArgs([...WORKER, '--bitmap0-bit', '1', '--fan-in0', '2', '--bitmap1-bit', '0', '--fan-in1', '2', '--range', '256', '--check'])).toMatchObject({
      localAddress: '10.0.1.2',
      localPort: 48896,
      psAddress: '10.0.9.1',
      psPort: 0xbf00,
      jobId: 4,
      rank: 1,
      worldSize: 3,
      poolSize: 1024,
      bitmap0Bit: 1,
      fanIn0: 2,
      bitmap1Bit: 0,
      fanIn1: 2,
      valueRange: 256,
      elementsPerPacket: 64,
      maxWindow: 100,
      check: true,
    });
    expect(parseAtpWorkerArgs([...WORKER, '--bitmap1-bit', '2', '--fan-in1', '3'])).toMatchObject({ bitmap0Bit: undefined, fanIn0: 0, bitmap1Bit: 2 });
    expect(parseAtpPsArgs(['--listen', '127.0.0.1:0', '--job', '4', '--pool', '64', '--rack', 'ina:10.0.1.1:48896,10.0.1.2:48896', '--rack', 'legacy:[::1]:9'])).toMatchObject({
      listenPort: 0,
      racks: [
        { aggregating: true, workers: [{ address: '10.0.1.1' }, { address: '10.0.1.2' }] },
        { aggregating: false, workers: [{ address: '::1', port: 9 }] },
      ],
    });
  });

  test.each([
    [[...WORKER]],
    [[...WORKER, '--bitmap1-bit', '3', '--fan-in1', '3']],
    [[...WORKER, '--bitmap1-bit', '0', '--fan-in1', '2', '--bitmap0-bit', '0']],
    [[...WORKER, '--bitmap1-bit', '0', '--fan-in1', '2', '--bitmap0-bit', '2', '--fan-in0', '2']],
    [[...WORKER, '--bitmap1-bit', '0', '--fan-in1', '40']],
    [[...WORKER, '--bitmap1-bit', '0', '--fan-in1', '1', '--elements', '400']],
    [[...WORKER, '--bitmap1-bit', '0', '--fan-in1', '1', '--range', '-1']],
    [[...WORKER, '--bitmap1-bit', '0', '--fan-in1', '1', '--job', '0']],
    [['--local', 'localhost:1', '--ps', '10.0.0.1', '--job', '1', '--rank', '0', '--workers', '1', '--pool', '1', '--bitmap1-bit', '0', '--fan-in1', '1']],
  ])('worker %j is ATP_BAD_CONFIG', (argv) => {
    expect(codeOf(() => parseAtpWorkerArgs(argv))).toBe('ATP_BAD_CONFIG');
  });

  test.each([
    [['--listen', '127.0.0.1:0', '--job', '1', '--pool', '8']],
    [['--listen', '127.0.0.1:0', '--job', '1', '--pool', '8', '--rack', 'tor:127.0.0.1:1']],
    [['--listen', '127.0.0.1:0', '--job', '1', '--pool', '8', '--rack', 'ina:']],
    [['--listen', '127.0.0.1:0', '--job', '1', '--pool', '8', '--rack', `legacy:${Array.from({ length: 32 }, (_, i) => `127.0.0.1:${i + 1}`).join(',')}`]],
    [['--listen', '127.0.0.1', '--job', '1', '--pool', '8', '--rack', 'ina:127.0.0.1:1']],
  ])('ps %j is ATP_BAD_CONFIG', (argv) => {
    expect(codeOf(() => parseAtpPsArgs(argv))).toBe('ATP_BAD_CONFIG');
  });

  test('--help exits 0 with the usage; bad arguments exit 2', async () => {
    const io = captureIo();
    expect(await atpWorkerCommand(['--help'], io)).toBe(0);
    expect(io.lines[0]).toMatch(/^usage: atp-worker/);
    expect(await atpPsCommand(['--help'], io)).toBe(0);
    expect(io.lines[1]).toMatch(/^usage: atp-ps/);
    const bad = captureIo();
    expect(await atpPsCommand(['--listen', 'x'], bad)).toBe(2);
    expect(bad.errors[0]).toMatch(/^error ATP_BAD_CONFIG/);
  });
});

describe('p4ina agent atp-ps and atp-worker over kernel UDP on 127.0.0.1, no switch', () => {
  test.each([2, 4])('a PS and %i workers: the PS does all the aggregation; identical, exact digests', async (n) => {
    const [psPort, ...workerPorts] = await testUdpPorts(n + 1);
    const rack = `legacy:${workerPorts.map((p) => `127.0.0.1:${p}`).join(',')}`;
    const length = 5000;
    const iterations = 2;
    const psIo = captureIo();
    const stop = new AbortController();
    const psArgs = ['--listen', `127.0.0.1:${psPort}`, '--job', '7', '--pool', '64', '--rack', rack, '--range', '256', '--window', '32', '--json'];
    // With 2 workers the PS runs as `p4ina agent atp-ps` and stops by itself after the job's
    // 158 sequences and 300 ms of quiet; with 4 it serves until aborted.
    const psDone = n === 2 ? runAgent(['atp-ps', ...psArgs, '--stop-after', '158', '--linger', '300'], psIo) : atpPsCommand(psArgs, psIo, stop.signal);
    expect(await listening(psIo)).toBe(true);
    const ios = workerPorts.map(() => captureIo());
    const codes = await Promise.all(
      workerPorts.map((port, rank) =>
        atpWorkerMain(
          {
            localAddress: '127.0.0.1',
            localPort: port,
            psAddress: '127.0.0.1',
            psPort: psPort!,
            jobId: 7,
            rank,
            worldSize: n,
            poolSize: 64,
            bitmap0Bit: undefined,
            bitmap1Bit: rank,
            fanIn0: 0,
            fanIn1: n,
            maxWindow: 32,
            valueRange: 256,
            length,
            seed: 11,
            iterations,
            check: true,
            json: true,
          },
          ios[rank],
        ),
      ),
    );
    expect(ios.flatMap((io) => io.errors)).toEqual([]);
    expect(codes).toEqual(Array(n).fill(0));
    stop.abort();
    expect(await psDone).toBe(0);
    const reports = ios.map((io) => JSON.parse(io.lines[0]!) as AtpWorkerReport);
    // The digest of the result re-derived from docs/atp.md (helpers/numbers.ts) from the seeded inputs.
    const tensors = Array.from({ length: n }, (_, rank) => seededTensor(length, 11, rank));
    const expected = expectedAtp(tensors, 64, 256);
    expect(expected.floatPackets.size).toBe(0);
    const sha = createHash('sha256').update(new Uint8Array(expected.exact.buffer)).digest('hex');
    for (const report of reports) {
      expect(report).toMatchObject({ algorithm: 'atp', worldSize: n, jobId: 7, resultSha256: sha, check: { boundViolations: 0 } });
      expect(report.iterations.map((s) => s.packets)).toEqual([79, 79]);
      expect(report.iterations[1]!.firstSequence).toBe(79);
    }
    const ps = JSON.parse(psIo.lines.at(-1)!) as AtpPsReport;
    expect(ps.stats).toMatchObject({ completed: 2 * 79, completedInSoftware: 2 * 79, piecesSummed: 2 * 79 * n, strayDrops: 0 });
  });
});

/** True once the PS has said where it listens (a bounded wait). */
async function listening(io: { lines: string[] }): Promise<boolean> {
  for (let i = 0; i < 400 && io.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  return io.lines.length > 0 && io.lines[0]!.includes('listening');
}

describe('--transport wire', () => {
  const WIRE = ['--transport', 'wire', '--peer', '127.0.0.1:9000', '--mac', '02:00:00:00:00:01', '--gateway-mac', '02:00:00:00:00:fe'];
  const PLACED = [...WORKER, '--bitmap1-bit', '0', '--fan-in1', '1'];

  test('the worker and the PS take a wire: their --local/--listen address goes in the frames', () => {
    expect(parseAtpWorkerArgs([...PLACED, ...WIRE, '--wire-local', '127.0.0.1:9001'])).toMatchObject({
      localAddress: '10.0.1.2',
      localPort: 48896,
      wire: { peerAddress: '127.0.0.1', peerPort: 9000, localAddress: '127.0.0.1', localPort: 9001, mac: '02:00:00:00:00:01', gatewayMac: '02:00:00:00:00:fe' },
    });
    expect(parseAtpWorkerArgs(PLACED)?.wire).toBeUndefined();
    expect(parseAtpWorkerArgs([...PLACED, '--transport', 'udp'])?.wire).toBeUndefined();
    expect(parseAtpPsArgs(['--listen', '10.0.0.9:48896', '--job', '1', '--pool', '8', '--rack', 'ina:10.0.0.1:48897', ...WIRE])).toMatchObject({
      listenAddress: '10.0.0.9',
      wire: { peerPort: 9000, localAddress: undefined, localPort: undefined },
    });
  });

  test.each([
    [[...PLACED, '--transport', 'tcp']],
    [[...PLACED, '--peer', '127.0.0.1:9000']],
    [[...PLACED, '--transport', 'wire', '--mac', '02:00:00:00:00:01', '--gateway-mac', '02:00:00:00:00:fe']],
    [[...PLACED, ...WIRE.slice(0, 6)]],
    [[...PLACED, ...WIRE.slice(0, 7), 'not-a-mac']],
    [[...PLACED, ...WIRE, '--wire-local', 'localhost:1']],
    [['--local', '[::1]:48896', ...PLACED.slice(2), ...WIRE]],
    [['--local', '10.0.1.2:0', ...PLACED.slice(2), ...WIRE]],
  ])('worker %j is ATP_BAD_CONFIG', (argv) => {
    expect(codeOf(() => parseAtpWorkerArgs(argv))).toBe('ATP_BAD_CONFIG');
  });

  test('the PS on a wire needs a port it can put in frames', () => {
    expect(codeOf(() => parseAtpPsArgs(['--listen', '10.0.0.9:0', '--job', '1', '--pool', '8', '--rack', 'ina:10.0.0.1:48897', ...WIRE]))).toBe('ATP_BAD_CONFIG');
  });

  test('a PS and one worker on the two ends of one wire (each the other’s gateway), no switch: exact', async () => {
    const [psSocket, workerSocket] = await testUdpPorts(2);
    const ps = { ip: '10.0.0.9', mac: '02:00:00:00:00:09' };
    const worker = { ip: '10.0.0.1', mac: '02:00:00:00:00:01' };
    const length = 3000;
    const psIo = captureIo();
    const psArgs = ['--listen', `${ps.ip}:48896`, '--job', '3', '--pool', '64', '--rack', `legacy:${worker.ip}:48897`, '--range', '256', '--window', '16', '--json'];
    const psWire = ['--transport', 'wire', '--wire-local', `127.0.0.1:${psSocket}`, '--peer', `127.0.0.1:${workerSocket}`, '--mac', ps.mac, '--gateway-mac', worker.mac];
    const psDone = runAgent(['atp-ps', ...psArgs, ...psWire, '--stop-after', String(Math.ceil(length / 64)), '--linger', '200'], psIo);
    expect(await listening(psIo)).toBe(true);
    expect(JSON.parse(psIo.lines[0]!)).toEqual({ listening: `${ps.ip}:48896` });
    const io = captureIo();
    const workerArgs = ['--local', `${worker.ip}:48897`, '--ps', `${ps.ip}:48896`, '--job', '3', '--rank', '0', '--workers', '1', '--pool', '64', '--bitmap1-bit', '0', '--fan-in1', '1'];
    const workerWire = ['--transport', 'wire', '--wire-local', `127.0.0.1:${workerSocket}`, '--peer', `127.0.0.1:${psSocket}`, '--mac', worker.mac, '--gateway-mac', ps.mac];
    const code = await runAgent(['atp-worker', ...workerArgs, ...workerWire, '--range', '256', '--window', '16', '--length', String(length), '--seed', 'wire', '--check', '--json'], io);
    expect(io.errors).toEqual([]);
    expect(code).toBe(0);
    expect(await psDone).toBe(0);
    const expected = expectedAtp([seededTensor(length, 'wire', 0)], 64, 256);
    const report = JSON.parse(io.lines[0]!) as AtpWorkerReport;
    expect(report).toMatchObject({ resultSha256: createHash('sha256').update(new Uint8Array(expected.exact.buffer)).digest('hex'), check: { boundViolations: 0 } });
    expect((JSON.parse(psIo.lines.at(-1)!) as AtpPsReport).stats).toMatchObject({ completed: Math.ceil(length / 64), strayDrops: 0 });
  });
});
