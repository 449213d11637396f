import { afterEach, describe, expect, test } from 'vitest';
import { AdaptiveTimeout, SlotTimers } from '../../../src/agent/switchml/retransmission.js';
import { eventually } from '../transport/helpers.js';

describe('AdaptiveTimeout', () => {
  test('per packet, the k-th retransmission waits base * factor^k, capped', () => {
    const t = new AdaptiveTimeout(10, { factor: 2, everyTimeouts: 100, maxTimeoutMs: 100 });
    expect([0, 1, 2, 3, 4, 10].map((k) => t.waitMs(k))).toEqual([10, 20, 40, 80, 100, 100]);
  });

  test('the base doubles after 100 timeouts, then 200 more, then 300 more (SwitchML’s rising threshold)', () => {
    const t = new AdaptiveTimeout(10, { factor: 2, everyTimeouts: 100, maxTimeoutMs: 1000 });
    const bases: number[] = [];
    for (let i = 1; i <= 1000; i++) {
      t.recordTimeout();
      if ([99, 100, 299, 300, 599, 600, 999, 1000].includes(i)) bases.push(t.baseMs);
    }
    expect(bases).toEqual([10, 20, 20, 40, 40, 80, 80, 160]);
  });

  test('the initial timeout never exceeds the cap', () => {
    expect(new AdaptiveTimeout(500, { factor: 2, everyTimeouts: 1, maxTimeoutMs: 100 }).baseMs).toBe(100);
  });
});

describe('SlotTimers', () => {
  let timers: SlotTimers | undefined;
  afterEach(() => timers?.dispose());

  test('only slots whose packet is still unanswered expire; retransmissions count per slot', async () => {
    const expired: number[] = [];
    const timeout = new AdaptiveTimeout(1, { factor: 1, everyTimeouts: 1_000_000, maxTimeoutMs: 1 });
    timers = new SlotTimers(3, timeout, (slot) => {
      expired.push(slot);
      if (expired.filter((s) => s === slot).length < 3) timers!.retransmitted(slot);
    });
    timers.started(0);
    timers.started(1);
    timers.started(2);
    timers.stopped(1);
    expect(await eventually(() => expired.length === 6)).toBe(true);
    expect(expired.filter((s) => s === 0)).toHaveLength(3);
    expect(expired.filter((s) => s === 2)).toHaveLength(3);
    expect(expired).not.toContain(1);
    expect(timers.attemptsOf(0)).toBe(2);
    timers.started(0);
    expect(timers.attemptsOf(0)).toBe(0);
  });

  test('dispose stops everything', async () => {
    const expired: number[] = [];
    timers = new SlotTimers(1, new AdaptiveTimeout(1, { factor: 1, everyTimeouts: 10, maxTimeoutMs: 1 }), (slot) => expired.push(slot));
    timers.started(0);
    timers.dispose();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(expired).toEqual([]);
  });
});
