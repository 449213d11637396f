// The testbed's controller step (`p4ina controller apply|teardown`) against a
// real `p4ina switch` on 127.0.0.1 with no ports: pipeline push, forwarding,
// a SwitchML job, idempotence, teardown, and the command's exit codes. No root.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyController, teardownController } from '../../src/testbed/controller-apply.js';
import { CLI, ROOT } from './helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/mininet/controller-step: skipped: ${CLI} is missing (npm run build)`);

let sw: ChildProcessWithoutNullStreams | undefined;
let dir = '';
let topologyPath = '';
let jobPath = '';

function startSwitch(): Promise<string> {
  sw = spawn(process.execPath, [CLI, 'switch', '--no-p4', '--', '--grpc-server-addr', '127.0.0.1:0']);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the switch did not start: ${out}`)), 20_000);
    sw!.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    sw!.once('exit', (code) => reject(new Error(`the switch exited (${code}): ${out}`)));
  });
}

beforeAll(async () => {
  if (!built) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-controller-step-'));
  const grpc = await startSwitch();
  topologyPath = path.join(dir, 'topology.json');
  jobPath = path.join(dir, 'job.json');
  writeFileSync(
    topologyPath,
    JSON.stringify({
      hosts: { h1: { ip: '10.0.1.1/8', mac: '08:00:00:00:01:01' }, h2: { ip: '10.0.1.2/8', mac: '08:00:00:00:01:02' } },
      switches: { s1: { target: 'emulator', grpc, device_id: 0, ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe', program: { p4: path.join(ROOT, 'p4', 'switchml.p4') } } },
      links: [['h1', 's1-p1'], ['h2', 's1-p2']],
    }),
  );
  writeFileSync(jobPath, JSON.stringify({ id: 7, algorithm: 'switchml', pool_size: 16, workers: [{ rank: 0, host: 'h1', udp_port: 40000 }, { rank: 1, host: 'h2', udp_port: 40001 }] }));
}, 60_000);

afterAll(() => {
  sw?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.runIf(built)('p4ina controller against a loopback p4ina switch', () => {
  test('apply pushes the pipeline, installs forwarding and the job; a second apply writes nothing; teardown removes the job', async () => {
    const first = await applyController({ topologyPath, jobPaths: [jobPath] });
    expect(first.switches).toEqual(['s1']);
    expect(first.pipelinePushes).toBe(1);
    expect(first.installed).toEqual([7]);
    expect(first.jobs).toEqual([
      expect.objectContaining({ id: 7, algorithm: 'switchml', runs: 'switchml', inNetwork: 'full', aggregation: [{ switch: 's1', ip: '10.0.1.254', scope: 'job' }] }),
    ]);
    // By hand, for 2 hosts on s1: the flood group, the broadcast L2 entry, and per host
    // an L2 entry and a /32 route (the switch address is the default entry: a modify).
    expect(first.forwarding[0]).toMatchObject({ inserted: 1 + 1 + 2 * 2, modified: 1 });

    const again = await applyController({ topologyPath, jobPaths: [jobPath] });
    expect([again.pipelinePushes, again.writes, again.installed, again.unchanged]).toEqual([0, 0, [], [7]]);

    const down = await teardownController({ topologyPath, jobPaths: [jobPath] });
    // Three write calls, dependents first: the jobs entry; the workers and result rewrites; the group.
    expect(down.writes).toBe(3);
    const reinstalled = await applyController({ topologyPath, jobPaths: [jobPath] });
    expect(reinstalled.installed).toEqual([7]);
  }, 60_000);

  test('the command: exit 2 on bad usage, exit 1 with the error code when the topology is wrong, exit 0 and JSON when it works', async () => {
    // Asynchronous on purpose: a blocked event loop would keep the previous test's stream from closing.
    const cli = (...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        execFile(process.execPath, [CLI, 'controller', ...args], { encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) =>
          resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    expect((await cli('apply')).status).toBe(2);
    expect((await cli('launch', '--topology', topologyPath)).status).toBe(2);
    const missing = await cli('apply', '--topology', path.join(dir, 'nope.json'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('TOPOLOGY_FILE_UNREADABLE');
    const ok = await cli('apply', '--topology', topologyPath, '--job', jobPath, '--json');
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout.trim())).toMatchObject({ switches: ['s1'], unchanged: [7], writes: 0 });
  }, 60_000);
});
