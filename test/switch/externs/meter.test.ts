import { describe, expect, it } from 'vitest';
import { METER_GREEN as G, METER_RED as R, METER_YELLOW as Y, MeterArray, type MeterRates } from '../../../src/switch/externs/meter.js';

/** A clock the test moves by hand, in microseconds. */
function fakeClock(start = 1_000): { now: () => number; advance: (us: number) => void } {
  let t = start;
  return { now: () => t, advance: (us) => void (t += us) };
}

describe('two-rate three-colour meter (BMv2 semantics)', () => {
  it('marks GREEN within both rates, YELLOW above the committed, RED above the peak (packets)', () => {
    const clock = fakeClock();
    const meters = new MeterArray(4, 'packets', clock.now);
    meters.configure(2, { cir: 10, cburst: 2, pir: 20, pburst: 4 });
    // Both buckets start full: 2 committed, 4 peak tokens.
    expect([1, 2, 3, 4, 5].map(() => meters.execute(2, 1500))).toEqual([G, G, Y, Y, R]);
    // 0.1 s later: the peak bucket has 2 tokens back, the committed one 1.
    clock.advance(100_000);
    expect([1, 2, 3].map(() => meters.execute(2, 64))).toEqual([G, Y, R]);
    // Long idle: buckets refill only up to their burst sizes.
    clock.advance(60_000_000);
    expect([1, 2, 3, 4, 5].map(() => meters.execute(2, 64))).toEqual([G, G, Y, Y, R]);
  });

  it('meters bytes by packet length', () => {
    const clock = fakeClock();
    const meters = new MeterArray(1, 'bytes', clock.now);
    meters.configure(0, { cir: 1000, cburst: 1500, pir: 2000, pburst: 3000 });
    expect([1000, 1000, 1000, 1000].map((len) => meters.execute(0, len))).toEqual([G, Y, Y, R]);
    // 0.25 s: +500 peak bytes (500 in all), +250 committed bytes (750 in all).
    clock.advance(250_000);
    expect(meters.execute(0, 600)).toBe(R); // a RED packet takes no tokens
    expect(meters.execute(0, 500)).toBe(G);
    expect(meters.execute(0, 1)).toBe(R); // the peak bucket is empty again
    // 0.5 s: the peak bucket holds 1000, the committed one 250 + 500.
    clock.advance(500_000);
    expect(meters.execute(0, 800)).toBe(Y);
  });

  it('counts tokens from the array\'s start, rounded down once, so rounding never accumulates', () => {
    const clock = fakeClock(0);
    const meters = new MeterArray(1, 'packets', clock.now);
    // 3 packets per second, bursts of 1: token n is due at n × 333 333.3 µs.
    meters.configure(0, { cir: 3, cburst: 1, pir: 3, pburst: 1 });
    expect(meters.execute(0, 1)).toBe(G);
    expect(meters.execute(0, 1)).toBe(R);
    // Arriving on the first whole microsecond after each token is due: GREEN
    // every time. (Rounding each step's share down instead would lose a third
    // of a token per packet and soon turn them RED.)
    const colours: number[] = [];
    for (let k = 1; k <= 30; k++) {
      clock.advance(k % 3 === 1 ? 333_334 : 333_333); // 1 s per 3 steps
      colours.push(meters.execute(0, 1)!);
    }
    expect(colours.every((c) => c === G)).toBe(true);
    // One microsecond before token 31 is due: RED.
    clock.advance(333_333);
    expect(meters.execute(0, 1)).toBe(R);
    clock.advance(1);
    expect(meters.execute(0, 1)).toBe(G);
  });

  it('marks everything GREEN when unconfigured or reset, and leaves out-of-range indexes alone', () => {
    const meters = new MeterArray(2, 'packets', fakeClock().now);
    expect(meters.execute(0, 100)).toBe(G);
    meters.configure(0, { cir: 0, cburst: 0, pir: 0, pburst: 0 });
    expect(meters.execute(0, 100)).toBe(R);
    expect(meters.rates(0)).toEqual({ cir: 0, cburst: 0, pir: 0, pburst: 0 });
    meters.configure(0, undefined);
    expect(meters.execute(0, 100)).toBe(G);
    expect(meters.rates(0)).toBeUndefined();
    expect(meters.execute(2, 100)).toBeUndefined();
    expect(meters.execute(-1, 100)).toBeUndefined();
    expect(() => meters.configure(2, undefined)).toThrow(RangeError);
  });

  it('configures every cell at once, refilling the buckets', () => {
    const clock = fakeClock();
    const meters = new MeterArray(3, 'packets', clock.now);
    const rates: MeterRates = { cir: 1, cburst: 1, pir: 1, pburst: 1 };
    meters.configureAll(rates);
    expect([0, 1, 2].map((i) => meters.execute(i, 1))).toEqual([G, G, G]);
    expect([0, 1, 2].map((i) => meters.execute(i, 1))).toEqual([R, R, R]);
    meters.configureAll(rates);
    expect(meters.execute(1, 1)).toBe(G);
  });

  it('refuses a peak rate below the committed rate and rates that are not numbers >= 0, with codes', () => {
    const meters = new MeterArray(1, 'bytes', fakeClock().now);
    expect(() => meters.configure(0, { cir: 100, cburst: 10, pir: 50, pburst: 10 })).toThrow(expect.objectContaining({ code: 'METER_PEAK_BELOW_COMMITTED' }));
    expect(() => meters.configure(0, { cir: -1, cburst: 10, pir: 50, pburst: 10 })).toThrow(expect.objectContaining({ code: 'METER_BAD_RATES' }));
    expect(() => meters.configure(0, { cir: 1, cburst: 1.5, pir: 50, pburst: 10 })).toThrow(expect.objectContaining({ code: 'METER_BAD_RATES' }));
    expect(() => meters.configureAll({ cir: NaN, cburst: 1, pir: 1, pburst: 1 })).toThrow(expect.objectContaining({ code: 'METER_BAD_RATES' }));
    expect(meters.execute(0, 100)).toBe(G); // a refused configuration changes nothing
  });

  it('ignores a clock that steps backwards instead of taking tokens away', () => {
    let t = 5_000_000;
    const meters = new MeterArray(1, 'packets', () => t);
    meters.configure(0, { cir: 1, cburst: 1, pir: 1, pburst: 1 });
    t += 2_000_000;
    expect(meters.execute(0, 1)).toBe(G);
    t -= 1_000_000;
    expect(meters.execute(0, 1)).toBe(R);
  });
});
