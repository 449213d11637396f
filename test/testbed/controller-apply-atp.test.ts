// `p4ina controller apply|teardown` with an ATP job file (src/testbed/
// controller-apply.ts, what the command runs), against an emulated switch's
// P4Runtime server on 127.0.0.1 running atp.p4 as shipped (64 values per
// packet, 4096 aggregators): the job is installed from the files, a second
// apply writes nothing, the report carries the levels and every agent's
// arguments, and teardown removes the job.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { P4RuntimeClient, table } from '../../src/p4runtime/index.js';
import { applyController, teardownController } from '../../src/testbed/controller-apply.js';
import { ROOT, TestSwitch } from '../controller/install/helpers.js';

let s1: TestSwitch;
let dir = '';
let topologyPath = '';
let jobPath = '';

beforeAll(async () => {
  s1 = await TestSwitch.start(0);
  dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-controller-atp-'));
  topologyPath = path.join(dir, 'topology.json');
  jobPath = path.join(dir, 'job.json');
  writeFileSync(
    topologyPath,
    JSON.stringify({
      hosts: { h1: { ip: '10.0.1.1/24', mac: '08:00:00:00:01:01' }, h2: { ip: '10.0.1.2/24', mac: '08:00:00:00:01:02' }, h3: { ip: '10.0.1.3/24', mac: '08:00:00:00:01:03' } },
      switches: { s1: { target: 'emulator', grpc: s1.address, device_id: 0, ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe', program: { p4: path.join(ROOT, 'p4', 'atp.p4') } } },
      links: [['h1', 's1-p1'], ['h2', 's1-p2'], ['h3', 's1-p3']],
    }),
  );
  writeFileSync(
    jobPath,
    JSON.stringify({
      id: 7,
      algorithm: 'atp',
      workers: [
        { rank: 0, host: 'h1', udp_port: 0xbf01 },
        { rank: 1, host: 'h2', udp_port: 0xbf02 },
      ],
      parameter_server: { host: 'h3', udp_port: 0xbf00 },
      atp: { ecn_threshold: 20 },
    }),
  );
}, 60_000);

afterAll(async () => {
  await s1?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function atpJobsOnSwitch(): Promise<unknown[]> {
  const client = new P4RuntimeClient({ address: s1.address, deviceId: 0, electionId: 9n, reconnect: false });
  try {
    // Reads need no arbitration: this client never competes with the controller runs for primary.
    await client.getPipeline('P4INFO_AND_COOKIE');
    return (await client.readAll(table('ingress.atp.atp_jobs'))).map((e) => e.match);
  } finally {
    await client.close();
  }
}

describe('p4ina controller with an ATP job', () => {
  test('apply installs it and reports the agents’ arguments; a second apply writes nothing; teardown removes it', async () => {
    const first = await applyController({ topologyPath, jobPaths: [jobPath] });
    expect([first.pipelinePushes, first.installed]).toEqual([1, [7]]);
    expect(first.jobs).toEqual([
      expect.objectContaining({
        id: 7,
        algorithm: 'atp',
        runs: 'atp',
        inNetwork: 'full',
        aggregation: [{ switch: 's1', ip: '10.0.1.254', scope: 'rack' }],
        atp: {
          level0: ['s1'],
          level1: undefined,
          fanIn1: 1,
          ps: { host: 'h3', args: '--listen 10.0.1.3:48896 --job 7 --pool 4096 --elements 64 --window 100 --range 213 --rack ina:10.0.1.1:48897,10.0.1.2:48898'.split(' ') },
          workers: [0, 1].map((rank) => ({
            rank,
            host: `h${rank + 1}`,
            args: `--local 10.0.1.${rank + 1}:${48897 + rank} --ps 10.0.1.3:48896 --job 7 --pool 4096 --elements 64 --window 100 --range 213 --rank ${rank} --workers 2 --bitmap1-bit 0 --fan-in1 1 --bitmap0-bit ${rank} --fan-in0 2 --timeout 20 --max-retries 30`.split(' '),
          })),
        },
      }),
    ]);
    expect(await atpJobsOnSwitch()).toEqual([{ job_id: 7 }]);

    const again = await applyController({ topologyPath, jobPaths: [jobPath] });
    expect([again.pipelinePushes, again.writes, again.installed, again.unchanged]).toEqual([0, 0, [], [7]]);

    const down = await teardownController({ topologyPath, jobPaths: [jobPath] });
    // The atp_jobs entry; the rewrites; the group; the settings back to the program's default (no aggregator was owned).
    expect(down.writes).toBe(4);
    expect(await atpJobsOnSwitch()).toEqual([]);
  }, 120_000);
});
