// rina_tor.p4: what retransmitted, late and early packets do (docs/rina.md,
// "What a scatter-reduce packet does"): nothing is added twice, a complete
// round answers from its slot copy (to the rack worker, or to the next
// member and the agent, or by passing the predecessor's data on to the
// agent), late packets of earlier rounds are dropped, the predecessor's data
// waits until the rack is done with the copy, and a round nobody will finish
// is taken over.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RinaMessageType, RinaPhase } from '../../../src/wire/index.js';
import { grew, RinaRig } from './support/rina-rig.js';
import { AGENT, NEXT, PRED, contribution, decodeRinaFrame, int32Sum, rinaFrame, worker, type RinaFrameSpec } from './support/rina-network.js';
import { DEFINES, N, RING, contrib, emitted, ports, predData } from './support/ring-job.js';

let rig: RinaRig;
beforeAll(async () => {
  rig = await RinaRig.start(DEFINES);
  await rig.addJob(RING);
});
afterAll(async () => rig.close());

function send(spec: RinaFrameSpec) {
  return rig.send(spec.from.switchPort, rinaFrame(spec));
}

let drops: Awaited<ReturnType<RinaRig['drops']>>;
let outcomes: Awaited<ReturnType<RinaRig['outcomes']>>;
beforeEach(async () => {
  drops = await rig.drops();
  outcomes = await rig.outcomes();
});
const dropsSince = async () => grew(drops, await rig.drops());
const outcomesSince = async () => grew(outcomes, await rig.outcomes());

describe('while a round fills', () => {
  it('a contribution or predecessor data sent twice is dropped, and the sum has it once', async () => {
    send(contrib(0, 1, 0));
    expect(send(contrib(0, 1, 0, { values: contribution(5, 1, N) }))).toEqual([]);
    send(predData(0, 0));
    expect(send(predData(0, 0))).toEqual([]);
    send(contrib(1, 1, 0));
    const out = emitted(send(contrib(2, 1, 0)));
    expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 100, N)), contribution(9, 0, N)]));
    expect(await dropsSince()).toEqual({ DUPLICATE: 2 });
  });
});

describe('once a round is complete', () => {
  beforeAll(() => {
    for (const w of [0, 1, 2]) send(contrib(w, 1, 1));
    send(predData(0, 1));
  });
  const sum = () => int32Sum([...[0, 1, 2].map((w) => contribution(w, 101, N)), contribution(9, 1, N)]);

  it('a rack worker\'s retransmission gets the stored result back, to it alone', async () => {
    // Other values in the retransmission: what comes back is the stored sum, never re-added.
    const out = emitted(send(contrib(1, 1, 1, { values: contribution(6, 0, N) })));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ port: 2, dstMac: worker(1).mac, dstIp: worker(1).ip, dstPort: worker(1).udpPort, srcIp: AGENT.ip, srcPort: AGENT.udpPort, values: sum() });
    expect(out[0]!.rina).toMatchObject({ messageType: RinaMessageType.RING_DATA, phase: RinaPhase.SCATTER_REDUCE, step: 1, senderRank: 1 });
    expect(await outcomesSince()).toEqual({ ANSWERED: 1 });
  });

  it('the agent\'s retransmission sends the stored result again to the next member and to the agent only', async () => {
    const out = emitted(send(contrib(0, 1, 1)));
    expect(ports(out)).toEqual([AGENT.switchPort, NEXT.switchPort]);
    for (const o of out) expect(o.values).toEqual(sum());
    expect(out.find((o) => o.port === NEXT.switchPort)).toMatchObject({ dstIp: NEXT.ip, dstPort: NEXT.udpPort });
    expect(await outcomesSince()).toEqual({ REEMITTED: 1 });
  });

  it('the predecessor\'s retransmission goes on to the agent as it came, so that the agent acknowledges it', async () => {
    const frame = rinaFrame(predData(0, 1));
    const out = rig.send(PRED.switchPort, frame);
    expect(out.map((o) => o.port)).toEqual([AGENT.switchPort]);
    const d = decodeRinaFrame(out[0]!.frame);
    expect(d.rina).toMatchObject({ messageType: RinaMessageType.RING_DATA, step: 0, senderRank: 0 });
    expect([d.frame.ipv4.srcIp, d.frame.ipv4.dstIp, d.values]).toEqual([PRED.ip, AGENT.ip, contribution(9, 1, N)]);
    expect(await outcomesSince()).toEqual({ TO_AGENT: 1 });
  });
});

