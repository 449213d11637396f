// atp.p4 on the emulator, packet by packet, against docs/atp.md "The switch":
// completion at level 0 and level 1 for fan-in 1..8, duplicates, collisions,
// resends (merge and free, or alone), and what the registers hold after.
// Expected sums are computed here from the contributions (int32 addition).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AtpRig } from './support/atp-rig.js';
import { PS, atpFrame, bits, contribution, decodeAtpFrame, int32Sum, worker, type AtpFrameSpec } from './support/atp-network.js';

const N = 8;
const DEFINES = [`ATP_VALUES=${N}`, 'ATP_AGGREGATORS=64'];

let rig: AtpRig;
beforeAll(async () => {
  rig = await AtpRig.start(DEFINES);
  await rig.settings(1000, 0);
  await rig.addLevel0Job({ jobId: 1, group: 1, workers: Array.from({ length: 8 }, (_, w) => worker(w)) });
  await rig.addLevel1Job(2);
});
afterAll(async () => rig.close());

/** Worker w's level-0 contribution to (job 1, seq) at `index`, for a rack of `fanIn`. */
function level0(w: number, seq: number, index: number, fanIn: number, extra: Partial<AtpFrameSpec> = {}): AtpFrameSpec {
  return {
    from: worker(w), to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: index,
    bitmap0: bits(w), bitmap1: bits(3), fanInDegree0: fanIn, fanInDegree1: 2, values: contribution(w, seq, N), ...extra,
  };
}

describe('level 0', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('fan-in %i: all but the last contribution consumed, the sum goes on to the PS as a level-1 contribution', async (fanIn) => {
    const seq = 100 + fanIn;
    const index = fanIn;
    const before = await rig.outcomes();
    for (let w = 0; w < fanIn - 1; w++) expect(rig.send(worker(w).switchPort, atpFrame(level0(w, seq, index, fanIn)))).toEqual([]);
    const out = rig.send(worker(fanIn - 1).switchPort, atpFrame(level0(fanIn - 1, seq, index, fanIn)));
    expect(out.map((f) => f.port)).toEqual([PS.switchPort]);
    const { frame, atp, values } = decodeAtpFrame(out[0]!.frame);
    expect(values).toEqual(int32Sum(Array.from({ length: fanIn }, (_, w) => contribution(w, seq, N))));
    expect(atp).toMatchObject({
      bitmap0: bits(...Array.from({ length: fanIn }, (_, w) => w)), bitmap1: bits(3), fanInDegree0: fanIn, fanInDegree1: 2,
      edgeSwitchIdentifier: 1, resend: false, collision: false, ecn: false, overflow: false, isAck: false,
      jobId: 1, sequenceNumber: seq, aggregatorIndex: index,
    });
    // Towards the PS by its addresses, from the last contributor; UDP checksum 0, IPv4 checksum right (decode verified it).
    expect([frame.ethernet.dstMac, frame.ipv4.dstIp, frame.udp.dstPort, frame.ipv4.srcIp, frame.udp.checksum]).toEqual([PS.mac, PS.ip, PS.udpPort, worker(fanIn - 1).ip, 0]);
    const after = await rig.outcomes();
    expect((after.AGGREGATED ?? 0) - (before.AGGREGATED ?? 0)).toBe(fanIn - 1);
    expect((after.COMPLETED ?? 0) - (before.COMPLETED ?? 0)).toBe(1);
    // The aggregator keeps the sum until the ACK frees it.
    expect(await rig.aggregator(index, N)).toEqual({
      owner: (1 << 16) | seq, generation: 1, bitmap: bits(...Array.from({ length: fanIn }, (_, w) => w)), count: fanIn, ecn: 0, values,
    });
  });

  it('adds int32 values with wrapping, as two\'s complement does', () => {
    const big = [2147483647, -2147483648, 1, -1, 0, 5, 2147483000, -7];
    rig.send(1, atpFrame(level0(0, 200, 20, 2, { values: big })));
    const [out] = rig.send(2, atpFrame(level0(1, 200, 20, 2, { values: big })));
    expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([big, big]));
  });

  it('drops a duplicate (a bit already in) and counts it, and the sum has each contribution once', async () => {
    const before = (await rig.outcomes()).DUPLICATE ?? 0;
    rig.send(1, atpFrame(level0(0, 300, 30, 3)));
    expect(rig.send(1, atpFrame(level0(0, 300, 30, 3, { values: contribution(7, 1, N) })))).toEqual([]);
    rig.send(2, atpFrame(level0(1, 300, 30, 3)));
    const [out] = rig.send(3, atpFrame(level0(2, 300, 30, 3)));
    expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([0, 1, 2].map((w) => contribution(w, 300, N))));
    // After completion too: a network copy of a contribution is dropped, not a second result.
    expect(rig.send(3, atpFrame(level0(2, 300, 30, 3)))).toEqual([]);
    expect(((await rig.outcomes()).DUPLICATE ?? 0) - before).toBe(2);
  });
});

