// examples/controller/controller-library.mjs must keep working as the package's users run it:
// the plans at each rollout stage (their content is checked against hand-worked plans in
// test/cli/controller-plan.test.ts and test/controller), and with --install a real session with
// four `p4ina switch` processes: pipelines pushed, forwarding, the ATP job set up on the two
// INA ToRs and torn down.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'dist/src/cli/main.js');
const example = path.join(root, 'examples/controller/controller-library.mjs');
const built = existsSync(cli) && existsSync(path.join(root, 'dist/src/index.js'));

function runExample(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [example, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

function startSwitch(deviceId: number): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(process.execPath, [cli, 'switch', '--no-p4', '--device-id', String(deviceId), '--', '--grpc-server-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`switch ${deviceId} did not say where it listens within 15 s`)), 15_000);
    child.once('exit', (code) => reject(new Error(`switch ${deviceId} exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /listening on (127\.0\.0\.1:\d+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve({ child, address: m[1]! });
      }
    });
  });
}

describe.runIf(built)('the controller library example', () => {
  test('plans the ATP and Rina jobs at every stage without a switch', async () => {
    const { code, out, err } = await runExample([]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out.match(/^== INA ToRs: /gm)).toHaveLength(3);
    expect(out).toContain('job 8: runs ring (asked for rina); no switch aggregates');
    expect(out).toContain('ring of 3: rack r1 [ranks 0,1; agent 0] → rank 2 → rank 3');
    expect(out).toContain('ring of 2: rack r1 [ranks 0,1; agent 0] → rack r2 [ranks 2,3; agent 2]');
  });

  describe('with --install', () => {
    const switches: ChildProcess[] = [];
    const dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-example-'));
    let topologyPath = '';

    beforeAll(async () => {
      const started = await Promise.all([1, 2, 3, 4].map(startSwitch));
      switches.push(...started.map((s) => s.child));
      const topology = JSON.parse(readFileSync(path.join(root, 'examples/controller/topology.json'), 'utf8')) as { switches: Record<string, { grpc: string }> };
      ['s1', 's2', 's3', 's4'].forEach((name, i) => (topology.switches[name]!.grpc = started[i]!.address));
      topologyPath = path.join(dir, 'topology.json');
      writeFileSync(topologyPath, JSON.stringify(topology));
    }, 30_000);

    afterAll(() => {
      for (const s of switches) s.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    test('pushes, installs forwarding, sets up the ATP job on s1 and s2 and tears it down', async () => {
      const jobs = ['atp-job.json', 'rina-job.json'].map((f) => path.join(root, 'examples/controller', f));
      const { code, out, err } = await runExample(['--install', topologyPath, ...jobs]);
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).toMatch(/forwarding: s1 \+\d+, s2 \+\d+, s3 \+\d+, s4 \+\d+/);
      expect(out).toContain('installed job 7 on s1, s2; the controller holds job(s) 7');
      expect(out).toMatch(/torn down; the controller holds 0 job\(s\)/);
    }, 120_000);
  });
});
