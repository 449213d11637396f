// omnireduce.p4's stale state (docs/p4-programs.md §5, "Recovery from stray
// rounds" and "Reusing slots"): a round that follows the newest complete one
// takes over its copy whatever the copy holds; an earlier job's rounds answer
// a new job's priming until the controller clears the slots; a reply copy
// nobody addressed is dropped; and the largest block leaves from a value-less
// message whole.
import { afterEach, describe, expect, it } from 'vitest';
import { omniReduceSwitchEntries } from '../../../src/controller/install/omnireduce-entries.js';
import { del, insert, modify, register } from '../../../src/p4runtime/index.js';
import { NEXT_TSI_NONE } from '../../../src/wire/index.js';
import { HostReference } from './support/host-reference.js';
import { Lockstep } from './support/lockstep.js';
import { contribution, decodeOmniFrame, int32Sum, omniFrame, omniPayload, worker } from './support/omnireduce-network.js';
import { jobOf, OmniReduceRig } from './support/omnireduce-rig.js';

const rigs: OmniReduceRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

async function start(block: number, jobId = 7, workers = 3) {
  const rig = await OmniReduceRig.start([`OMNIREDUCE_BLOCK=${block}`, 'OMNIREDUCE_SLOTS=16']);
  rigs.push(rig);
  const job = jobOf(jobId, workers, { slotCount: 4 });
  await rig.addJob(job);
  return { rig, job, step: new Lockstep(rig, new HostReference(job.workers, 4, block)) };
}

const W = [0, 1, 2].map(worker);

describe('stray rounds', () => {
  it('the round after the newest complete one takes over the other copy, which a stray left filling; the sum has none of the stray\'s values', async () => {
    const B = 8;
    const { rig, step } = await start(B);
    for (const w of [0, 1, 2]) step.agree({ from: W[w]!, tsi: 0, nextTsi: 0, exponent: 1 });
    // A stray round in slot 0's set-1 copy: one bit of three in, values written.
    await rig.write([
      modify(register('ingress.omnireduce.round.seen', { index: 1, value: 0b100 })),
      modify(register('ingress.omnireduce.round.remaining', { index: 1, value: 2 })),
      modify(register('ingress.omnireduce.round.round_tsi', { index: 1, value: 999 * B })),
      ...Array.from({ length: B }, (_, i) => modify(register('ingress.omnireduce.round.values', { index: B + i, value: 77 }))),
    ]);
    const msg = (w: number) => ({ from: W[w]!, set: 1 as const, tsi: 0, nextTsi: NEXT_TSI_NONE, exponent: -127, values: contribution(w, 1, B) });
    step.agree(msg(0));
    step.agree(msg(1));
    const replies = step.agree(msg(2));
    expect(replies[0]!.values).toEqual(int32Sum([0, 1, 2].map((w) => contribution(w, 1, B))));
    expect(await rig.outcomes()).toEqual({ ADDED: 4, REPLIED: 2, TAKEOVER: 1 });
  });
});

describe('reusing slots', () => {
  /** Job 7 primes slot 0 and stops there (aborted); job 8 with the same workers takes its slots. */
  async function abandonedPriming() {
    const { rig, job, step } = await start(8);
    for (const w of [0, 1, 2]) step.agree({ from: W[w]!, tsi: 0, nextTsi: 0, exponent: 1 });
    const old = omniReduceSwitchEntries(job);
    await rig.write([del(old.job), ...old.workers.map(del), ...old.rewrites.map(del), del(old.group)]);
    await rig.addJob(jobOf(8, 3, { slotCount: 4 }));
    return rig;
  }
  const newPriming = (rig: OmniReduceRig) => [5, 9, 6].map((exponent, w) => rig.send(W[w]!.switchPort, omniFrame({ from: W[w]!, tsi: 0, nextTsi: 0, exponent })));

  it('uncleared, an earlier job\'s complete priming round answers the new job\'s priming with its own exponent', async () => {
    const rig = await abandonedPriming();
    const out = newPriming(rig);
    expect(out.map((o) => o.length)).toEqual([1, 1, 1]);
    expect(decodeOmniFrame(out[2]![0]!.frame).payload).toEqual(omniPayload({ from: W[0]!, tsi: 0, nextTsi: 0, exponent: 1 }));
  });

  it('cleared by the controller (seen and remaining of both copies), the slot starts the new job\'s round', async () => {
    const rig = await abandonedPriming();
    await rig.resetSlots(0, 4);
    const out = newPriming(rig);
    expect(out.map((o) => o.length)).toEqual([0, 0, 3]);
    expect(decodeOmniFrame(out[2]![0]!.frame).payload).toEqual(omniPayload({ from: W[0]!, tsi: 0, nextTsi: 0, exponent: 9 }));
  });
});

