// End to end: the Installer programs p4/omnireduce.p4 (as shipped: blocks of
// 64 values) on the emulator over gRPC from a topology and an OmniReduce
// switch job spec, and real, unmodified OmniReduceWorkers then AllReduce
// block-sparse tensors through that switch, in virtual time, under seeded
// loss. The results must be the exact integers of the SwitchML scaling on
// every worker, within the float64 sum's bound, and for every frame the
// switch answered as the host aggregator does (test/p4/omnireduce's rig,
// network and checks). A restarted controller adopts the job without a
// write and the workers go on; after teardown the switch drops their
// messages as from unknown workers.
import { afterEach, describe, expect, it } from 'vitest';
import { compilePipeline } from '../../../src/p4c/index.js';
import { defineJob, parseTopology, type JobSpec, type Topology } from '../../../src/controller/index.js';
import { Installer, omniReduceJobOnSwitch, ProgramCache, type OmniReduceJobOnSwitch } from '../../../src/controller/install/index.js';
import { ipv4ToText, macToText } from '../../../src/wire/index.js';
import { VirtualTime } from '../../agent/atp/helpers/virtual-time.js';
import { HostReference } from '../../p4/omnireduce/support/host-reference.js';
import { omniFrame, SWITCH_IP, SWITCH_MAC, worker } from '../../p4/omnireduce/support/omnireduce-network.js';
import { OMNIREDUCE_P4, OmniReduceRig } from '../../p4/omnireduce/support/omnireduce-rig.js';
import { allreduceAll, BLOCK, hostsOf, inexact, sparseTensors, switchWorkers } from '../../p4/omnireduce/support/switch-job.js';
import { SwitchNetwork } from '../../p4/omnireduce/support/switch-network.js';

const WORKERS = 4;
const SLOTS = 8;
/** omnireduce.p4 as shipped, which is what the rig runs too. */
const programs = new ProgramCache({ defines: [], compiler: compilePipeline });

const rigs: OmniReduceRig[] = [];
const installers: Installer[] = [];
afterEach(async () => {
  await Promise.allSettled(installers.splice(0).map((i) => i.close()));
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

/** The rig's switch as s1, INA, with the rig's workers 0..n−1 as hosts h1..hn on ports 1..n. */
function topologyOf(rig: OmniReduceRig): Topology {
  const hosts = Object.fromEntries(hostsOf(WORKERS).map((h, w) => [`h${w + 1}`, { ip: `${ipv4ToText(h.ip)}/24`, mac: macToText(h.mac) }]));
  return parseTopology({
    hosts,
    switches: { s1: { target: 'emulator', grpc: rig.client.address, device_id: 0, program: { p4: OMNIREDUCE_P4 }, role: 'tor', rack: 'r1', ina: true, ip: ipv4ToText(SWITCH_IP), mac: macToText(SWITCH_MAC) } },
    links: hostsOf(WORKERS).map((h, w) => ({ nodes: [`h${w + 1}`, `s1-p${h.switchPort}`] })),
  });
}

const spec: JobSpec = defineJob({
  id: 3,
  algorithm: 'omnireduce',
  workers: hostsOf(WORKERS).map((h, rank) => ({ rank, host: `h${rank + 1}`, udpPort: h.udpPort })),
  poolSize: SLOTS,
  elementsPerPacket: BLOCK,
  omnireduce: { aggregator: 'switch' },
});

async function connect(rig: OmniReduceRig, electionId: bigint): Promise<Installer> {
  const installer = await Installer.connect(topologyOf(rig), { programs, electionId });
  installers.push(installer);
  return installer;
}

describe('OmniReduce workers through a switch the installer programmed', () => {
  it('exact under 5% loss, duplicates and reordering; a restarted controller adopts the job and the workers go on; after teardown their messages are strangers\'', async () => {
    const rig = await OmniReduceRig.start([]);
    rigs.push(rig);
    // The rig's own client has election id 1; the controller takes over as primary.
    const installer = await connect(rig, 2n);
    await installer.installForwarding();
    const plan = installer.planFor(spec);
    const installed = await installer.setupJob(spec, plan);
    // What the workers are told: the job's ranks, and the switch owning wire slots 0..pool_size − 1.
    const job: OmniReduceJobOnSwitch = omniReduceJobOnSwitch(installer.topology, spec, plan.aggregationPoints[0]!, installed.allocation.switches[0]!);
    expect(job).toMatchObject({ firstSlot: 0, slotCount: SLOTS });

    const reference = new HostReference(job.workers, SLOTS, BLOCK);
    const net = new SwitchNetwork(rig, hostsOf(WORKERS), reference, { loss: 0.05, duplicate: 0.02, reorder: 0.1 }, 'installed');
    const time = new VirtualTime();
    const workers = switchWorkers(job, net, (rank) => rank, time);
    for (const [i, [sparsity, pattern]] of ([[0.5, 'random'], [0.9, 'clustered']] as const).entries()) {
      const tensors = sparseTensors(WORKERS, BLOCK * 70 + 11, sparsity, pattern, `installed-${i}`);
      expect(inexact(await allreduceAll(net, time, workers, tensors), tensors)).toBeUndefined();
    }
    expect(net.lost).toBeGreaterThan(0);
    expect(net.mismatches).toEqual([]);
    expect(await rig.drops()).not.toHaveProperty('UNKNOWN_WORKER');

    // A second controller finds the job as its spec says and writes nothing; the same workers reduce again.
    await installer.close();
    const second = await connect(rig, 3n);
    expect(await second.reconcile([spec])).toMatchObject({ unchanged: [3], installed: [], reinstalled: [] });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    const tensors = sparseTensors(WORKERS, BLOCK * 33, 0.7, 'per-worker', 'after-reconcile');
    expect(inexact(await allreduceAll(net, time, workers, tensors), tensors)).toBeUndefined();
    expect(net.mismatches).toEqual([]);

    await second.teardownJob(3);
    rig.send(1, omniFrame({ from: worker(0), tsi: 0, nextTsi: 0 }));
    expect(await rig.drops()).toMatchObject({ UNKNOWN_WORKER: 1 });
  });
});
