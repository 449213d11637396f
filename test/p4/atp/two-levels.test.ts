// Two switches running atp.p4 in a row (docs/atp.md, "Roles and levels"): a
// ToR aggregating its rack at level 0 and a spine at level 1 that adds the
// rack's sum to a worker whose own ToR does not aggregate; the ACK frees both
// aggregators on its way back and the ToR multicasts it to its rack. Frames
// leaving the ToR's uplink are carried by hand to the spine and back.
import { afterEach, describe, expect, it } from 'vitest';
import { AtpRig } from './support/atp-rig.js';
import { PS, UPLINK, atpFrame, bits, contribution, decodeAtpFrame, int32Sum, worker, type AtpFrameSpec, type Host } from './support/atp-network.js';

const N = 8;
const DEFINES = [`ATP_VALUES=${N}`, 'ATP_AGGREGATORS=16'];
const rack = [worker(0), worker(1), worker(2)];
/** A worker behind a legacy ToR: a level-1 contributor of its own. */
const loner = worker(4);
/** The spine's ports: 1 towards the ToR (the rack), 2 towards the loner's ToR, the uplink towards the PS. */
const viaSpine = (h: Host, port: number): Host => ({ ...h, switchPort: port });

const rigs: AtpRig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

async function fabric(): Promise<{ tor: AtpRig; spine: AtpRig }> {
  const tor = await AtpRig.start(DEFINES, [...rack, loner, PS]);
  rigs.push(tor);
  await tor.settings(1000, 0);
  await tor.addLevel0Job({ jobId: 1, group: 1, workers: rack });
  const spine = await AtpRig.start(DEFINES, [...rack.map((h) => viaSpine(h, 1)), viaSpine(loner, 2), PS]);
  rigs.push(spine);
  await spine.settings(1000, 0);
  await spine.addLevel1Job(1);
  return { tor, spine };
}

/** Rack worker w's packet: bit w at level 0, the rack's bit 0 at level 1 of two contributors. */
const inRack = (w: number, seq: number, index: number): AtpFrameSpec => ({
  from: rack[w]!, to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: index,
  bitmap0: bits(w), bitmap1: bits(0), fanInDegree0: 3, fanInDegree1: 2, values: contribution(w, seq, N),
});
/** The loner's packet: bit 1 at level 1, sent as a level-1 contribution. */
const fromLoner = (seq: number, index: number): AtpFrameSpec => ({
  from: loner, to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: index, edgeSwitchIdentifier: 1,
  bitmap0: 0, bitmap1: bits(1), fanInDegree0: 0, fanInDegree1: 2, values: contribution(9, seq, N),
});

describe('a ToR at level 0 and a spine at level 1', () => {
  it('sums the rack at the ToR, the rack and the loner at the spine; the ACK frees both and reaches all four workers', async () => {
    const { tor, spine } = await fabric();
    expect(tor.send(1, atpFrame(inRack(0, 3, 7)))).toEqual([]);
    expect(tor.send(2, atpFrame(inRack(1, 3, 7)))).toEqual([]);
    const [rackSum] = tor.send(3, atpFrame(inRack(2, 3, 7)));
    expect(rackSum?.port).toBe(UPLINK);
    expect(decodeAtpFrame(rackSum!.frame).atp).toMatchObject({ edgeSwitchIdentifier: 1, bitmap0: bits(0, 1, 2), bitmap1: bits(0) });

    expect(spine.send(1, rackSum!.frame)).toEqual([]);
    const [total] = spine.send(2, atpFrame(fromLoner(3, 7)));
    expect(total?.port).toBe(UPLINK);
    const { atp, values } = decodeAtpFrame(total!.frame);
    expect(values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 3, N)), contribution(9, 3, N)]));
    expect(atp).toMatchObject({ edgeSwitchIdentifier: 1, bitmap1: bits(0, 1), collision: false });
    expect(await spine.outcomes()).toMatchObject({ AGGREGATED: 1, COMPLETED: 1 });

    // One ACK per aggregating rack (to one of its workers) and one to the loner.
    const result = values;
    const ackTo = (h: Host): Buffer => atpFrame({ from: PS, to: h, isAck: true, jobId: 1, sequenceNumber: 3, aggregatorIndex: 7, bitmap0: 7, bitmap1: bits(0, 1), values: result });
    const [toRack] = spine.send(UPLINK, ackTo(rack[0]!));
    expect(toRack?.port).toBe(1);
    expect(spine.send(UPLINK, ackTo(loner)).map((f) => f.port)).toEqual([2]);
    const copies = tor.send(UPLINK, toRack!.frame);
    expect(copies.map((f) => [f.port, decodeAtpFrame(f.frame).frame.ipv4.dstIp, decodeAtpFrame(f.frame).values])).toEqual(rack.map((h) => [h.switchPort, h.ip, result]));
    expect((await tor.aggregator(7)).owner).toBe(0);
    expect((await spine.aggregator(7)).owner).toBe(0);
    expect(await spine.outcomes()).toMatchObject({ ACK_FREED: 1, ACK_NOT_OWNER: 1 });
  });

  it('a collision at the spine sends the rack\'s whole sum to the PS, and the ACK at the used index still frees the ToR', async () => {
    const { tor, spine } = await fabric();
    await spine.addLevel1Job(2);
    spine.send(2, atpFrame({ ...fromLoner(50, 7), jobId: 2 }));
    for (const w of [0, 1]) tor.send(w + 1, atpFrame(inRack(w, 4, 7)));
    const [rackSum] = tor.send(3, atpFrame(inRack(2, 4, 7)));
    const [atPs] = spine.send(1, rackSum!.frame);
    expect(atPs?.port).toBe(UPLINK);
    const piece = decodeAtpFrame(atPs!.frame);
    expect(piece.atp).toMatchObject({ collision: true, edgeSwitchIdentifier: 1, bitmap0: bits(0, 1, 2), bitmap1: bits(0) });
    expect(piece.values).toEqual(int32Sum([0, 1, 2].map((w) => contribution(w, 4, N))));

    const ack = atpFrame({ from: PS, to: rack[1]!, isAck: true, jobId: 1, sequenceNumber: 4, aggregatorIndex: 7, bitmap0: 9, collision: true, values: piece.values });
    const [toRack] = spine.send(UPLINK, ack);
    expect(tor.send(UPLINK, toRack!.frame)).toHaveLength(3);
    expect((await tor.aggregator(7)).owner).toBe(0);
    expect((await spine.aggregator(7)).owner).toBe((2 << 16) | 50);
  });

  it('a level-1 packet (the loner\'s) passes a level-0 ToR of the job unchanged', async () => {
    const { tor } = await fabric();
    const frame = atpFrame(fromLoner(5, 2));
    expect(tor.send(5, frame).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[UPLINK, frame.toString('hex')]]);
    expect(await tor.outcomes()).toMatchObject({ OTHER_LEVEL: 1 });
  });
});
