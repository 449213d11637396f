import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import { Listener } from '../../../src/agent/baseline/listener.js';
import { parsePsArgs, psMain } from '../../../src/agent/baseline/ps-main.js';
import { parseRingWorkerArgs, ringWorkerMain } from '../../../src/agent/baseline/ring-worker-main.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import type { WorkerReport } from '../../../src/agent/baseline/worker-run.js';
import { openTcpHandles, ringOrderSum, seededTensors } from './helpers.js';

const sha256Of = (a: Float32Array): string => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');

afterEach(async () => {
  expect(await openTcpHandles()).toEqual([]);
});

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

/** Ports that were free a moment ago (bound to port 0, then released). */
async function freePorts(count: number): Promise<number[]> {
  const listeners = await Promise.all(Array.from({ length: count }, () => Listener.bind({ host: '127.0.0.1', port: 0 })));
  const ports = listeners.map((l) => l.endpoint.port);
  await Promise.all(listeners.map((l) => l.close()));
  return ports;
}

const badConfigOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (err) {
    return err instanceof BaselineError ? `${err.code}: ${err.message}` : String(err);
  }
};

describe('ring worker arguments', () => {
  it('parses a full command line', () => {
    const args = parseRingWorkerArgs(['--rank', '1', '--world', '2', '--peers', '127.0.0.1:4000,[::1]:4001', '--length', '10', '--seed', '42', '--json', '--check']);
    expect(args).toMatchObject({ rank: 1, worldSize: 2, length: 10, seed: 42, json: true, check: true, iterations: 1, jobId: 'default' });
    expect(args?.peers).toEqual([
      { host: '127.0.0.1', port: 4000 },
      { host: '::1', port: 4001 },
    ]);
    expect(parseRingWorkerArgs(['--help'])).toBeUndefined();
  });

  it.each([
    [['--world', '2', '--peers', 'a:1,b:2'], '--rank is required'],
    [['--rank', '2', '--world', '2', '--peers', 'a:1,b:2'], '--rank must be an integer in 0..1'],
    [['--rank', '0', '--world', '3', '--peers', 'a:1,b:2'], 'lists 2 address(es) but --world is 3'],
    [['--rank', '0', '--world', '2', '--peers', 'a:1,b'], 'is not host:port'],
    [['--rank', '0', '--world', '2', '--peers', 'a:1,b:70000'], 'outside 0..65535'],
    [['--rank', 'x', '--world', '2', '--peers', 'a:1,b:2'], '--rank must be an integer'],
    [['--rank', '0', '--world', '2', '--peers', 'a:1,b:2', '--bogus'], 'bogus'],
    [['--rank', '0', '--world', '2'], '--peers is required'],
  ])('rejects %j with BASELINE_BAD_CONFIG', (argv, message) => {
    const result = badConfigOf(() => parseRingWorkerArgs(argv));
    expect(result).toMatch(/^BASELINE_BAD_CONFIG: /);
    expect(result).toContain(message);
  });

  it('exits 2 with the usage on bad arguments', async () => {
    const io = captureIo();
    expect(await ringWorkerMain(['--rank', '0'], io)).toBe(2);
    expect(io.errors[0]).toMatch(/^error BASELINE_BAD_CONFIG: /);
    expect(io.errors[1]).toContain('usage: ring-worker');
  });
});

