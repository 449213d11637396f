// omnireduce.p4, message by message (docs/p4-programs.md §5, "What a message
// does"): every message goes to the switch and to the host aggregator
// (src/agent/omnireduce) from the same sender, and the two must send the
// same bytes to the same workers; the replies are also checked against
// payloads encoded here from hand-computed sums, minima and exponents.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NEXT_TSI_NONE } from '../../../src/wire/index.js';
import { grew } from '../rina/support/rina-rig.js';
import { HostReference } from './support/host-reference.js';
import { Lockstep } from './support/lockstep.js';
import { AGGREGATOR_PORT, contribution, int32Sum, omniPayload, SWITCH_IP, SWITCH_MAC, worker } from './support/omnireduce-network.js';
import { jobOf, OmniReduceRig } from './support/omnireduce-rig.js';

const B = 8;
const SLOTS = 8;
const NONE = NEXT_TSI_NONE;
/** Block b of slot s's stream starts at (s + b·SLOTS)·B. */
const tsiOf = (slot: number, b: number) => (slot + b * SLOTS) * B;

let rig: OmniReduceRig;
let step: Lockstep;
beforeAll(async () => {
  rig = await OmniReduceRig.start([`OMNIREDUCE_BLOCK=${B}`, 'OMNIREDUCE_SLOTS=64']);
  const job = jobOf(7, 3, { slotCount: SLOTS });
  await rig.addJob(job);
  step = new Lockstep(rig, new HostReference(job.workers, SLOTS, B));
});
afterAll(async () => rig.close());

let drops: Awaited<ReturnType<OmniReduceRig['drops']>>;
let outcomes: Awaited<ReturnType<OmniReduceRig['outcomes']>>;
beforeEach(async () => {
  drops = await rig.drops();
  outcomes = await rig.outcomes();
});
const dropsSince = async () => grew(drops, await rig.drops());
const outcomesSince = async () => grew(outcomes, await rig.outcomes());

const W = [0, 1, 2].map(worker);
const block = (w: number, round: number) => contribution(w, round, B);

/** Priming for `slot`: every worker names the first block with its exponent. */
function prime(slot: number, exponents: readonly number[], set: 0 | 1 = 0) {
  return exponents.map((exponent, w) => step.agree({ from: W[w]!, slot, set, tsi: tsiOf(slot, 0), nextTsi: tsiOf(slot, 0), exponent }));
}

