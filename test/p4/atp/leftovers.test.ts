// Leftover aggregators in atp.p4 (docs/atp.md, "Leftovers"): what a stray,
// forged or abandoned contribution leaves holds its aggregator only until the
// controller's reclaim time passes without a contribution, or until the
// owner's job entry gets a new generation; meanwhile real packets collide
// and go to the PS, whose pieces still cover every worker exactly once. The
// switch's timestamps come from a virtual clock the test moves.
import { afterEach, describe, expect, it } from 'vitest';
import { action, modify, table } from '../../../src/p4runtime/index.js';
import { VirtualClock } from '../../switch/queues/virtual-clock.js';
import { AtpRig } from './support/atp-rig.js';
import { PS, atpFrame, bits, contribution, decodeAtpFrame, int32Sum, worker, type AtpFrameSpec } from './support/atp-network.js';

const N = 8;
const DEFINES = [`ATP_VALUES=${N}`, 'ATP_AGGREGATORS=16'];
/** Longer than the virtual time any test here lets pass. */
const NEVER_WITHIN_A_TEST = 2 ** 40;

let rig: AtpRig | undefined;
let clock = new VirtualClock();
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function start(reclaimAfterUs: number): Promise<AtpRig> {
  clock = new VirtualClock(5_000_000);
  rig = await AtpRig.start(DEFINES, undefined, { clock });
  await rig.settings(1000, reclaimAfterUs);
  await rig.addLevel0Job({ jobId: 1, group: 1, workers: [worker(0), worker(1)] });
  await rig.addLevel0Job({ jobId: 2, group: 2, workers: [worker(2), worker(3)] });
  return rig;
}

const piece = (w: number, seq: number, index: number, extra: Partial<AtpFrameSpec> = {}): AtpFrameSpec => ({
  from: worker(w), to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: index, bitmap0: bits(w), bitmap1: 1, fanInDegree0: 2, fanInDegree1: 1,
  values: contribution(w, seq, N), ...extra,
});

/** Moves the switch's clock to `micros` past the aggregator's last contribution. */
async function idleFor(r: AtpRig, index: number, micros: number): Promise<void> {
  const touched = await r.cell('touched_at', index);
  expect(touched).toBeLessThanOrEqual(clock.nowMicros());
  clock.advanceTo(touched + micros);
}

/** Among the pieces the PS got, disjoint ones covering workers 0 and 1, summed (docs/atp.md, "The parameter server"). */
function psResult(pieces: readonly ReturnType<typeof decodeAtpFrame>[]): number[] | undefined {
  const whole = pieces.find((p) => p.atp.bitmap0 === bits(0, 1));
  if (whole) return whole.values;
  const a = pieces.find((p) => p.atp.bitmap0 === bits(0));
  const b = pieces.find((p) => p.atp.bitmap0 === bits(1));
  return a && b ? int32Sum([a.values, b.values]) : undefined;
}