describe('ring worker entry', () => {
  it('three workers form a ring, agree on the result and stay within the bound', async () => {
    const ports = await freePorts(3);
    const peers = ports.map((p) => `127.0.0.1:${p}`).join(',');
    const ios = [0, 1, 2].map(() => captureIo());
    const codes = await Promise.all(
      [0, 1, 2].map((rank) => ringWorkerMain(['--rank', String(rank), '--world', '3', '--peers', peers, '--length', '5001', '--iterations', '2', '--piece-elements', '100', '--json', '--check'], ios[rank])),
    );
    expect({ codes, errors: ios.map((io) => io.errors) }).toEqual({ codes: [0, 0, 0], errors: [[], [], []] });
    const reports = ios.map((io) => JSON.parse(io.lines[0]!) as WorkerReport);
    // The digest of the ring's sum re-derived from its summation order
    // (helpers.ts: ringOrderSum) over the inputs of the default seed 1.
    const expected = sha256Of(ringOrderSum(seededTensors(3, 5001, 1)));
    expect(reports.map((r) => r.resultSha256)).toEqual([expected, expected, expected]);
    for (const report of reports) {
      expect(report).toMatchObject({ algorithm: 'ring', worldSize: 3, length: 5001, check: { boundViolations: 0 } });
      expect(report.iterations).toHaveLength(2);
    }
  });

  it('exits 1 with the typed error when the ring cannot form', async () => {
    const ports = await freePorts(2);
    const io = captureIo();
    const code = await ringWorkerMain(['--rank', '0', '--world', '2', '--peers', ports.map((p) => `127.0.0.1:${p}`).join(','), '--connect-timeout', '200'], io);
    expect(code).toBe(1);
    expect(io.errors[0]).toMatch(/^error BASELINE_CONNECT_TIMEOUT: /);
  });
});

describe('parameter-server entry', () => {
  it('parses both roles and rejects a missing role', () => {
    expect(parsePsArgs(['--role', 'server', '--world', '4', '--listen', '127.0.0.1:0', '--rounds', '2'])).toMatchObject({ role: 'server', worldSize: 4, rounds: 2, listen: { port: 0 } });
    expect(parsePsArgs(['--role', 'worker', '--rank', '3', '--world', '4', '--server', 'h:5000'])).toMatchObject({ role: 'worker', rank: 3, server: { host: 'h', port: 5000 } });
    expect(badConfigOf(() => parsePsArgs(['--world', '4']))).toMatch(/^BASELINE_BAD_CONFIG: --role/);
    expect(badConfigOf(() => parsePsArgs(['--role', 'worker', '--rank', '0', '--world', '1']))).toMatch(/--server is required/);
  });

  it('a server and two workers run two rounds, then the server stops by itself', async () => {
    const serverIo = captureIo();
    let announce!: (address: string) => void;
    const listening = new Promise<string>((resolve) => (announce = resolve));
    const server = psMain(['--role', 'server', '--world', '2', '--listen', '127.0.0.1:0', '--rounds', '2', '--piece-elements', '64', '--json'], {
      out: (line) => {
        serverIo.lines.push(line);
        const parsed = JSON.parse(line) as { listening?: string };
        if (parsed.listening) announce(parsed.listening);
      },
      err: serverIo.err,
    });
    const address = await listening;
    const ios = [0, 1].map(() => captureIo());
    const codes = await Promise.all(
      [0, 1].map((rank) => psMain(['--role', 'worker', '--rank', String(rank), '--world', '2', '--server', address, '--length', '1000', '--iterations', '2', '--piece-elements', '64', '--json', '--check'], ios[rank])),
    );
    expect({ codes, errors: ios.map((io) => io.errors) }).toEqual({ codes: [0, 0], errors: [[], []] });
    expect(await server).toBe(0);
    expect(JSON.parse(serverIo.lines.at(-1)!)).toEqual({ rounds: 2 });
    const reports = ios.map((io) => JSON.parse(io.lines[0]!) as WorkerReport);
    // The parameter server's sum is fround of the float64 sum: re-derived here from the inputs (seed 1).
    const [x, y] = seededTensors(2, 1000, 1) as [Float32Array, Float32Array];
    const expected = sha256Of(Float32Array.from(x, (v, i) => v + y[i]!));
    expect(reports.map((r) => r.resultSha256)).toEqual([expected, expected]);
    expect(reports[0]!.check).toEqual({ maxAbsError: expect.any(Number), boundViolations: 0 });
  });

  it('a server stops when its signal aborts', async () => {
    const controller = new AbortController();
    const io = captureIo();
    const running = psMain(['--role', 'server', '--world', '2', '--listen', '127.0.0.1:0'], { out: (line) => { io.lines.push(line); controller.abort(); }, err: io.err }, controller.signal);
    expect(await running).toBe(0);
    expect(io.lines[0]).toMatch(/^parameter server listening on 127\.0\.0\.1:\d+$/);
  });
});