describe('the predecessor ahead of the rack', () => {
  // Slot 4, set 0: round y = (round 0, chunk 4), then x = (round 1, chunk 4).
  const y = (w: number) => contrib(w, 0, 4, { chunk: 4, set: 0 });
  const x = (w: number) => contrib(w, 1, 4, { chunk: 4, set: 0 });
  const xPred = () => predData(0, 4, { chunk: 4, set: 0 });

  it('its data for a round the rack has not opened waits in the copy\'s stash and joins when the rack opens it', async () => {
    for (const w of [0, 1, 2]) send(y(w));
    expect(send(xPred())).toEqual([]);
    expect(await outcomesSince()).toMatchObject({ STASHED: 1 });
    // Its retransmission finds it kept; data for a later round of the copy finds the stash taken.
    expect(send(xPred())).toEqual([]);
    expect(send(predData(1, 4, { chunk: 4, set: 0 }))).toEqual([]);
    expect(await dropsSince()).toEqual({ DUPLICATE: 1, EARLY: 1 });
    send(x(0));
    send(x(1));
    const out = emitted(send(x(2)));
    expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 104, N)), contribution(9, 4, N)]));
    expect(await rig.cell('stash_full', 8)).toBe(0);
  });

  it('a late contribution of an earlier round is dropped as stale; late predecessor data goes on to the agent', async () => {
    expect(send(y(1))).toEqual([]);
    expect(await dropsSince()).toEqual({ STALE: 1 });
    // The previous epoch's data for the same copy: consumed long ago.
    const out = send(predData(0, 4, { chunk: 4, set: 0, epoch: 0 }));
    expect(out.map((o) => o.port)).toEqual([AGENT.switchPort]);
    expect(await outcomesSince()).toEqual({ TO_AGENT: 1 });
  });

  it('a late packet of the previous epoch is stale too, although its round and chunk are larger', async () => {
    expect(send(contrib(2, 2, 4, { chunk: 36, set: 0, epoch: 0 }))).toEqual([]);
    expect(await dropsSince()).toEqual({ STALE: 1 });
  });

  it('its data opens its round k itself once the slot\'s other copy holds round k − 1 of the chunk with every rack worker\'s bit', async () => {
    for (const w of [0, 1]) send(contrib(w, 0, 8, { chunk: 8, set: 0 }));
    expect(send(predData(0, 8, { chunk: 8, set: 1 }))).toEqual([]);
    expect(await outcomesSince()).toMatchObject({ STASHED: 1 });
    const before = await rig.outcomes();
    send(contrib(2, 0, 8, { chunk: 8, set: 0 }));
    // Chunk 9: all three sent round 0, so the predecessor's round 1 opens the other copy.
    for (const w of [0, 1, 2]) send(contrib(w, 0, 9, { chunk: 9, set: 0 }));
    const opened = await rig.outcomes();
    expect(send(predData(0, 9, { chunk: 9, set: 1 }))).toEqual([]);
    expect(grew(opened, await rig.outcomes())).toEqual({ AGGREGATED: 1 });
    expect(await rig.cell('pred_seen', 2 * 9 + 1)).toBe(1);
    for (const w of [0, 1]) send(contrib(w, 1, 9, { chunk: 9, set: 1 }));
    const out = emitted(send(contrib(2, 1, 9, { chunk: 9, set: 1 })));
    expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 109, N)), contribution(9, 9, N)]));
    expect(grew(before, opened)).toMatchObject({ EMITTED: 2 });
  });
});

describe('the stash', () => {
  it('is emptied when its round opens, whoever opens it, so it can never meet the same tag again', async () => {
    for (const w of [0, 1]) send(contrib(w, 0, 12, { chunk: 12, set: 0 }));
    send(predData(0, 12, { chunk: 12, set: 1 }));
    expect(await rig.cell('stash_full', 2 * 12 + 1)).toBe(1);
    send(contrib(2, 0, 12, { chunk: 12, set: 0 }));
    // Its retransmission is released now and opens the round itself: the stash goes.
    send(predData(0, 12, { chunk: 12, set: 1 }));
    expect(await rig.cell('stash_full', 2 * 12 + 1)).toBe(0);
    for (const w of [0, 1]) send(contrib(w, 1, 12, { chunk: 12, set: 1 }));
    const out = emitted(send(contrib(2, 1, 12, { chunk: 12, set: 1 })));
    expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 112, N)), contribution(9, 12, N)]));
  });
});

describe('a round nobody will finish', () => {
  it('is taken over by a rack worker\'s newer round; the predecessor\'s newer data waits in the stash instead', async () => {
    // A stray: worker 2's contribution to a round the others never send.
    send(contrib(2, 0, 6, { chunk: 6 }));
    expect(send(predData(0, 6, { chunk: 22 }))).toEqual([]);
    expect(await outcomesSince()).toEqual({ AGGREGATED: 1, STASHED: 1 });
    send(contrib(0, 1, 6, { chunk: 22 }));
    // The round that took the stray's copy over, with the predecessor's stashed data in it.
    expect(await outcomesSince()).toEqual({ AGGREGATED: 2, STASHED: 1, TAKEOVER: 1 });
    send(contrib(1, 1, 6, { chunk: 22 }));
    const out = emitted(send(contrib(2, 1, 6, { chunk: 22 })));
    expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 122, N)), contribution(9, 22, N)]));
  });
});