describe('level 1', () => {
  /** Contributor c's level-1 packet to (job 2, seq): a rack's aggregate or a worker of a non-aggregating rack. */
  const level1 = (c: number, seq: number, index: number, fanIn: number, extra: Partial<AtpFrameSpec> = {}): AtpFrameSpec => ({
    from: worker(c), to: PS, jobId: 2, sequenceNumber: seq, aggregatorIndex: index, edgeSwitchIdentifier: 1,
    bitmap0: c === 0 ? bits(0, 1) : 0, bitmap1: bits(c), fanInDegree0: c === 0 ? 2 : 0, fanInDegree1: fanIn, values: contribution(c, seq, N), ...extra,
  });

  it.each([1, 2, 4, 8])('fan-in %i: bitmap1 and fanInDegree1 count, the sum goes to the PS', (fanIn) => {
    const seq = 10 + fanIn;
    const index = 40 + fanIn;
    for (let c = 0; c < fanIn - 1; c++) expect(rig.send(worker(c).switchPort, atpFrame(level1(c, seq, index, fanIn)))).toEqual([]);
    const out = rig.send(worker(fanIn - 1).switchPort, atpFrame(level1(fanIn - 1, seq, index, fanIn)));
    expect(out.map((f) => f.port)).toEqual([PS.switchPort]);
    const { atp, values } = decodeAtpFrame(out[0]!.frame);
    expect(values).toEqual(int32Sum(Array.from({ length: fanIn }, (_, c) => contribution(c, seq, N))));
    expect(atp).toMatchObject({ bitmap1: bits(...Array.from({ length: fanIn }, (_, c) => c)), edgeSwitchIdentifier: 1, fanInDegree1: fanIn });
  });

  it('passes level-0 packets of the job on unchanged: another switch aggregates them', async () => {
    const before = (await rig.outcomes()).OTHER_LEVEL ?? 0;
    const frame = atpFrame(level1(1, 1, 50, 2, { edgeSwitchIdentifier: 0, bitmap0: bits(1), fanInDegree0: 3 }));
    const out = rig.send(2, frame);
    expect(out.map((f) => [f.port, f.frame.toString('hex')])).toEqual([[PS.switchPort, frame.toString('hex')]]);
    expect(((await rig.outcomes()).OTHER_LEVEL ?? 0) - before).toBe(1);
  });
});

describe('collisions', () => {
  it('an aggregator of another tag passes the packet on with collision set, values unchanged, and keeps its own state', async () => {
    rig.send(1, atpFrame(level0(0, 400, 12, 2)));
    const held = await rig.aggregator(12, N);
    const before = (await rig.outcomes()).COLLISION ?? 0;
    for (const other of [level0(1, 401, 12, 2), { ...level0(1, 400, 12, 2), jobId: 2, edgeSwitchIdentifier: 1 as const, bitmap1: bits(1), fanInDegree1: 2 }]) {
      const out = rig.send(2, atpFrame(other));
      expect(out.map((f) => f.port)).toEqual([PS.switchPort]);
      const { atp, values, frame } = decodeAtpFrame(out[0]!.frame);
      expect(values).toEqual(other.values);
      expect(atp).toMatchObject({ collision: true, jobId: other.jobId, sequenceNumber: other.sequenceNumber, bitmap0: other.bitmap0, edgeSwitchIdentifier: other.edgeSwitchIdentifier ?? 0 });
      expect(frame.udp.checksum).toBe(0);
    }
    expect(((await rig.outcomes()).COLLISION ?? 0) - before).toBe(2);
    expect(await rig.aggregator(12, N)).toEqual(held);
  });
});

