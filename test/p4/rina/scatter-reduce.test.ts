// rina_tor.p4 on the emulator, packet by packet, against docs/rina.md: a
// round sums every rack worker's CONTRIBUTION and, from round 1 on, the
// predecessor's RING_DATA; the packet that completes it leaves as the rack's
// RING_DATA to the next member and to every rack worker. Expected values are
// computed here from the contributions (int32 addition, or the maximum in
// the exponent pass).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RinaMessageType, RinaPhase, RINA_EXPONENT_PASS } from '../../../src/wire/index.js';
import { grew, RinaRig } from './support/rina-rig.js';
import { AGENT, NEXT, PRED, SWITCH_MAC, contribution, int32Max, int32Sum, rinaFrame, worker, type RinaFrameSpec } from './support/rina-network.js';
import { DEFINES, N, RING, contrib, emitted, ports, predData } from './support/ring-job.js';

/** Job 7 (RING): a rack of 3 at ring position 1 of 3. Job 8: a ring of one rack of 2. Job 9: a rack of 1 at position 0 of 2. */
let rig: RinaRig;
beforeAll(async () => {
  rig = await RinaRig.start(DEFINES);
  await rig.addJob(RING);
  await rig.addJob({ jobId: 8, slotBase: 16, poolSize: 4, rackWorkers: 2, group: 2, rank: 0, ringLength: 1 });
  await rig.addJob({ jobId: 9, slotBase: 32, poolSize: 4, rackWorkers: 1, group: 3, rank: 0, ringLength: 2, pred: PRED, next: NEXT });
});
afterAll(async () => rig.close());

function send(spec: RinaFrameSpec) {
  return rig.send(spec.from.switchPort, rinaFrame(spec));
}

describe('a round', () => {
  it('round 0 of a rack of 3: the first two are consumed, the third leaves as scatter-reduce step 0 to the next member and the rack', async () => {
    const before = await rig.outcomes();
    expect(send(contrib(0, 0, 0))).toEqual([]);
    expect(send(contrib(1, 0, 0))).toEqual([]);
    const out = emitted(send(contrib(2, 0, 0)));
    const sum = int32Sum([0, 1, 2].map((w) => contribution(w, 0, N)));
    expect(ports(out)).toEqual([1, 2, 3, NEXT.switchPort]);
    for (const o of out) {
      const to = o.port === NEXT.switchPort ? NEXT : worker(o.port - 1);
      expect([o.dstMac, o.dstIp, o.dstPort]).toEqual([to.mac, to.ip, to.udpPort]);
      // Sent as the agent, the ring's address for the rack; UDP checksum 0.
      expect([o.srcMac, o.srcIp, o.srcPort, o.checksum]).toEqual([SWITCH_MAC, AGENT.ip, AGENT.udpPort, 0]);
      expect(o.values).toEqual(sum);
      // The next member's round 1 of the chunk is in the slot's other copy: the set flips.
      expect(o.rina).toMatchObject({ messageType: RinaMessageType.RING_DATA, phase: RinaPhase.SCATTER_REDUCE, step: 0, senderRank: 1, workerId: 0, segment: 1, slot: 0, set: 1, jobId: 7 });
    }
    expect(grew(before, await rig.outcomes())).toEqual({ AGGREGATED: 2, EMITTED: 1 });
  });

  it('round 1 adds the predecessor\'s step-0 data, once a rack worker has opened it, and leaves as step 1', () => {
    send(contrib(0, 1, 1));
    expect(send(predData(0, 1))).toEqual([]);
    send(contrib(2, 1, 1));
    const out = emitted(send(contrib(1, 1, 1)));
    expect(out).toHaveLength(4);
    const expected = int32Sum([...[0, 1, 2].map((w) => contribution(w, 101, N)), contribution(9, 1, N)]);
    for (const o of out) expect([o.rina.phase, o.rina.step, o.rina.segment, o.values]).toEqual([RinaPhase.SCATTER_REDUCE, 1, 0, expected]);
    // The predecessor last this time.
    for (const w of [0, 1, 2]) send(contrib(w, 1, 2));
    const last = emitted(send(predData(0, 2)));
    expect(last).toHaveLength(4);
    expect(last[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 102, N)), contribution(9, 2, N)]));
    expect([last[0]!.srcIp, last[0]!.srcPort]).toEqual([AGENT.ip, AGENT.udpPort]);
  });

  it('the last round (ring length − 1) leaves as the reduced segment: all-gather step 0, to the next member and the rack', () => {
    for (const w of [0, 1, 2]) send(contrib(w, 2, 3));
    const out = emitted(send(predData(1, 3)));
    expect(ports(out)).toEqual([1, 2, 3, NEXT.switchPort]);
    for (const o of out) expect(o.rina).toMatchObject({ phase: RinaPhase.ALL_GATHER, step: 0, segment: 2, senderRank: 1 });
  });

  it('adds int32 values with wrapping, as two\'s complement does', () => {
    const big = [2147483647, -2147483648, 1, -1, 0, 5, 2147483000, -7];
    for (const w of [0, 1]) send(contrib(w, 0, 4, { values: big }));
    const [out] = emitted(send(contrib(2, 0, 4, { values: big })));
    expect(out!.values).toEqual(int32Sum([big, big, big]));
  });

  it('the exponent pass (exponent −128) keeps the signed maximum instead of the sum', () => {
    const v = (w: number): number[] => [w - 3, -100 + w, 7 * w, -1, -2147483648 + w, 2147483647 - w, 0, w % 2 === 0 ? -5 : 5];
    for (const w of [0, 1]) send(contrib(w, 1, 5, { exponent: RINA_EXPONENT_PASS, values: v(w) }));
    send(predData(0, 5, { exponent: RINA_EXPONENT_PASS, values: v(7) }));
    const [out] = emitted(send(contrib(2, 1, 5, { exponent: RINA_EXPONENT_PASS, values: v(2) })));
    expect(out!.values).toEqual(int32Max([0, 1, 2, 7].map(v)));
    expect(out!.rina.exponent).toBe(RINA_EXPONENT_PASS);
  });
});

