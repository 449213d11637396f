// `p4ina controller plan`: the planner's decision printed without a switch. The expected
// plans are worked out by hand from the rules in docs (Rina: an INA rack is one ring member
// whose agent is its lowest rank, other workers are members of their own; ATP with no INA
// switch: every worker goes to the parameter server), on leaf-spine-2.json: rack r1 = s1
// {h1, h2}, rack r2 = s2 {h3, h4}.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'dist/src/cli/main.js');
const topology = path.join(root, 'test/controller/fixtures/leaf-spine-2.json');
const dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function jobFile(name: string, job: object): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(job));
  return file;
}

const workers = ['h1', 'h2', 'h3', 'h4'].map((host, rank) => ({ rank, host, udp_port: 0xbf01 + rank }));
const rina = jobFile('rina.json', { id: 3, algorithm: 'rina', workers });
const atp = jobFile('atp.json', { id: 4, algorithm: 'atp', workers: workers.slice(0, 3), parameter_server: { host: 'h4', udp_port: 0xbf00 } });
const stray = jobFile('stray.json', { id: 5, algorithm: 'ring', workers: [{ rank: 0, host: 'h9', udp_port: 9000 }] });

function run(args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'controller', 'plan', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

describe.runIf(existsSync(cli))('p4ina controller plan', () => {
  test('Rina with s1 INA-capable: a ring of 3, rack r1 as one member whose agent is rank 0', async () => {
    const { status, out } = await run(['--topology', topology, '--job', rina, '--ina', 's1', '--json']);
    expect(status).toBe(0);
    const [plan] = JSON.parse(out) as [{ runs: string; inNetwork: string; ring: { kind: string; agentRank: number; ranks: number[] }[]; workers: { rank: number; role: string; ringPosition?: number }[] }];
    expect(plan.runs).toBe('rina');
    expect(plan.inNetwork).toBe('partial');
    expect(plan.ring.map((m) => [m.kind, m.agentRank, m.ranks])).toEqual([
      ['rack', 0, [0, 1]],
      ['worker', 2, [2]],
      ['worker', 3, [3]],
    ]);
    expect(plan.workers.map((w) => [w.rank, w.role, w.ringPosition ?? null])).toEqual([
      [0, 'rack-agent', 0],
      [1, 'rack-member', null],
      [2, 'ring-member', 1],
      [3, 'ring-member', 2],
    ]);
  });

  test('the text form names the ring, the roles and the reasons', async () => {
    const { status, out } = await run(['--topology', topology, '--job', rina, '--ina', 's1,s2']);
    expect(status).toBe(0);
    expect(out).toContain('job 3: runs rina; every worker aggregated in the network');
    expect(out).toContain('ring of 2: rack r1 [ranks 0,1; agent 0] → rack r2 [ranks 2,3; agent 2]');
    expect(out).toContain('rank 3 on h4 (rack r2, ToR s2): rack-member at s2 (bit 1)');
    expect(out).toMatch(/why:\n {4}- rack r1: ToR s1 is INA-capable/);
  });

  test('ATP with no INA switch: every worker goes to the parameter server on its own', async () => {
    const { status, out } = await run(['--topology', topology, '--job', atp, '--ina', 'none']);
    expect(status).toBe(0);
    expect(out).toContain('job 4: runs atp; no switch aggregates');
    for (const rank of [0, 1, 2]) expect(out).toContain(`rank ${rank} goes to the parameter server on its own (bitmap1 bit ${rank})`);
  });

  test('a job on a host the topology lacks is refused with the code and the reason; bad usage is 2', async () => {
    const refused = await run(['--topology', topology, '--job', stray]);
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(/error JOB_UNKNOWN_HOST: .*h9/);
    expect((await run(['--topology', topology])).status).toBe(2);
    const psOnWorker = jobFile('ps-on-worker.json', { id: 6, algorithm: 'atp', workers, parameter_server: { host: 'h4', udp_port: 0xbf00 } });
    expect((await run(['--topology', topology, '--job', psOnWorker])).err).toContain('error ATP_PS_ON_WORKER_HOST');
    const unknownSwitch = await run(['--topology', topology, '--job', rina, '--ina', 's7']);
    expect(unknownSwitch.status).toBe(1);
    expect(unknownSwitch.err).toContain('TOPOLOGY_NO_SUCH_NODE');
  });
});
