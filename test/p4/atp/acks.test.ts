// The PS's ACKs through atp.p4 (docs/atp.md, "An ACK"): an ACK frees the
// aggregator at its aggregatorIndex only when it holds the ACK's tag; at
// level 0 it is multicast to the rack's workers, each copy addressed to one
// worker in egress; at level 1 it goes on by its destination.
import { afterEach, describe, expect, it } from 'vitest';
import { action, insert, multicastGroup, table } from '../../../src/p4runtime/index.js';
import { AtpRig } from './support/atp-rig.js';
import { PS, SWITCH_MAC, atpFrame, bits, contribution, decodeAtpFrame, worker, type AtpFrameSpec } from './support/atp-network.js';

const N = 8;
const DEFINES = [`ATP_VALUES=${N}`, 'ATP_AGGREGATORS=64'];
const rack = [worker(0), worker(1), worker(2)];

let rig: AtpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function level0Switch(): Promise<AtpRig> {
  rig = await AtpRig.start(DEFINES);
  await rig.settings(1000, 0);
  await rig.addLevel0Job({ jobId: 1, group: 1, workers: rack });
  return rig;
}

/** Workers 0 and 1 (of a rack of 3) contribute to (job 1, seq) at `index`: a partial aggregate. */
function partial(r: AtpRig, seq: number, index: number): void {
  for (const w of [0, 1]) {
    r.send(worker(w).switchPort, atpFrame({ from: worker(w), to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: index, bitmap0: bits(w), bitmap1: 1, fanInDegree0: 3, fanInDegree1: 1, values: contribution(w, seq, N) }));
  }
}

/** The PS's ACK of (job, seq), addressed to worker 0; bitmap0 names the next index (docs/atp.md). */
function ack(seq: number, index: number, extra: Partial<AtpFrameSpec> = {}): AtpFrameSpec {
  return { from: PS, to: worker(0), isAck: true, jobId: 1, sequenceNumber: seq, aggregatorIndex: index, bitmap0: 33, bitmap1: 1, ecn: true, values: contribution(9, seq, N), ...extra };
}

describe('at level 0', () => {
  it('an ACK of another tag frees nothing; the ACK of the tag frees; both reach every worker of the rack, addressed to each', async () => {
    const r = await level0Switch();
    partial(r, 7, 3);
    const held = await r.aggregator(3, N);
    for (const [seq, freed] of [[8, false], [7, true]] as const) {
      const sent = ack(seq, 3);
      const out = r.send(PS.switchPort, atpFrame(sent));
      expect(out.map((f) => f.port)).toEqual(rack.map((w) => w.switchPort));
      out.forEach((copy, i) => {
        const { frame, atp, values } = decodeAtpFrame(copy.frame);
        expect([frame.ethernet.dstMac, frame.ipv4.dstIp, frame.udp.dstPort]).toEqual([rack[i]!.mac, rack[i]!.ip, rack[i]!.udpPort]);
        expect([frame.ethernet.srcMac, frame.ipv4.srcIp, frame.udp.srcPort, frame.udp.checksum]).toEqual([SWITCH_MAC, PS.ip, PS.udpPort, 0]);
        expect(values).toEqual(sent.values);
        expect(atp).toMatchObject({ isAck: true, jobId: 1, sequenceNumber: seq, aggregatorIndex: 3, bitmap0: 33, bitmap1: 1, ecn: true });
      });
      expect(await r.aggregator(3, N)).toEqual(freed ? { owner: 0, generation: 0, bitmap: 0, count: 0, ecn: 0, values: held.values } : held);
    }
    expect(await r.outcomes()).toMatchObject({ AGGREGATED: 2, ACK_NOT_OWNER: 1, ACK_FREED: 1, ACK_MULTICAST: 2 });
  });

  it('a freed aggregator is taken by the next tag', async () => {
    const r = await level0Switch();
    partial(r, 7, 3);
    r.send(PS.switchPort, atpFrame(ack(7, 3)));
    partial(r, 8, 3);
    expect(await r.aggregator(3)).toMatchObject({ owner: (1 << 16) | 8, bitmap: bits(0, 1), count: 2 });
  });

  it('an ACK for an index past the pool frees nothing and is still delivered', async () => {
    const r = await level0Switch();
    const out = r.send(PS.switchPort, atpFrame(ack(7, 64)));
    expect(out).toHaveLength(3);
    expect(await r.outcomes()).toMatchObject({ ACK_NOT_OWNER: 1, ACK_MULTICAST: 1 });
  });

  it('drops a copy whose replica has no ack_rewrite entry, and counts it', async () => {
    const r = await level0Switch();
    await r.write([
      insert(multicastGroup(2, [{ port: 1, instance: 0 }, { port: 4, instance: 7 }])),
      insert(table('ingress.atp.atp_jobs', { job_id: 3 }, action('ingress.atp.aggregate_at_level0', { generation: 1, mcast_group: 2 }))),
    ]);
    const out = r.send(PS.switchPort, atpFrame(ack(1, 0, { jobId: 3 })));
    expect(out).toEqual([]);
    expect(await r.counter('egress.ack_rewrite_misses')).toEqual([2]);
  });
});

describe('at level 1', () => {
  it('frees on the tag and forwards the ACK by its destination, unchanged', async () => {
    rig = await AtpRig.start(DEFINES);
    await rig.settings(1000, 0);
    await rig.addLevel1Job(1);
    rig.send(2, atpFrame({ from: worker(1), to: PS, jobId: 1, sequenceNumber: 4, aggregatorIndex: 9, edgeSwitchIdentifier: 1, bitmap1: bits(1), fanInDegree1: 2, values: contribution(1, 4, N) }));
    expect((await rig.aggregator(9)).owner).toBe((1 << 16) | 4);
    const frame = atpFrame(ack(4, 9));
    expect(rig.send(PS.switchPort, frame).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[1, frame.toString('hex')]]);
    expect((await rig.aggregator(9)).owner).toBe(0);
    expect(await rig.outcomes()).toMatchObject({ AGGREGATED: 1, ACK_FREED: 1 });
  });
});
