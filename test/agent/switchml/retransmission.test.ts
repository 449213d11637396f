import { afterEach, describe, expect, test, vi } from 'vitest';
import { Answer, SlotTimers } from '../../../src/agent/switchml/retransmission.js';
import { RttEstimator } from '../../../src/agent/switchml/rtt-estimator.js';
import { eventually } from '../transport/helpers.js';

const POLICY = { factor: 2, minTimeoutMs: 5, maxTimeoutMs: 1000 };

describe('RttEstimator (RFC 6298)', () => {
  test('before any sample, the RTO is the initial timeout, clamped to [min, max]', () => {
    expect(new RttEstimator(20, POLICY).rtoMs).toBe(20);
    expect(new RttEstimator(1, POLICY).rtoMs).toBe(5);
    expect(new RttEstimator(5000, POLICY).rtoMs).toBe(1000);
    expect(new RttEstimator(20, POLICY)).toMatchObject({ srttMs: 0, rttVarMs: 0, samples: 0 });
  });

  test('the first sample sets SRTT = R and RTTVAR = R/2; RTO = SRTT + 4 RTTVAR', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(8);
    expect(e).toMatchObject({ srttMs: 8, rttVarMs: 4, rtoMs: 24, samples: 1 });
  });

  test('later samples: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|, then SRTT = 7/8 SRTT + 1/8 R', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(8); // srtt 8, rttvar 4
    e.sample(16); // rttvar 3 + 2 = 5, srtt 7 + 2 = 9
    expect(e).toMatchObject({ srttMs: 9, rttVarMs: 5, rtoMs: 29 });
    e.sample(9); // rttvar 3.75, srtt 9
    expect(e).toMatchObject({ srttMs: 9, rttVarMs: 3.75, rtoMs: 24 });
  });

  test('a steady path converges to SRTT + the 1 ms clock granularity, above the floor', () => {
    const e = new RttEstimator(20, { ...POLICY, minTimeoutMs: 0.5 });
    for (let i = 0; i < 200; i++) e.sample(2);
    expect(e.srttMs).toBe(2);
    expect(e.rttVarMs).toBeLessThan(1e-20);
    expect(e.rtoMs).toBe(3); // SRTT + max(G = 1 ms, 4 RTTVAR)
    const floored = new RttEstimator(20, POLICY);
    for (let i = 0; i < 200; i++) floored.sample(2);
    expect(floored.rtoMs).toBe(5);
  });

  test('the RTO never exceeds the maximum, whatever the samples', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(900);
    expect(e.rtoMs).toBe(1000);
  });

  test('a timeout doubles the RTO, at most once per RTO period; the next sample recomputes it', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(8); // RTO 24
    e.timedOut(100);
    expect(e.rtoMs).toBe(48);
    e.timedOut(100); // other slots expiring in the same sweep: the same event
    e.timedOut(147);
    expect(e.rtoMs).toBe(48);
    e.timedOut(148); // a whole RTO later: back off again
    expect(e.rtoMs).toBe(96);
    for (let t = 1000; t < 20_000; t += 1000) e.timedOut(t);
    expect(e.rtoMs).toBe(1000);
    e.sample(8); // rttvar 3, srtt 8
    expect(e.rtoMs).toBe(20);
  });

  test('with a window of samples per round trip, the gains shrink by the window (RFC 7323, appendix G)', () => {
    const e = new RttEstimator(20, POLICY);
    e.expectSamplesPerRtt(4);
    e.sample(8); // the first sample is taken whole: srtt 8, rttvar 4
    e.sample(16); // rttvar = (1 - 1/16)·4 + 1/16·8 = 4.25; srtt = (1 - 1/32)·8 + 1/32·16 = 8.25
    expect(e).toMatchObject({ srttMs: 8.25, rttVarMs: 4.25, rtoMs: 25.25 });
    e.expectSamplesPerRtt(0); // treated as 1
    e.sample(8.25); // rttvar 0.75·4.25, srtt unchanged
    expect(e).toMatchObject({ srttMs: 8.25, rttVarMs: 3.1875 });
  });

  test('a spurious retransmission undoes the back-off but is no sample: a peer’s loss is not path delay', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(8); // srtt 8, rttvar 4, RTO 24
    e.timedOut(100); // RTO 48
    e.spurious(300);
    expect(e).toMatchObject({ srttMs: 8, rttVarMs: 4, rtoMs: 24, samples: 1 });
    const fresh = new RttEstimator(20, POLICY);
    fresh.spurious(12); // with nothing else known, a first sample
    expect(fresh).toMatchObject({ srttMs: 12, rttVarMs: 6, rtoMs: 36 });
  });

  test('samples far above SRTT are clipped at SRTT + 2 RTTVAR', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(8); // srtt 8, rttvar 4: the clip is 16
    e.sample(1000); // counts as 16: rttvar 3/4·4 + 1/4·8 = 5, srtt 7/8·8 + 1/8·16 = 9
    expect(e).toMatchObject({ srttMs: 9, rttVarMs: 5, rtoMs: 29 });
  });

  test('results that waited out a peer’s RTO do not ratchet the RTO up', () => {
    const e = new RttEstimator(20, POLICY);
    e.expectSamplesPerRtt(32);
    for (let i = 0; i < 64; i++) e.sample(4);
    const settled = e.rtoMs;
    // Every fifth result waits for a peer's retransmission: one RTO late, or answered just after ours.
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 4; i++) e.sample(4);
      if (round % 2 === 0) e.sample(4 + e.rtoMs);
      else e.spurious(4 + e.rtoMs);
    }
    expect(e.rtoMs).toBeLessThan(settled * 2);
  });

  test('a real rise in delay still raises the RTO', () => {
    const e = new RttEstimator(20, POLICY);
    e.expectSamplesPerRtt(32);
    for (let i = 0; i < 64; i++) e.sample(4);
    for (let i = 0; i < 32 * 40; i++) e.sample(40);
    expect(e.srttMs).toBeGreaterThan(36);
    expect(e.rtoMs).toBeGreaterThan(40);
  });

  test('per packet, the k-th retransmission waits RTO * factor^k, capped', () => {
    const e = new RttEstimator(10, POLICY);
    expect([0, 1, 2, 3, 4, 7, 10].map((k) => e.waitMs(k))).toEqual([10, 20, 40, 80, 160, 1000, 1000]);
  });

  test('ignores nonsense samples', () => {
    const e = new RttEstimator(20, POLICY);
    e.sample(Number.NaN);
    e.sample(-1);
    expect(e.samples).toBe(0);
    expect(e.rtoMs).toBe(20);
  });
});