describe('rings of other shapes', () => {
  it('a ring of one rack: round 0 is the last, multicast to the rack only', () => {
    const spec = (w: number): RinaFrameSpec => ({ from: worker(w), to: AGENT, jobId: 8, workerId: w, step: 0, segment: 0, chunk: 0, slot: 0, values: contribution(w, 5, N) });
    send(spec(0));
    const out = emitted(send(spec(1)));
    expect(ports(out)).toEqual([1, 2]);
    for (const o of out) expect(o.rina).toMatchObject({ phase: RinaPhase.ALL_GATHER, step: 0, senderRank: 0 });
    expect(out[0]!.values).toEqual(int32Sum([contribution(0, 5, N), contribution(1, 5, N)]));
  });

  it('a rack of one: round 0 leaves with the agent\'s contribution alone; round 1 waits for the predecessor', () => {
    const own = (step: number, slot: number): RinaFrameSpec => ({ from: AGENT, to: AGENT, jobId: 9, workerId: 0, step, segment: step === 0 ? 0 : 1, chunk: slot, slot, values: contribution(0, slot, N) });
    const out = emitted(send(own(0, 0)));
    expect(ports(out)).toEqual([1, NEXT.switchPort]);
    expect(out[0]!.rina).toMatchObject({ phase: RinaPhase.SCATTER_REDUCE, step: 0 });
    expect(send(own(1, 1))).toEqual([]);
    const last = emitted(send({ ...predData(0, 1), jobId: 9, segment: 1 }));
    expect(last[0]!.rina).toMatchObject({ phase: RinaPhase.ALL_GATHER, step: 0 });
    expect(last[0]!.values).toEqual(int32Sum([contribution(0, 1, N), contribution(9, 1, N)]));
  });
});

