// rina_tor.p4 under seeded junk: random Rina packets of every type, phase,
// round and length, from strangers, the predecessor and the rack's own
// workers, all of an earlier epoch (as late packets of an earlier operation
// are). Afterwards every slot copy of the job still completes a real round of
// the current epoch with the exact sum: nothing wedged a copy.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RinaMessageType } from '../../../src/wire/index.js';
import { mulberry32 } from '../../helpers/mulberry32.js';
import { RinaRig } from './support/rina-rig.js';
import { AGENT, PRED, STRANGER, contribution, int32Sum, rinaFrame, worker, type Host, type RinaFrameSpec } from './support/rina-network.js';
import { DEFINES, N, RING, contrib, emitted, predData } from './support/ring-job.js';

let rig: RinaRig;
beforeAll(async () => {
  rig = await RinaRig.start(DEFINES);
  await rig.addJob(RING);
});
afterAll(async () => rig.close());

const SENDERS: readonly Host[] = [STRANGER, PRED, worker(0), worker(1), worker(2)];

function junk(rand: () => number): RinaFrameSpec {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const from = pick(SENDERS);
  const type = rand() < 0.8 ? pick([RinaMessageType.CONTRIBUTION, RinaMessageType.RING_DATA, RinaMessageType.ACK]) : Math.floor(rand() * 16);
  const count = rand() < 0.8 ? N : Math.floor(rand() * 12);
  const spec: RinaFrameSpec = {
    from, to: rand() < 0.7 ? AGENT : pick([worker(1), PRED, STRANGER]),
    type: RinaMessageType.CONTRIBUTION, phase: pick([1, 2] as const), workerId: Math.floor(rand() * 6), step: Math.floor(rand() * 4),
    segment: Math.floor(rand() * 3), epoch: 0, chunk: Math.floor(rand() * 64), slot: Math.floor(rand() * 20), set: rand() < 0.5 ? 0 : 1,
    exponent: Math.floor(rand() * 256) - 128, values: contribution(Math.floor(rand() * 9), Math.floor(rand() * 99), count),
    firstByte: ((rand() < 0.9 ? 1 : Math.floor(rand() * 16)) << 4) | type,
  };
  const r = rand();
  return r < 0.05 ? { ...spec, cut: 1 + Math.floor(rand() * 8) } : r < 0.1 ? { ...spec, extra: 4 } : r < 0.15 ? { ...spec, phaseByte: Math.floor(rand() * 256) } : spec;
}

it.each([1, 2, 3])('seed %i: 1500 junk packets, then every copy of the pool sums a real round exactly', async (seed) => {
  const rand = mulberry32(seed);
  for (let i = 0; i < 1500; i++) {
    const spec = junk(rand);
    rig.send(spec.from.switchPort, rinaFrame(spec));
  }
  const drops = (await rig.drops());
  expect(Object.values(drops).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  // Epoch 1 + seed: newer than the junk and than the previous seed's rounds.
  const epoch = 1 + seed;
  for (let slot = 0; slot < RING.poolSize; slot++) {
    for (const set of [0, 1] as const) {
      const chunk = slot + RING.poolSize * set;
      for (const w of [0, 1, 2]) rig.send(worker(w).switchPort, rinaFrame(contrib(w, 1, slot, { chunk, set, epoch })));
      const out = emitted(rig.send(PRED.switchPort, rinaFrame(predData(0, slot, { chunk, set, epoch }))));
      expect(out, `slot ${slot} set ${set}`).toHaveLength(4);
      expect(out[0]!.values).toEqual(int32Sum([...[0, 1, 2].map((w) => contribution(w, 100 + chunk, N)), contribution(9, chunk, N)]));
    }
  }
});
