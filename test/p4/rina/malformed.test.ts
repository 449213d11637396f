// rina_tor.p4: broken, stray and forged packets of every kind are dropped
// and counted by reason (docs/rina.md, "Counters") before they touch a slot
// copy, and the slot they aimed at still completes its round exactly.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RinaPhase } from '../../../src/wire/index.js';
import { Drop, grew, RinaRig } from './support/rina-rig.js';
import { PRED, STRANGER, contribution, int32Sum, rinaFrame, worker, type RinaFrameSpec } from './support/rina-network.js';
import { DEFINES, N, RING, contrib, emitted, predData } from './support/ring-job.js';

let rig: RinaRig;
beforeAll(async () => {
  rig = await RinaRig.start(DEFINES);
  await rig.addJob(RING);
  // A bad entry: its range runs past the 64 slots.
  await rig.addJob({ ...RING, jobId: 12, slotBase: 60, group: 2 });
});
afterAll(async () => rig.close());

const SLOT = 5;
const cases: readonly [keyof typeof Drop, RinaFrameSpec][] = [
  ['BAD_VERSION', contrib(0, 1, SLOT, { firstByte: 0x21 })],
  ['BAD_MESSAGE_TYPE', predData(0, SLOT, { firstByte: 0x15 })],
  ['BAD_MESSAGE_TYPE', predData(0, SLOT, { firstByte: 0x10 })],
  ['BAD_PHASE', contrib(0, 1, SLOT, { phaseByte: 3 })],
  ['BAD_PHASE', contrib(0, 1, SLOT, { phase: RinaPhase.ALL_GATHER })],
  ['BAD_PHASE', predData(0, SLOT, { phaseByte: 0 })],
  ['BAD_ELEMENT_COUNT', contrib(0, 1, SLOT, { values: contribution(0, 1, N / 2) })],
  ['TRUNCATED', contrib(0, 1, SLOT, { cut: 6 })],
  ['BAD_LENGTH', contrib(0, 1, SLOT, { extra: 4 })],
  ['SLOT_OUT_OF_RANGE', contrib(0, 1, SLOT, { slot: 16 })],
  ['SLOT_BEYOND_REGISTERS', contrib(0, 1, SLOT, { jobId: 12, slot: 6 })],
  ['BAD_STEP', contrib(0, 3, SLOT)],
  ['BAD_STEP', predData(2, SLOT)],
  ['BAD_STEP', predData(0xffff, SLOT)],
  ['UNKNOWN_WORKER', contrib(0, 1, SLOT, { workerId: 5 })],
  ['WRONG_SOURCE', contrib(2, 1, SLOT, { workerId: 1 })],
  ['WRONG_SOURCE', contrib(0, 1, SLOT, { from: STRANGER })],
  ['WRONG_SOURCE', predData(0, SLOT, { from: STRANGER })],
  ['WRONG_SOURCE', predData(0, SLOT, { from: worker(1) })],
];

it('drops each broken, stray or forged packet with its reason, and the slot still sums exactly', async () => {
  const before = await rig.drops();
  const expected: Partial<Record<keyof typeof Drop, number>> = {};
  for (const [reason, spec] of cases) {
    expect(rig.send(spec.from.switchPort, rinaFrame(spec)), reason).toEqual([]);
    expected[reason] = (expected[reason] ?? 0) + 1;
  }
  expect(grew(before, await rig.drops())).toEqual(expected);
  expect(await rig.cell('seen', 2 * SLOT)).toBe(0);
  expect(await rig.cell('remaining', 2 * SLOT)).toBe(0);
  for (const w of [0, 1, 2]) rig.send(worker(w).switchPort, rinaFrame(contrib(w, 1, SLOT)));
  const out = emitted(rig.send(PRED.switchPort, rinaFrame(predData(0, SLOT))));
  expect(out).toHaveLength(4);
  expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 100 + SLOT, N)), contribution(9, SLOT, N)]));
});

it('a packet with a bad IPv4 checksum is Forwarding\'s to drop, never added', async () => {
  const frame = rinaFrame(contrib(0, 0, 6));
  frame[14 + 10] ^= 0xff;
  expect(rig.send(1, frame)).toEqual([]);
  expect(await rig.counter('ingress.forwarding.forwarding_drops')).toEqual([0, 1, 0, 0]);
  expect(await rig.cell('seen', 12)).toBe(0);
});
