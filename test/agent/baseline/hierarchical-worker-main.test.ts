import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import type { HierarchicalStats } from '../../../src/agent/baseline/hierarchical-allreduce.js';
import { hierarchicalWorkerMain, parseHierarchicalWorkerArgs } from '../../../src/agent/baseline/hierarchical-worker-main.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import type { WorkerReport } from '../../../src/agent/baseline/worker-run.js';
import { ChildGroup, waitExit } from '../../../src/demo/child-group.js';
import { freeTcpPorts } from '../../../src/demo/free-ports.js';
import { builtCliEntry } from '../../../src/run/package-paths.js';
import { hierarchicalOrderSum, openTcpHandles, seededTensors } from './helpers.js';

const sha256Of = (a: Float32Array): string => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

const badConfigOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (err) {
    return err instanceof BaselineError ? `${err.code}: ${err.message}` : String(err);
  }
};

const peersOf = (ports: readonly number[]): string => ports.map((p) => `127.0.0.1:${p}`).join(',');

describe('hierarchical worker arguments', () => {
  afterEach(async () => {
    expect(await openTcpHandles()).toEqual([]);
  });

  it('parses a full command line', () => {
    const args = parseHierarchicalWorkerArgs(['--rank', '2', '--world', '3', '--peers', 'a:1,b:2,c:3', '--racks', 'r1, r1,r2', '--segment-pieces', '8', '--length', '10', '--json', '--check']);
    expect(args).toMatchObject({ rank: 2, worldSize: 3, racks: ['r1', 'r1', 'r2'], segmentPieces: 8, length: 10, json: true, check: true, seed: 1, iterations: 1 });
    expect(parseHierarchicalWorkerArgs(['--rank', '0', '--world', '1', '--peers', 'a:1', '--racks', '0'])?.segmentPieces).toBe(4);
    expect(parseHierarchicalWorkerArgs(['--help'])).toBeUndefined();
  });

  it.each([
    [['--rank', '0', '--world', '2', '--peers', 'a:1,b:2'], '--racks is required'],
    [['--rank', '0', '--world', '3', '--peers', 'a:1,b:2,c:3', '--racks', '0,0'], '--racks lists 2 rack(s) but --world is 3'],
    [['--rank', '0', '--world', '3', '--peers', 'a:1,b:2,c:3', '--racks', '0,,1'], '--racks entry 1 is empty'],
    [['--rank', '0', '--world', '2', '--peers', 'a:1', '--racks', '0,0'], '--peers lists 1 address(es) but --world is 2'],
    [['--rank', '0', '--world', '2', '--racks', '0,0'], '--peers is required'],
    [['--rank', '0', '--world', '2', '--peers', 'a:1,b:2', '--racks', '0,0', '--segment-pieces', '0'], '--segment-pieces must be an integer in 1..65536'],
  ])('rejects %j with BASELINE_BAD_CONFIG', (argv, message) => {
    const result = badConfigOf(() => parseHierarchicalWorkerArgs(argv));
    expect(result).toMatch(/^BASELINE_BAD_CONFIG: /);
    expect(result).toContain(message);
  });

  it('exits 2 with the usage on bad arguments, 1 with the typed error when its leader never comes', async () => {
    const bad = captureIo();
    expect(await hierarchicalWorkerMain(['--rank', '0'], bad)).toBe(2);
    expect(bad.errors[1]).toContain('usage: hierarchical-worker');
    const ports = await freeTcpPorts(2);
    const alone = captureIo();
    expect(await hierarchicalWorkerMain(['--rank', '1', '--world', '2', '--peers', peersOf(ports), '--racks', '0,0', '--connect-timeout', '200'], alone)).toBe(1);
    expect(alone.errors[0]).toMatch(/^error BASELINE_CONNECT_TIMEOUT: rank 1 heard nothing from rank 0, the leader of rank 1's rack/);
  });
});

const cli = builtCliEntry();
const built = existsSync(cli);
if (!built) console.warn(`hierarchical-worker-main: the process test is skipped: ${cli} is missing (npm run build)`);

describe.skipIf(!built)('p4ina agent hierarchical-worker as processes', () => {
  let group: ChildGroup | undefined;
  afterEach(async () => {
    await group?.close();
    group = undefined;
  });

  it('five processes in racks of 2 and 3 over TCP on 127.0.0.1 agree on the model sum and stay within the bound', async () => {
    group = new ChildGroup();
    const racks = ['0', '0', '1', '1', '1'];
    const ports = await freeTcpPorts(racks.length);
    const children = await Promise.all(
      racks.map((_, rank) =>
        group!.spawn({
          name: `hierarchical-${rank}`,
          command: process.execPath,
          args: [cli, 'agent', 'hierarchical-worker', '--rank', String(rank), '--world', '5', '--peers', peersOf(ports), '--racks', racks.join(','),
            '--length', '5001', '--piece-elements', '64', '--segment-pieces', '2', '--iterations', '2', '--check', '--json'],
        }),
      ),
    );
    const exited = await Promise.all(children.map((child) => waitExit(child, 60_000)));
    expect({ exited, stderr: children.map((c) => c.stderr()) }).toEqual({ exited: racks.map(() => true), stderr: racks.map(() => '') });
    expect(children.map((c) => c.exit()?.code)).toEqual([0, 0, 0, 0, 0]);
    const reports = children.map((c) => JSON.parse(c.stdout().trim().split('\n').at(-1)!) as WorkerReport<HierarchicalStats>);
    // The digest re-derived from the algorithm's summation order over the default seed's inputs.
    const expected = sha256Of(hierarchicalOrderSum(seededTensors(5, 5001, 1), racks, 128));
    expect(reports.map((r) => r.resultSha256)).toEqual(racks.map(() => expected));
    expect(reports.map((r) => r.iterations.map((s) => s.role))).toEqual([0, 1, 2, 3, 4].map((r) => (r === 0 || r === 2 ? ['leader', 'leader'] : ['member', 'member'])));
    for (const report of reports) expect(report).toMatchObject({ algorithm: 'hierarchical', worldSize: 5, length: 5001, check: { boundViolations: 0 } });
  });
});
