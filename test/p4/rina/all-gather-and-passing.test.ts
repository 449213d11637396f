// rina_tor.p4: all-gather data for the agent is multicast to the rack, and
// what is not the ToR's passes as forward.p4 would pass it: ACKs, RING_DATA
// for other hosts, Rina packets of jobs without an entry, other UDP.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildUdpFrame, RinaMessageType, RinaPhase } from '../../../src/wire/index.js';
import { grew, RinaRig } from './support/rina-rig.js';
import { AGENT, NEXT, PRED, STRANGER, SWITCH_MAC, contribution, rinaFrame, worker, type RinaFrameSpec } from './support/rina-network.js';
import { DEFINES, N, RING, emitted, ports } from './support/ring-job.js';

let rig: RinaRig;
beforeAll(async () => {
  rig = await RinaRig.start(DEFINES);
  await rig.addJob(RING);
});
afterAll(async () => rig.close());

let outcomes: Awaited<ReturnType<RinaRig['outcomes']>>;
let drops: Awaited<ReturnType<RinaRig['drops']>>;
beforeEach(async () => {
  outcomes = await rig.outcomes();
  drops = await rig.drops();
});

const allGather = (extra: Partial<RinaFrameSpec> = {}): RinaFrameSpec => ({
  from: PRED, to: AGENT, type: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, senderRank: 0, step: 1, segment: 0, chunk: 3, slot: 3,
  values: contribution(4, 3, N), ...extra,
});

it('all-gather data for the agent is multicast to every rack worker, not to the next member, values and source as they came', async () => {
  const out = emitted(rig.send(PRED.switchPort, rinaFrame(allGather())));
  expect(ports(out)).toEqual([1, 2, 3]);
  for (const o of out) {
    const w = worker(o.port - 1);
    expect([o.dstMac, o.dstIp, o.dstPort, o.srcMac, o.srcIp, o.srcPort, o.checksum]).toEqual([w.mac, w.ip, w.udpPort, SWITCH_MAC, PRED.ip, PRED.udpPort, 0]);
    expect(o.rina).toMatchObject({ messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step: 1, senderRank: 0, segment: 0 });
    expect(o.values).toEqual(contribution(4, 3, N));
  }
  // A retransmission is multicast again: the rack's workers keep the first copy.
  expect(rig.send(PRED.switchPort, rinaFrame(allGather()))).toHaveLength(3);
  expect(grew(outcomes, await rig.outcomes())).toEqual({ RACK_MULTICAST: 2 });
});

it('all-gather data from anyone but the predecessor is dropped', async () => {
  expect(rig.send(STRANGER.switchPort, rinaFrame(allGather({ from: STRANGER })))).toEqual([]);
  expect(grew(drops, await rig.drops())).toEqual({ WRONG_SOURCE: 1 });
});

it('ACKs, the agent\'s own RING_DATA to the next member and data for other hosts pass unchanged', async () => {
  const ack = rinaFrame({ from: NEXT, to: AGENT, type: RinaMessageType.ACK, senderRank: 2, step: 0, values: [] });
  expect(rig.send(NEXT.switchPort, ack)).toEqual([{ port: AGENT.switchPort, frame: ack }]);
  const rackAck = rinaFrame({ from: worker(2), to: AGENT, type: RinaMessageType.ACK, phase: RinaPhase.ALL_GATHER, workerId: 2, values: [] });
  expect(rig.send(3, rackAck)).toEqual([{ port: AGENT.switchPort, frame: rackAck }]);
  const forward = rinaFrame(allGather({ from: AGENT, to: NEXT, senderRank: 1, step: 2 }));
  expect(rig.send(AGENT.switchPort, forward)).toEqual([{ port: NEXT.switchPort, frame: forward }]);
  const resend = rinaFrame(allGather({ from: AGENT, to: worker(2), senderRank: 1 }));
  expect(rig.send(AGENT.switchPort, resend)).toEqual([{ port: 3, frame: resend }]);
  expect(grew(outcomes, await rig.outcomes())).toEqual({ PASSING: 4 });
});

it('Rina packets of a job without an entry, and other UDP, are forwarded by their addresses', async () => {
  const other = rinaFrame({ from: worker(1), to: AGENT, jobId: 99, workerId: 1, values: contribution(1, 0, N) });
  expect(rig.send(2, other)).toEqual([{ port: AGENT.switchPort, frame: other }]);
  expect(grew(outcomes, await rig.outcomes())).toEqual({ NO_JOB: 1 });
  const buf = Buffer.alloc(200);
  const udp = Buffer.from(buf.subarray(0, buildUdpFrame(buf, 0, { srcMac: PRED.mac, dstMac: AGENT.mac, srcIp: PRED.ip, dstIp: AGENT.ip, srcPort: 5000, dstPort: 5001 }, Buffer.from('hello'))));
  expect(rig.send(PRED.switchPort, udp)).toEqual([{ port: AGENT.switchPort, frame: udp }]);
});