describe('SlotTimers with a virtual clock', () => {
  test("answers sample the RTT; retransmitted packets give none (Karn's rule); early answers are spurious", () => {
    let now = 1000;
    const expired: number[] = [];
    const estimator = new RttEstimator(20, POLICY);
    const timers = new SlotTimers(2, estimator, (slot) => expired.push(slot), () => now);
    try {
      timers.started(0);
      now += 8;
      expect(timers.answered(0)).toBe(Answer.Sampled);
      expect(estimator).toMatchObject({ srttMs: 8, samples: 1 });

      timers.started(1);
      now += 30;
      timers.retransmitted(1); // as the sweep would after the deadline
      now += 2; // the answer to the first copy, 2 ms after the second was sent
      expect(timers.answered(1)).toBe(Answer.Spurious);
      // Spurious: the back-off is undone, the first copy's round trip is no sample.
      expect(estimator).toMatchObject({ srttMs: 8, rttVarMs: 4, samples: 1 });

      timers.started(1);
      now += 100;
      timers.retransmitted(1);
      now += 40; // more than one SRTT after the retransmission: maybe its own answer
      expect(timers.answered(1)).toBe(Answer.AfterRetransmission);
      expect(estimator.samples).toBe(1);
      expect(timers.attemptsOf(1)).toBe(1);
    } finally {
      timers.dispose();
    }
    expect(expired).toEqual([]);
  });
});

describe('SlotTimers', () => {
  let timers: SlotTimers | undefined;
  afterEach(() => timers?.dispose());

  test('only slots whose packet is still unanswered expire; retransmissions count per slot', async () => {
    const expired: number[] = [];
    const estimator = new RttEstimator(1, { factor: 1, minTimeoutMs: 1, maxTimeoutMs: 1 });
    timers = new SlotTimers(3, estimator, (slot) => {
      expired.push(slot);
      if (expired.filter((s) => s === slot).length < 3) timers!.retransmitted(slot);
    });
    timers.started(0);
    timers.started(1);
    timers.started(2);
    timers.answered(1);
    expect(await eventually(() => expired.length === 6)).toBe(true);
    expect(expired.filter((s) => s === 0)).toHaveLength(3);
    expect(expired.filter((s) => s === 2)).toHaveLength(3);
    expect(expired).not.toContain(1);
    expect(timers.attemptsOf(0)).toBe(2);
    timers.started(0);
    expect(timers.attemptsOf(0)).toBe(0);
  });

  test('dispose stops everything', () => {
    // Fake timers: a real sleep could not show that the deadline never fires.
    vi.useFakeTimers();
    try {
      const expired: number[] = [];
      const policy = { factor: 1, minTimeoutMs: 1, maxTimeoutMs: 1 };
      // The control: without dispose, slot 0's 1 ms deadline fires once time passes.
      const live = new SlotTimers(1, new RttEstimator(1, policy), (slot) => expired.push(slot), () => Date.now());
      live.started(0);
      vi.advanceTimersByTime(1000);
      expect(expired).toEqual([0]);
      live.dispose();

      expired.length = 0;
      timers = new SlotTimers(1, new RttEstimator(1, policy), (slot) => expired.push(slot), () => Date.now());
      timers.started(0);
      timers.dispose();
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(1000);
      expect(expired).toEqual([]);
      timers.started(0); // arming after dispose schedules nothing either
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
