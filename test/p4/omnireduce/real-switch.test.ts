// omnireduce.p4 on the real switch as `p4ina switch` runs it (SwitchDevice on
// UDP wires on 127.0.0.1, its P4Runtime server over gRPC), programmed over
// P4Runtime with the controller's entry builder, and real OmniReduce workers
// on their own wires (user-space Ethernet/IPv4/UDP, the demo's addressing),
// on the real clock and timers, with seeded loss on every wire. The results
// must be exact, the same bits on every worker.
import { afterEach, describe, expect, it } from 'vitest';
import { OmniReduceWorker } from '../../../src/agent/omnireduce/omnireduce-worker.js';
import { REAL_CLOCK, REAL_TIMERS } from '../../../src/agent/time.js';
import { socketAddress, UdpWireTransport } from '../../../src/agent/transport/index.js';
import { omniReduceSwitchEntries } from '../../../src/controller/install/omnireduce-entries.js';
import { compilePipeline } from '../../../src/p4c/index.js';
import { parseP4Info } from '../../../src/p4info/index.js';
import { P4RuntimeClient, action, canonicalP4InfoBytes, defaultEntry, insert, modify, table } from '../../../src/p4runtime/index.js';
import { ipv4FromText, macFromText } from '../../../src/wire/index.js';
import { SWITCH_IP, SWITCH_MAC, type DemoHost } from '../../../src/demo/demo-network.js';
import { e2eHosts } from '../../e2e/switchml/support/network.js';
import { SwitchUnderTest } from '../../e2e/switchml/support/switch-under-test.js';
import { Wires, type WireOptions } from '../../e2e/switchml/support/wires.js';
import { OMNIREDUCE_P4 } from './support/omnireduce-rig.js';
import { AGGREGATOR_PORT } from './support/omnireduce-network.js';
import { BLOCK, inexact, sparseTensors } from './support/switch-job.js';

/**
 * A first timeout above the emulated switch's per-frame time, a low ceiling
 * (a lost message's stall stays short) and a bound on retransmissions, so a
 * run that cannot finish fails by itself (about 9 s).
 */
const TIMING = { timeoutMs: 50, backoff: { factor: 2, minTimeoutMs: 20, maxTimeoutMs: 300 }, maxRetries: 30 } as const;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** The switch on `hosts`' wires with the program, its address, an L2 entry per host and the job of every host. */
async function startSwitch(hosts: readonly DemoHost[], wireOptions: WireOptions, slots: number) {
  const wires = await Wires.open(hosts, wireOptions);
  cleanups.push(() => wires.close());
  const sw = await SwitchUnderTest.start(wires);
  cleanups.push(() => sw.stop());
  const client = new P4RuntimeClient({ address: sw.grpcAddress, deviceId: 0, electionId: 1n, reconnect: false });
  cleanups.push(() => client.close());
  await client.connect();
  const compiled = compilePipeline(OMNIREDUCE_P4, { defines: [] });
  if (!compiled.ok) throw new Error(compiled.message);
  await client.setPipeline({ p4info: parseP4Info(canonicalP4InfoBytes(compiled.p4info), 'binary', OMNIREDUCE_P4), deviceConfig: compiled.deviceConfig });
  const job = omniReduceSwitchEntries({
    jobId: 1, slotBase: 0, slotCount: slots, multicastGroup: 1,
    workers: hosts.map((h) => ({ rank: h.rank, ip: ipv4FromText(h.ip), udpPort: h.udpPort, mac: macFromText(h.mac), switchPort: h.switchPort })),
  });
  await client.write([
    modify(defaultEntry('ingress.identity.switch_address', action('ingress.identity.set_switch_address', { mac: SWITCH_MAC, ip: SWITCH_IP }))),
    ...hosts.map((h) => insert(table('ingress.forwarding.l2_forward', { dst_mac: h.mac }, action('ingress.forwarding.forward', { port: h.switchPort })))),
    insert(job.group), ...job.rewrites.map(insert), ...job.workers.map(insert), insert(job.job),
  ]);
  return wires;
}

async function workersOn(wires: Wires, slots: number): Promise<OmniReduceWorker[]> {
  const aggregator = { address: socketAddress(SWITCH_IP, AGGREGATOR_PORT, 'the switch'), firstSlot: 0, slotCount: slots };
  const workers: OmniReduceWorker[] = [];
  for (const [i, h] of wires.hosts.entries()) {
    const transport = await UdpWireTransport.open({
      localAddress: '127.0.0.1', localPort: wires.ports[i]!.agentSocket, peerAddress: '127.0.0.1', peerPort: wires.ports[i]!.agentPeer,
      host: { mac: h.mac, ip: h.ip, udpPort: h.udpPort }, remote: { mac: SWITCH_MAC, ip: SWITCH_IP, udpPort: AGGREGATOR_PORT },
    });
    cleanups.push(() => transport.close());
    const worker = new OmniReduceWorker({ transport, rank: i, worldSize: wires.hosts.length, aggregators: [aggregator], blockSize: BLOCK, clock: REAL_CLOCK, timers: REAL_TIMERS, ...TIMING });
    cleanups.push(() => worker.close());
    workers.push(worker);
  }
  return workers;
}

describe('OmniReduce workers through the real switch on UDP wires', () => {
  it.each([
    ['no loss', {}],
    ['5% loss on every wire, both ways', { seed: 'omni-real', up: { loss: 0.05 }, down: { loss: 0.05 } }],
  ] as [string, WireOptions][])('%s: two calls of block-sparse tensors, exact on every worker', async (_, wireOptions) => {
    const hosts = e2eHosts(4);
    const slots = 8;
    const wires = await startSwitch(hosts, wireOptions, slots);
    const workers = await workersOn(wires, slots);
    let retransmissions = 0;
    for (const [call, sparsity] of [0.9, 0.5].entries()) {
      const tensors = sparseTensors(4, BLOCK * 150 + 11, sparsity, 'random', `real-${call}`);
      const results = await Promise.all(workers.map((w, r) => w.allreduce(tensors[r]!)));
      expect(inexact(results, tensors)).toBeUndefined();
      retransmissions += results.reduce((n, r) => n + r.stats.retransmissions, 0);
    }
    if (wireOptions.up) expect(retransmissions).toBeGreaterThan(0);
  });
});
