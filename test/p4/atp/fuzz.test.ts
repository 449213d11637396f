// Seeded fuzzing of atp.p4 on the emulator: thousands of forged and malformed
// ATP packets (random header fields, flags, jobs, levels, indices, value
// counts, truncations) from every port. The switch must never fail on one,
// and no aggregator may stay wedged: once the reclaim time has passed, real
// jobs complete exactly at every index of the pool, and their ACKs free it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../helpers/mulberry32.js';
import { VirtualClock } from '../../switch/queues/virtual-clock.js';
import { AtpRig } from './support/atp-rig.js';
import { PS, UPLINK, atpFrame, bits, contribution, decodeAtpFrame, int32Sum, worker, type AtpFrameSpec } from './support/atp-network.js';

const N = 8;
const POOL = 16;
const PACKETS = 3000;
const SEEDS = [1, 2];

describe.each(SEEDS)('seed %i', (seed) => {
  let rig: AtpRig;
  const clock = new VirtualClock(1_000_000);
  beforeAll(async () => {
    rig = await AtpRig.start([`ATP_VALUES=${N}`, `ATP_AGGREGATORS=${POOL}`], undefined, { clock });
    // Marking everything, and leftovers reclaimed after 500 µs of virtual time (about 50 packets).
    await rig.settings(0, 500);
    await rig.addLevel0Job({ jobId: 1, group: 1, workers: [worker(0), worker(1)] });
    await rig.addLevel1Job(2);
  });
  afterAll(async () => rig.close());

  it(`survives ${PACKETS} random ATP packets`, async () => {
    const random = mulberry32(seed);
    const int = (n: number): number => Math.floor(random() * n);
    const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
    const bitmap = (): number => pick([0, bits(int(32)), bits(int(2)), bits(int(32), int(32)), (random() * 2 ** 32) >>> 0]);
    let sent = 0;
    let tooShortForEthernet = 0;
    for (let i = 0; i < PACKETS; i++) {
      // Half the packets are near-real (the job's bits, fan-in and value count, few tags), so that the
      // aggregation's own paths (completion, duplicates, flushes) are hit too; the rest is anything.
      const nearReal = random() < 0.5;
      const spec: AtpFrameSpec = nearReal
        ? {
          from: worker(int(2)), to: PS, jobId: 1, sequenceNumber: int(4), aggregatorIndex: int(4), bitmap0: bits(int(2)), bitmap1: 1,
          fanInDegree0: 2, fanInDegree1: 1, resend: random() < 0.2, ecn: random() < 0.2, isAck: random() < 0.1,
          values: Array.from({ length: N }, () => (random() * 2 ** 32) | 0),
        }
        : {
          from: pick([worker(0), worker(1), worker(5), PS]), to: pick([PS, worker(0), worker(1)]),
          jobId: pick([0, 1, 1, 2, 2, 3]), sequenceNumber: pick([0, 1, 2, 65535, int(65536)]), aggregatorIndex: pick([0, 1, int(POOL), POOL, int(65536)]),
          bitmap0: bitmap(), bitmap1: bitmap(), fanInDegree0: int(32), fanInDegree1: int(32),
          overflow: random() < 0.1, resend: random() < 0.2, collision: random() < 0.1, ecn: random() < 0.2,
          edgeSwitchIdentifier: random() < 0.5 ? 0 : 1, isAck: random() < 0.2, ipEcn: int(4),
          values: Array.from({ length: pick([N, N, N, N - 1, N + 1, 0]) }, () => (random() * 2 ** 32) | 0),
        };
      let frame = atpFrame(spec);
      if (random() < 0.05) frame = Buffer.from(frame.subarray(0, int(frame.length)));
      if (frame.length < 14) tooShortForEthernet++;
      rig.send(pick([1, 2, 6, UPLINK]), frame);
      clock.advance(int(20));
      sent++;
    }
    expect(sent).toBe(PACKETS);
    // "malformed" is the ports' count of frames too short for Ethernet plus the executor's failures: no failure.
    expect(Object.values(rig.device.portStats()).reduce((n, s) => n + s.malformed, 0)).toBe(tooShortForEthernet);
    const outcomes = await rig.outcomes();
    // Every path was taken (the counts are in the test output for the curious).
    console.log(`seed ${seed}: ${JSON.stringify(outcomes)}`);
    for (const o of ['AGGREGATED', 'COMPLETED', 'DUPLICATE', 'COLLISION', 'FLUSHED', 'RESEND_ALONE', 'OVERFLOW', 'BAD_LENGTH', 'MALFORMED', 'RECLAIMED', 'ACK_FREED', 'ACK_NOT_OWNER', 'ACK_MULTICAST', 'OTHER_LEVEL', 'NO_JOB'] as const) {
      expect(outcomes[o] ?? 0, o).toBeGreaterThan(0);
    }
  });

  it('leaves no aggregator wedged: after the reclaim time, real jobs complete exactly at every index', async () => {
    const idle = 20_000;
    await rig.settings(0, idle);
    let last = 0;
    for (let i = 0; i < POOL; i++) last = Math.max(last, await rig.cell('touched_at', i));
    expect(last).toBeLessThanOrEqual(clock.nowMicros());
    clock.advanceTo(last + idle);

    const level0 = (w: number, seq: number, index: number): AtpFrameSpec => ({
      from: worker(w), to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: index, bitmap0: bits(w), bitmap1: 1, fanInDegree0: 2, fanInDegree1: 1, values: contribution(w, seq, N),
    });
    for (let index = 0; index < POOL; index++) {
      const seq = 40000 + index;
      expect(rig.send(1, atpFrame(level0(0, seq, index)))).toEqual([]);
      const out = rig.send(2, atpFrame(level0(1, seq, index)));
      expect(out.map((f) => f.port)).toEqual([UPLINK]);
      expect(decodeAtpFrame(out[0]!.frame).values).toEqual(int32Sum([0, 1].map((w) => contribution(w, seq, N))));
      rig.send(UPLINK, atpFrame({ from: PS, to: worker(0), isAck: true, jobId: 1, sequenceNumber: seq, aggregatorIndex: index, values: contribution(0, 0, N) }));
      expect(await rig.aggregator(index)).toMatchObject({ owner: 0, count: 0 });
    }
  });
});