describe('a slot whose stream ended', () => {
  it.each([[1, 1], [2, 0]])('needs no clearing: a new job\'s priming starts a round (%i data round(s), the last in set %i)', async (rounds) => {
    const B = 8;
    const { rig, job, step } = await start(B);
    for (const w of [0, 1, 2]) step.agree({ from: W[w]!, tsi: 0, nextTsi: 0, exponent: 1 });
    for (let r = 1; r <= rounds; r++) {
      const last = r === rounds;
      for (const w of [0, 1, 2]) {
        step.agree({ from: W[w]!, set: (r % 2) as 0 | 1, tsi: (r - 1) * 4 * B, nextTsi: last ? NEXT_TSI_NONE : r * 4 * B, exponent: last ? -127 : 2, values: contribution(w, r, B) });
      }
    }
    const old = omniReduceSwitchEntries(job);
    await rig.write([del(old.job), ...old.workers.map(del), ...old.rewrites.map(del), del(old.group)]);
    await rig.addJob(jobOf(8, 3, { slotCount: 4 }));
    const out = [5, 9, 6].map((exponent, w) => rig.send(W[w]!.switchPort, omniFrame({ from: W[w]!, tsi: 0, nextTsi: 0, exponent })));
    expect(out.map((o) => o.length)).toEqual([0, 0, 3]);
    expect(decodeOmniFrame(out[2]![0]!.frame).payload).toEqual(omniPayload({ from: W[0]!, tsi: 0, nextTsi: 0, exponent: 9 }));
  });
});

describe('multicast and lengths', () => {
  it('a replica without a reply_rewrite entry is dropped and counted; the others leave', async () => {
    const rig = await OmniReduceRig.start(['OMNIREDUCE_BLOCK=8', 'OMNIREDUCE_SLOTS=16']);
    rigs.push(rig);
    const e = omniReduceSwitchEntries(jobOf(7, 3));
    await rig.write([insert(e.group), ...e.rewrites.slice(0, 2).map(insert), ...e.workers.map(insert), insert(e.job)]);
    const out = [0, 1, 2].map((w) => rig.send(W[w]!.switchPort, omniFrame({ from: W[w]!, tsi: 0, nextTsi: 0, exponent: 0 })));
    expect(out[2]!.map((o) => o.port)).toEqual([1, 2]);
    expect(await rig.counter('egress.reply_rewrite_misses')).toEqual([1]);
  });

  it('with the largest block (128), a value-less message that completes a round leaves 512 bytes longer, as the host\'s reply', async () => {
    const B = 128;
    const { step } = await start(B, 7, 2);
    for (const w of [0, 1]) step.agree({ from: W[w]!, tsi: 0, nextTsi: 0, exponent: 0 });
    step.agree({ from: W[0]!, set: 1, tsi: 0, nextTsi: 4 * B, exponent: 3, values: contribution(0, 1, B) });
    step.agree({ from: W[1]!, set: 1, tsi: 0, nextTsi: 8 * B, exponent: 2, values: contribution(1, 1, B) });
    step.agree({ from: W[0]!, set: 0, tsi: 4 * B, nextTsi: NEXT_TSI_NONE, exponent: -127, values: contribution(0, 2, B) });
    const replies = step.agree({ from: W[1]!, set: 0, tsi: 4 * B, nextTsi: 8 * B, exponent: 2 });
    expect(replies.map((r) => r.payload.length)).toEqual([12 + 4 * B, 12 + 4 * B]);
    expect(replies[0]!.values).toEqual(contribution(0, 2, B));
  });
});
