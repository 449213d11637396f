// `p4ina agent rina-worker`: its arguments (RINA_BAD_CONFIG, exit 2), three
// workers of an autonomous ring over the kernel's UDP on 127.0.0.1 run in
// this process (the JSON report, --check, the digest re-derived from
// docs/rina.md's rule), and two as real processes of the built CLI.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import { RinaError } from '../../../src/agent/rina/rina-error.js';
import { parseRinaWorkerArgs } from '../../../src/agent/rina/worker-args.js';
import { rinaWorkerCommand, type RinaWorkerReport } from '../../../src/agent/rina/worker-main.js';
import { ChildGroup, waitExit } from '../../../src/demo/child-group.js';
import { builtCliEntry } from '../../../src/run/package-paths.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { expectedRina } from './helpers/expected.js';

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

const sha256Of = (a: Float32Array): string => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
const members = (ports: readonly number[]): string[] => ports.flatMap((p) => ['--member', `worker:127.0.0.1:${p}`]);
const RUN = ['--job', '9', '--pool', '4', '--elements', '16', '--length', '1001', '--iterations', '2', '--drain', '300', '--check', '--json'];

describe('arguments', () => {
  const codeOf = (argv: string[]): string => {
    try {
      parseRinaWorkerArgs(argv);
      return 'none';
    } catch (err) {
      return err instanceof RinaError ? `${err.code}: ${err.message}` : String(err);
    }
  };

  it.each([
    [[], /RINA_BAD_CONFIG: the ring has no members/],
    [['--member', 'switch:127.0.0.1:1'], /RINA_BAD_CONFIG: --member 1 must be worker:ADDR:PORT or rack:/],
    [['--member', 'worker:localhost:1'], /RINA_BAD_CONFIG: --member 1 must be ADDRESS:PORT/],
    [['--member', 'worker:127.0.0.1:1,127.0.0.1:2'], /RINA_BAD_CONFIG: ring member 0 is an autonomous worker with 2 addresses/],
    [['--member', 'worker:127.0.0.1:1', '--position', '1'], /RINA_BAD_CONFIG: --position must be an integer in 0..0/],
    [['--member', 'rack:127.0.0.1:1,127.0.0.1:2', '--position', '0', '--worker-id', '2'], /RINA_BAD_CONFIG: worker id 2 is not in member 0 \(2 workers\)/],
    [['--member', 'worker:127.0.0.1:1', '--position', '0', '--rank', '0', '--job', '1', '--pool', '0'], /RINA_BAD_CONFIG: --pool must be an integer in 1..32768/],
    [['--member', 'worker:127.0.0.1:1', '--position', '0', '--rank', '0', '--job', '1', '--pool', '4', '--transport', 'wire'], /RINA_BAD_CONFIG: --peer is required/],
    [['--member', 'rack:127.0.0.1:1,127.0.0.1:2', '--position', '0', '--worker-id', '1', '--tor', '127.0.0.9:1'], /RINA_BAD_CONFIG: --tor is for an INA rack's agent/],
    [['--member', 'worker:127.0.0.1:1', '--position', '0', '--tor', '127.0.0.9:1'], /RINA_BAD_CONFIG: --tor is for an INA rack's agent/],
    [['--member', 'rack:127.0.0.1:1', '--position', '0', '--tor', 'tor:1'], /RINA_BAD_CONFIG: --tor must be ADDRESS:PORT/],
    [['--nope'], /RINA_BAD_CONFIG: Unknown option '--nope'/],
  ])('%j is refused', (argv, message) => {
    expect(codeOf(argv)).toMatch(message);
  });

  it('exits 2 with the usage for bad arguments, 0 for --help', async () => {
    const io = captureIo();
    expect(await rinaWorkerCommand(['--member', 'x'], io)).toBe(2);
    expect(io.errors[1]).toContain('usage: rina-worker');
    const help = captureIo();
    expect(await rinaWorkerCommand(['--help'], help)).toBe(0);
    expect(help.lines[0]).toContain('--member M');
  });
});

describe('an autonomous ring over the kernel\'s UDP', () => {
  it('three workers in this process: exact, the same digest, within the bound', async () => {
    const ports = await testUdpPorts(3);
    const ios = ports.map(() => captureIo());
    const codes = await Promise.all(ports.map((_, r) => rinaWorkerCommand([...members(ports), '--position', String(r), '--rank', String(r), ...RUN], ios[r]!)));
    expect({ codes, errors: ios.map((io) => io.errors) }).toEqual({ codes: [0, 0, 0], errors: [[], [], []] });
    const reports = ios.map((io) => JSON.parse(io.lines.at(-1)!) as RinaWorkerReport);
    const expected = sha256Of(expectedRina([0, 1, 2].map((r) => seededTensor(1001, 1, r)), 3, 16));
    expect(reports.map((r) => r.resultSha256)).toEqual([expected, expected, expected]);
    for (const r of reports) expect(r).toMatchObject({ algorithm: 'rina', role: 'autonomous', ringLength: 3, worldSize: 3, length: 1001, check: { boundViolations: 0 } });
    expect(reports[0]!.iterations.map((s) => s.epochs)).toEqual([[1, 2], [3, 4]]);
  });
});

const cli = builtCliEntry();
const built = existsSync(cli);
if (!built) console.warn(`rina cli: the process test is skipped: ${cli} is missing (npm run build)`);

describe.skipIf(!built)('p4ina agent rina-worker as processes', () => {
  let group: ChildGroup | undefined;
  afterEach(async () => {
    await group?.close();
    group = undefined;
  });

  it('two processes agree on the exact sum', async () => {
    group = new ChildGroup();
    const ports = await testUdpPorts(2);
    const children = await Promise.all(ports.map((_, r) => group!.spawn({
      name: `rina-${r}`, command: process.execPath,
      args: [cli, 'agent', 'rina-worker', ...members(ports), '--position', String(r), '--rank', String(r), ...RUN],
    })));
    const exited = await Promise.all(children.map((child) => waitExit(child, 60_000)));
    expect({ exited, stderr: children.map((c) => c.stderr()) }).toEqual({ exited: [true, true], stderr: ['', ''] });
    expect(children.map((c) => c.exit()?.code)).toEqual([0, 0]);
    const reports = children.map((c) => JSON.parse(c.stdout().trim().split('\n').at(-1)!) as RinaWorkerReport);
    const expected = sha256Of(expectedRina([0, 1].map((r) => seededTensor(1001, 1, r)), 2, 16));
    expect(reports.map((r) => r.resultSha256)).toEqual([expected, expected]);
  });
});
