// omnireduce.p4: what is not a worker message of a job here (docs/p4-programs.md
// §5, "Counters" and "Which packets are aggregated"): each is dropped and
// counted under its reason before it touches a slot, as the host aggregator
// drops it too; OmniReduce traffic for a host aggregator, and anything the
// program does not aggregate, is forwarded byte for byte.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NEXT_TSI_NONE } from '../../../src/wire/index.js';
import { grew } from '../rina/support/rina-rig.js';
import { HostReference } from './support/host-reference.js';
import { Lockstep } from './support/lockstep.js';
import { contribution, HOST_AGGREGATOR, omniFrame, worker, type MessageSpec } from './support/omnireduce-network.js';
import { jobOf, OmniReduceRig } from './support/omnireduce-rig.js';
import { omniReduceSwitchEntries } from '../../../src/controller/install/omnireduce-entries.js';
import { insert } from '../../../src/p4runtime/index.js';

const B = 8;
let rig: OmniReduceRig;
let step: Lockstep;
beforeAll(async () => {
  rig = await OmniReduceRig.start([`OMNIREDUCE_BLOCK=${B}`, 'OMNIREDUCE_SLOTS=16']);
  const job = jobOf(7, 2, { slotCount: 4, firstSlot: 4, slotBase: 2 });
  await rig.addJob(job);
  // Worker 5 is known to the switch, but its job has no omnireduce_jobs entry.
  const orphan = omniReduceSwitchEntries({ ...jobOf(9, 6), workers: [{ ...jobOf(9, 6).workers[5]!, rank: 0 }] });
  await rig.write(orphan.workers.map(insert));
  // A job whose slot range runs past the registers (a bad entry the program must survive).
  await rig.addJob({ ...jobOf(8, 4), workers: jobOf(8, 4).workers.slice(2).map((w, rank) => ({ ...w, rank })), slotBase: 14, slotCount: 4, multicastGroup: 2 });
  step = new Lockstep(rig, new HostReference(job.workers, 4, B, 4));
});
afterAll(async () => rig.close());

let drops: Awaited<ReturnType<OmniReduceRig['drops']>>;
beforeEach(async () => {
  drops = await rig.drops();
});
const dropsSince = async () => grew(drops, await rig.drops());

const priming = (w: number, extra: Partial<MessageSpec> = {}): MessageSpec => ({ from: worker(w), slot: 4, tsi: 32, nextTsi: 32, exponent: 1, ...extra });

describe('dropped and counted', () => {
  it.each<[string, Partial<MessageSpec>, string]>([
    ['cut short of its UDP length', { values: contribution(0, 1, B), nextTsi: 96, cut: 6 }, 'TRUNCATED'],
    ['one value (a UDP length that is neither 20 nor 20 + 4 × the block)', { values: [5], nextTsi: 96 }, 'BAD_LENGTH'],
    ['twice the block', { values: contribution(0, 1, 2 * B), nextTsi: 96 }, 'BAD_LENGTH'],
    ['a block whose next_tsi is not past its tsi', { values: contribution(0, 1, B), nextTsi: 32 }, 'BAD_MESSAGE'],
    ['value-less with next_tsi before its tsi', { nextTsi: 8 }, 'BAD_MESSAGE'],
    ['a wire slot below the job\'s first', { slot: 3 }, 'SLOT_OUT_OF_RANGE'],
    ['a wire slot past the job\'s last', { slot: 8 }, 'SLOT_OUT_OF_RANGE'],
  ])('%s', async (_, extra, reason) => {
    const { out, host } = step.send(priming(0, extra));
    expect(out).toEqual([]);
    expect(host).toEqual([]);
    expect(await dropsSince()).toEqual({ [reason]: 1 });
  });

  it('a worker of a job without an omnireduce_jobs entry: unknown job', async () => {
    expect(rig.send(6, omniFrame(priming(5)))).toEqual([]);
    expect(await dropsSince()).toEqual({ UNKNOWN_JOB: 1 });
  });

  it('a slot past the registers, from a bad job entry: nothing written out of range', async () => {
    expect(rig.send(3, omniFrame(priming(2, { slot: 2, tsi: 16, nextTsi: 16 })))).toEqual([]);
    expect(await dropsSince()).toEqual({ SLOT_BEYOND_REGISTERS: 1 });
  });

  it('nothing of these reached a register; a good message still aggregates in the job\'s slots 2..5', async () => {
    step.agree(priming(0));
    const replies = step.agree(priming(1, { exponent: 4 }));
    expect(replies.map((r) => r.msg.exponent)).toEqual([4, 4]);
    expect(await rig.cell('seen', 2 * 2)).toBe(0b11);
    expect(await rig.cell('round_tsi', 2 * 2)).toBe(32);
  });
});

describe('forwarded, not aggregated', () => {
  it.each<[string, Partial<MessageSpec>]>([
    ['a worker\'s block', { values: contribution(1, 2, B), nextTsi: NEXT_TSI_NONE }],
    ['a value-less message', {}],
    ['a message of another length', { values: [1, 2, 3] }],
  ])('%s for a host aggregator leaves byte for byte as it came', async (_, extra) => {
    const frame = omniFrame(priming(0, { to: HOST_AGGREGATOR, ...extra }));
    const out = rig.send(1, frame);
    expect(out).toEqual([{ port: HOST_AGGREGATOR.switchPort, frame }]);
    expect(await dropsSince()).toEqual({});
  });

  it('a message to the switch with a bad IPv4 checksum is the forwarding\'s to drop', async () => {
    const frame = omniFrame(priming(0));
    frame[14 + 10] ^= 0xff;
    expect(rig.send(1, frame)).toEqual([]);
    expect(await dropsSince()).toEqual({});
    expect((await rig.counter('ingress.forwarding.forwarding_drops'))[1]).toBeGreaterThan(0);
  });
});