describe('a stray or forged contribution of an unused tag', () => {
  it.each([
    ['its own job, a sequence nobody uses', { jobId: 1, sequenceNumber: 999 }],
    ['another job', { jobId: 2, sequenceNumber: 5, bitmap0: bits(0) }],
    ['its own job, the right sequence of an earlier wrap of the 16-bit counter', { jobId: 1, sequenceNumber: 5 }],
  ])('of %s: real packets collide (the PS still gets every worker once), and after the reclaim time the aggregator is taken over', async (_name, forged) => {
    const r = await start(NEVER_WITHIN_A_TEST);
    const stray = { ...piece(0, 0, 4), ...forged, values: contribution(7, 7, N) };
    expect(r.send(1, atpFrame(stray))).toEqual([]);

    // The real sequence meets the leftover. A same-tag leftover adds: the sum is wrong, and that is what reclaiming prevents.
    const sameTag = forged.jobId === 1 && forged.sequenceNumber === 5;
    if (!sameTag) {
      const pieces = [0, 1].flatMap((w) => r.send(worker(w).switchPort, atpFrame(piece(w, 5, 4)))).map((f) => decodeAtpFrame(f.frame));
      expect(pieces.map((p) => p.atp.collision)).toEqual([true, true]);
      expect(psResult(pieces)).toEqual(int32Sum([0, 1].map((w) => contribution(w, 5, N))));
    }

    const idle = 20_000;
    await r.settings(1000, idle);
    await idleFor(r, 4, idle);
    const before = (await r.outcomes()).RECLAIMED ?? 0;
    expect(r.send(1, atpFrame(piece(0, 6, 4)))).toEqual([]);
    const out = r.send(2, atpFrame(piece(1, 6, 4)));
    expect(decodeAtpFrame(out[0]!.frame).values).toEqual(int32Sum([0, 1].map((w) => contribution(w, 6, N))));
    expect(((await r.outcomes()).RECLAIMED ?? 0) - before).toBe(1);
  });

  it('a forged resend or ACK of an unused tag leaves nothing behind', async () => {
    const r = await start(NEVER_WITHIN_A_TEST);
    r.send(1, atpFrame(piece(0, 5, 4)));
    r.send(1, atpFrame(piece(0, 998, 4, { resend: true })));
    r.send(1, atpFrame(piece(0, 997, 3, { resend: true })));
    r.send(PS.switchPort, atpFrame({ from: PS, to: worker(0), isAck: true, jobId: 1, sequenceNumber: 996, aggregatorIndex: 4, values: contribution(0, 0, N) }));
    expect(await r.aggregator(3)).toMatchObject({ owner: 0 });
    expect(await r.aggregator(4)).toMatchObject({ owner: (1 << 16) | 5, bitmap: bits(0), count: 1 });
    const [out] = r.send(2, atpFrame(piece(1, 5, 4)));
    expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([0, 1].map((w) => contribution(w, 5, N))));
  });

  it('with reclaiming off (0), a leftover stays until its own tag frees it', async () => {
    const r = await start(0);
    r.send(1, atpFrame({ ...piece(0, 999, 4), values: contribution(7, 7, N) }));
    await idleFor(r, 4, 2_000);
    expect(decodeAtpFrame(r.send(1, atpFrame(piece(0, 5, 4)))[0]!.frame).atp.collision).toBe(true);
    r.send(1, atpFrame(piece(0, 999, 4, { resend: true })));
    expect(await r.aggregator(4)).toMatchObject({ owner: 0 });
  });
});

describe('a new generation of the job entry (the job set up again)', () => {
  it('takes over what the earlier run left, even under the same tag, and its ACKs free only the new run\'s', async () => {
    const r = await start(NEVER_WITHIN_A_TEST);
    r.send(1, atpFrame({ ...piece(0, 5, 4), values: contribution(7, 7, N) }));
    expect(await r.aggregator(4)).toMatchObject({ owner: (1 << 16) | 5, generation: 1 });
    await r.write([modify(table('ingress.atp.atp_jobs', { job_id: 1 }, action('ingress.atp.aggregate_at_level0', { generation: 2, mcast_group: 1 })))]);

    // An ACK of the new run does not free the earlier run's aggregator, though the tags are equal.
    r.send(PS.switchPort, atpFrame({ from: PS, to: worker(0), isAck: true, jobId: 1, sequenceNumber: 5, aggregatorIndex: 4, values: contribution(0, 0, N) }));
    expect(await r.aggregator(4)).toMatchObject({ owner: (1 << 16) | 5, generation: 1 });
    // Another job cannot tell: it collides, until the reclaim time.
    expect(decodeAtpFrame(r.send(3, atpFrame(piece(2, 5, 4, { jobId: 2, bitmap0: bits(0) })))[0]!.frame).atp.collision).toBe(true);

    expect(r.send(1, atpFrame(piece(0, 5, 4)))).toEqual([]);
    const [out] = r.send(2, atpFrame(piece(1, 5, 4)));
    expect(decodeAtpFrame(out!.frame).values).toEqual(int32Sum([0, 1].map((w) => contribution(w, 5, N))));
    expect(await r.aggregator(4)).toMatchObject({ owner: (1 << 16) | 5, generation: 2, bitmap: bits(0, 1) });
    expect((await r.outcomes()).RECLAIMED).toBe(1);
  });
});