describe('a slot\'s stream, round by round', () => {
  const slot = 0;

  it('priming: nothing until every worker is in, then a value-less reply with the largest exponent, multicast to every worker', async () => {
    const out = prime(slot, [3, -2, 7]);
    expect(out.slice(0, 2)).toEqual([[], []]);
    const replies = out[2]!;
    expect(replies.map((r) => [r.port, r.to, r.dstMac])).toEqual(W.map((h) => [h.switchPort, `10.0.1.${h.switchPort}:${h.udpPort}`, h.mac]));
    for (const r of replies) {
      expect(r.payload).toEqual(omniPayload({ from: W[0]!, slot, set: 0, tsi: 0, nextTsi: 0, exponent: 7 }));
      expect(r).toMatchObject({ srcMac: SWITCH_MAC, srcIp: SWITCH_IP, srcPort: AGGREGATOR_PORT, ttl: 64, udpChecksum: 0 });
    }
    expect(await outcomesSince()).toEqual({ ADDED: 2, REPLIED: 1 });
  });

  it('round 1, the first block of every worker: the sum, the least next block and the exponent of the workers that hold it', async () => {
    step.agree({ from: W[0]!, slot, set: 1, tsi: 0, nextTsi: tsiOf(slot, 1), exponent: 3, values: block(0, 1) });
    step.agree({ from: W[1]!, slot, set: 1, tsi: 0, nextTsi: tsiOf(slot, 2), exponent: 5, values: block(1, 1) });
    const replies = step.agree({ from: W[2]!, slot, set: 1, tsi: 0, nextTsi: NONE, exponent: -127, values: block(2, 1) });
    expect(replies).toHaveLength(3);
    expect(replies[0]!.payload).toEqual(omniPayload({ from: W[0]!, slot, set: 1, tsi: 0, nextTsi: tsiOf(slot, 1), exponent: 3, values: int32Sum([0, 1, 2].map((w) => block(w, 1))) }));
  });

  it('round 2, one block and two value-less messages: the last, value-less, leaves as the whole reply, the exponent the largest at the minimum', async () => {
    const tsi = tsiOf(slot, 1);
    step.agree({ from: W[0]!, slot, set: 0, tsi, nextTsi: tsiOf(slot, 2), exponent: 2, values: block(0, 2) });
    step.agree({ from: W[1]!, slot, set: 0, tsi, nextTsi: tsiOf(slot, 2), exponent: 5 });
    const replies = step.agree({ from: W[2]!, slot, set: 0, tsi, nextTsi: NONE, exponent: -127 });
    expect(replies).toHaveLength(3);
    for (const r of replies) {
      expect(r.payload).toEqual(omniPayload({ from: W[0]!, slot, set: 0, tsi, nextTsi: tsiOf(slot, 2), exponent: 5, values: block(0, 2) }));
      expect(r.payload.length).toBe(12 + 4 * B);
    }
  });

  it('round 3 ends the stream: next_tsi none and exponent -127, the sum of the two blocks', async () => {
    const tsi = tsiOf(slot, 2);
    step.agree({ from: W[2]!, slot, set: 1, tsi, nextTsi: NONE, exponent: -127 });
    step.agree({ from: W[0]!, slot, set: 1, tsi, nextTsi: NONE, exponent: 9, values: block(0, 3) });
    const replies = step.agree({ from: W[1]!, slot, set: 1, tsi, nextTsi: NONE, exponent: 4, values: block(1, 3) });
    expect(replies[0]!.payload).toEqual(omniPayload({ from: W[0]!, slot, set: 1, tsi, nextTsi: NONE, exponent: -127, values: int32Sum([block(0, 3), block(1, 3)]) }));
  });

  it('a retransmission of the last round gets the stored reply back by unicast, with the block even when it had none', async () => {
    const tsi = tsiOf(slot, 2);
    const replies = step.agree({ from: W[2]!, slot, set: 1, tsi, nextTsi: NONE, exponent: -127 });
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ port: W[2]!.switchPort, dstMac: W[2]!.mac, to: `10.0.1.3:${W[2]!.udpPort}`, srcIp: SWITCH_IP, srcPort: AGGREGATOR_PORT, udpChecksum: 0 });
    expect(replies[0]!.values).toEqual(int32Sum([block(0, 3), block(1, 3)]));
    // With other values in it: what comes back is the stored sum, nothing added.
    const again = step.agree({ from: W[0]!, slot, set: 1, tsi, nextTsi: NONE, exponent: 9, values: block(5, 5) });
    expect(again[0]!.values).toEqual(int32Sum([block(0, 3), block(1, 3)]));
    expect(await outcomesSince()).toEqual({ RESENT: 2 });
  });

  it('a late message of an earlier round is stale: dropped, nothing sent', async () => {
    expect(step.agree({ from: W[1]!, slot, set: 0, tsi: tsiOf(slot, 1), nextTsi: tsiOf(slot, 2), exponent: 5 })).toEqual([]);
    expect(step.agree({ from: W[1]!, slot, set: 1, tsi: 0, nextTsi: tsiOf(slot, 2), exponent: 5, values: block(1, 1) })).toEqual([]);
    expect(await dropsSince()).toEqual({ STALE: 2 });
  });

  it('the next call\'s priming starts on the idle slot in the other set, and the last round still answers its retransmissions', async () => {
    expect(step.agree({ from: W[0]!, slot, set: 0, tsi: 0, nextTsi: 0, exponent: 1 })).toEqual([]);
    expect(step.agree({ from: W[2]!, slot, set: 1, tsi: tsiOf(slot, 2), nextTsi: NONE, exponent: -127 })).toHaveLength(1);
    step.agree({ from: W[1]!, slot, set: 0, tsi: 0, nextTsi: 0, exponent: 2 });
    const replies = step.agree({ from: W[2]!, slot, set: 0, tsi: 0, nextTsi: 0, exponent: -5 });
    expect(replies[0]!.payload).toEqual(omniPayload({ from: W[0]!, slot, set: 0, tsi: 0, nextTsi: 0, exponent: 2 }));
  });
});