describe('resends', () => {
  it('merges a new contribution with the partial aggregate, sends it on with resend set, and frees the aggregator', async () => {
    rig.send(1, atpFrame(level0(0, 500, 13, 3, { ecn: true })));
    rig.send(2, atpFrame(level0(1, 500, 13, 3)));
    const out = rig.send(3, atpFrame(level0(2, 500, 13, 3, { resend: true })));
    expect(out.map((f) => f.port)).toEqual([PS.switchPort]);
    const { atp, values } = decodeAtpFrame(out[0]!.frame);
    expect(values).toEqual(int32Sum([0, 1, 2].map((w) => contribution(w, 500, N))));
    expect(atp).toMatchObject({ resend: true, bitmap0: bits(0, 1, 2), ecn: true, edgeSwitchIdentifier: 0, collision: false });
    expect(await rig.aggregator(13)).toMatchObject({ owner: 0, bitmap: 0, count: 0 });
  });

  it('a resend whose bit is in already carries the stored partial sum, not its values twice', async () => {
    rig.send(1, atpFrame(level0(0, 501, 14, 3)));
    rig.send(2, atpFrame(level0(1, 501, 14, 3)));
    const [out] = rig.send(1, atpFrame(level0(0, 501, 14, 3, { resend: true })));
    const { atp, values } = decodeAtpFrame(out!.frame);
    expect(values).toEqual(int32Sum([0, 1].map((w) => contribution(w, 501, N))));
    expect(atp.bitmap0).toBe(bits(0, 1));
    expect((await rig.aggregator(14)).owner).toBe(0);
  });

  it('flushes a complete aggregate (its result was lost) whole', async () => {
    rig.send(1, atpFrame(level0(0, 502, 15, 2)));
    rig.send(2, atpFrame(level0(1, 502, 15, 2)));
    const [out] = rig.send(2, atpFrame(level0(1, 502, 15, 2, { resend: true })));
    expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([0, 1].map((w) => contribution(w, 502, N))));
    expect(decodeAtpFrame(out!.frame).atp.bitmap0).toBe(bits(0, 1));
  });

  it('goes on alone and unchanged when the aggregator is free, and a later contribution starts afresh', async () => {
    const before = await rig.outcomes();
    const frame = atpFrame(level0(2, 503, 16, 3, { resend: true }));
    expect(rig.send(3, frame).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[PS.switchPort, frame.toString('hex')]]);
    expect(await rig.aggregator(16)).toMatchObject({ owner: 0 });
    rig.send(1, atpFrame(level0(0, 503, 16, 2)));
    const [out] = rig.send(2, atpFrame(level0(1, 503, 16, 2)));
    expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([0, 1].map((w) => contribution(w, 503, N))));
    const after = await rig.outcomes();
    expect((after.RESEND_ALONE ?? 0) - (before.RESEND_ALONE ?? 0)).toBe(1);
    expect((after.FLUSHED ?? 0) - (before.FLUSHED ?? 0)).toBe(0);
  });

  it('a resend of another tag collides like any contribution', () => {
    rig.send(1, atpFrame(level0(0, 504, 17, 2)));
    const [out] = rig.send(2, atpFrame(level0(1, 505, 17, 2, { resend: true })));
    expect(decodeAtpFrame(out!.frame).atp).toMatchObject({ resend: true, collision: true, sequenceNumber: 505 });
  });
});

describe('as shipped (64 values, 4096 aggregators)', () => {
  it('aggregates the default 64 values at the top of the pool', async () => {
    const shipped = await AtpRig.start([]);
    try {
      await shipped.settings(1000, 0);
      await shipped.addLevel0Job({ jobId: 1, group: 1, workers: [worker(0), worker(1)] });
      const spec = (w: number): AtpFrameSpec => ({ ...level0(w, 1, 4095, 2), values: contribution(w, 1, 64) });
      expect(shipped.send(1, atpFrame(spec(0)))).toEqual([]);
      const [out] = shipped.send(2, atpFrame(spec(1)));
      expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([contribution(0, 1, 64), contribution(1, 1, 64)]));
    } finally {
      await shipped.close();
    }
  });
});
