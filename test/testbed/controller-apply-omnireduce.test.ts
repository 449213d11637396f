// `p4ina controller apply|teardown` with OmniReduce job files (src/testbed/
// controller-apply.ts, what the Mininet testbed runs between its runs),
// against an emulated switch's P4Runtime server on 127.0.0.1: the report
// carries each OmniReduce job's layout and its agents' arguments (the
// workers', and the host aggregator's for the paper's variant), the switch
// variant is installed in omnireduce.p4 and torn down again, and applying a
// topology whose INA program changed (switchml.p4 → omnireduce.p4, as the
// testbed does before its omnireduce-switch run) pushes the new pipeline.
// The expected arguments are written out by hand from the flags of
// `p4ina agent omnireduce-worker|omnireduce-aggregator` (docs/omnireduce.md).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { P4RuntimeClient, table } from '../../src/p4runtime/index.js';
import { applyController, teardownController } from '../../src/testbed/controller-apply.js';
import { ROOT, TestSwitch } from '../controller/install/helpers.js';

const OMNIREDUCE_PORT = 0xbef0;
let s1: TestSwitch;
let dir = '';

function topologyFile(name: string, program: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      hosts: { h1: { ip: '10.0.1.1/24', mac: '08:00:00:00:01:01' }, h2: { ip: '10.0.1.2/24', mac: '08:00:00:00:01:02' }, h3: { ip: '10.0.1.3/24', mac: '08:00:00:00:01:03' } },
      switches: { s1: { target: 'emulator', grpc: s1.address, device_id: 0, ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe', program: { p4: path.join(ROOT, 'p4', program) } } },
      links: [['h1', 's1-p1'], ['h2', 's1-p2'], ['h3', 's1-p3']],
    }),
  );
  return file;
}

function jobFile(name: string, spec: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

const workers = (port: number) => [
  { rank: 0, host: 'h1', udp_port: port },
  { rank: 1, host: 'h2', udp_port: port },
];

beforeAll(async () => {
  s1 = await TestSwitch.start(0);
  dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-controller-omnireduce-'));
}, 60_000);

afterAll(async () => {
  await s1?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function omniReduceJobsOnSwitch(): Promise<unknown[]> {
  const client = new P4RuntimeClient({ address: s1.address, deviceId: 0, electionId: 9n, reconnect: false });
  try {
    await client.getPipeline('P4INFO_AND_COOKIE');
    return (await client.readAll(table('ingress.omnireduce.omnireduce_jobs'))).map((e) => e.match);
  } finally {
    await client.close();
  }
}

describe('p4ina controller with OmniReduce jobs', () => {
  test('a switch running switchml.p4 is reprogrammed to omnireduce.p4; the switch variant installed, the host variant reported; teardown', async () => {
    // First the switch runs switchml.p4 (the testbed's SwitchML run), with nothing else to do.
    const before = await applyController({ topologyPath: topologyFile('switchml.json', 'switchml.p4'), jobPaths: [] });
    expect(before.pipelinePushes).toBe(1);

    // omnireduce.p4 as shipped takes blocks of 64 values.
    const onSwitch = jobFile('switch.json', { id: 8, algorithm: 'omnireduce', pool_size: 16, elements_per_packet: 64, workers: workers(OMNIREDUCE_PORT), omnireduce: { aggregator: 'switch' } });
    const onHosts = jobFile('hosts.json', {
      id: 9,
      algorithm: 'omnireduce',
      pool_size: 16,
      workers: workers(OMNIREDUCE_PORT + 1),
      omnireduce: { aggregator: 'hosts', shards: [{ host: 'h3', udp_port: OMNIREDUCE_PORT, slots: 16 }] },
    });
    const topologyPath = topologyFile('omnireduce.json', 'omnireduce.p4');
    const applied = await applyController({ topologyPath, jobPaths: [onSwitch, onHosts] });
    // The host variant has no switch state: nothing to install for job 9.
    expect([applied.pipelinePushes, applied.installed]).toEqual([1, [8]]);
    const worker = (rank: number, port: number, aggregator: string, block: number): { rank: number; host: string; args: string[] } => ({
      rank,
      host: `h${rank + 1}`,
      args: `--local 10.0.1.${rank + 1}:${port} --rank ${rank} --workers 2 --aggregator ${aggregator}@0+16 --block-size ${block} --zero-threshold 0`.split(' '),
    });
    expect(applied.jobs).toEqual([
      expect.objectContaining({
        id: 8,
        runs: 'omnireduce',
        aggregation: [{ switch: 's1', ip: '10.0.1.254', scope: 'job' }],
        omnireduce: { aggregator: 'switch', blockSize: 64, slots: 16, aggregators: [], workers: [0, 1].map((r) => worker(r, 48880, '10.0.1.254:48880', 64)) },
      }),
      expect.objectContaining({
        id: 9,
        runs: 'omnireduce',
        aggregation: [],
        omnireduce: {
          aggregator: 'hosts',
          blockSize: 256,
          slots: 16,
          aggregators: [{ host: 'h3', firstSlot: 0, slotCount: 16, args: '--listen 10.0.1.3:48880 --workers 10.0.1.1:48881,10.0.1.2:48881 --first-slot 0 --slots 16 --block-size 256'.split(' ') }],
          workers: [0, 1].map((r) => worker(r, 48881, '10.0.1.3:48880', 256)),
        },
      }),
    ]);
    expect(await omniReduceJobsOnSwitch()).toEqual([{ job_id: 8 }]);

    const again = await applyController({ topologyPath, jobPaths: [onSwitch, onHosts] });
    expect([again.pipelinePushes, again.writes]).toEqual([0, 0]);

    await teardownController({ topologyPath, jobPaths: [onSwitch, onHosts] });
    expect(await omniReduceJobsOnSwitch()).toEqual([]);
  }, 120_000);

  test('a switch variant no switch can serve reports no OmniReduce arguments: its plan runs the fallback', async () => {
    // A legacy s1 (forward.p4, not INA) cannot aggregate, and the job lists no host aggregators.
    const file = path.join(dir, 'plain-topology.json');
    const doc = { hosts: { h1: { ip: '10.0.1.1/24', mac: '08:00:00:00:01:01' }, h2: { ip: '10.0.1.2/24', mac: '08:00:00:00:01:02' } }, switches: { s1: { target: 'emulator', grpc: s1.address, device_id: 0, ina: false, program: { p4: path.join(ROOT, 'p4', 'forward.p4') } } }, links: [['h1', 's1-p1'], ['h2', 's1-p2']] };
    writeFileSync(file, JSON.stringify(doc));
    const job = jobFile('no-switch.json', { id: 10, algorithm: 'omnireduce', pool_size: 16, elements_per_packet: 64, workers: workers(OMNIREDUCE_PORT), omnireduce: { aggregator: 'switch' } });
    const applied = await applyController({ topologyPath: file, jobPaths: [job] });
    expect(applied.jobs[0]).toMatchObject({ id: 10, aggregation: [] });
    expect(applied.jobs[0]!.runs).not.toBe('omnireduce');
    expect(applied.jobs[0]!.omnireduce).toBeUndefined();
  }, 120_000);
});