describe('duplicates and strangers', () => {
  it('a message sent twice while its round fills is dropped, and the sum has it once', async () => {
    const slot = 1;
    prime(slot, [0, 0, 0]);
    const msg = (w: number, values: number[]) => ({ from: W[w]!, slot, set: 1 as const, tsi: tsiOf(slot, 0), nextTsi: NONE, exponent: -127, values });
    step.agree(msg(0, block(0, 7)));
    expect(step.agree(msg(0, block(4, 4)))).toEqual([]);
    step.agree(msg(1, block(1, 7)));
    expect(step.agree(msg(1, block(1, 7)))).toEqual([]);
    const replies = step.agree(msg(2, block(2, 7)));
    expect(replies[0]!.values).toEqual(int32Sum([0, 1, 2].map((w) => block(w, 7))));
    expect(await dropsSince()).toEqual({ DUPLICATE: 2 });
  });

  it('a priming message duplicated before its round completes is dropped too', async () => {
    const slot = 2;
    step.agree({ from: W[0]!, slot, tsi: tsiOf(slot, 0), nextTsi: tsiOf(slot, 0), exponent: 1 });
    expect(step.agree({ from: W[0]!, slot, tsi: tsiOf(slot, 0), nextTsi: tsiOf(slot, 0), exponent: 6 })).toEqual([]);
    step.agree({ from: W[1]!, slot, tsi: tsiOf(slot, 0), nextTsi: tsiOf(slot, 0), exponent: 2 });
    const replies = step.agree({ from: W[2]!, slot, tsi: tsiOf(slot, 0), nextTsi: tsiOf(slot, 0), exponent: 0 });
    expect(replies[0]!.msg.exponent).toBe(2);
    expect(await dropsSince()).toEqual({ DUPLICATE: 1 });
  });

  it('strangers are dropped and counted before they touch a slot: another host, or a worker\'s IP from another port', async () => {
    const slot = 3;
    const stranger = { ...W[0]!, ip: W[0]!.ip + 50, switchPort: 9 };
    const otherPort = { ...W[1]!, udpPort: W[1]!.udpPort + 100 };
    for (const from of [stranger, otherPort]) expect(step.agree({ from, slot, tsi: tsiOf(slot, 0), nextTsi: tsiOf(slot, 0), exponent: 1 })).toEqual([]);
    expect(step.host.aggregator.counters.invalid).toBeGreaterThanOrEqual(2);
    expect(await dropsSince()).toEqual({ UNKNOWN_WORKER: 2 });
    expect(await rig.cell('seen', 2 * slot)).toBe(0);
    expect(await rig.cell('seen', 2 * slot + 1)).toBe(0);
  });

  it('a slot outside the job\'s range is dropped', async () => {
    expect(step.agree({ from: W[0]!, slot: SLOTS, tsi: tsiOf(SLOTS, 0), nextTsi: tsiOf(SLOTS, 0), exponent: 1 })).toEqual([]);
    expect(await dropsSince()).toEqual({ SLOT_OUT_OF_RANGE: 1 });
  });

  it('on a slot never used, only a priming message starts a round', async () => {
    const slot = 4;
    expect(step.agree({ from: W[0]!, slot, set: 1, tsi: tsiOf(slot, 0), nextTsi: NONE, exponent: 0, values: block(0, 1) })).toEqual([]);
    expect(step.agree({ from: W[1]!, slot, set: 1, tsi: tsiOf(slot, 1), nextTsi: NONE, exponent: 0 })).toEqual([]);
    expect(await dropsSince()).toEqual({ STALE: 2 });
  });
});
