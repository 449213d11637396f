// The busiest link's share for the rollout benchmark, worked out by hand for
// leafspine,racks=4,hosts=2 from what each algorithm sends (see the module's comment).
import { describe, expect, test } from 'vitest';
import { busiestLinkShare, linkBoundMs } from '../../bench/rollout-link-bounds.js';

const topo = { racks: 4, hostsPerRack: 2 };

describe('rollout link bounds', () => {
  test('ring and hierarchical do not change with the stage', () => {
    for (const k of [0, 2, 4]) {
      expect(busiestLinkShare('ring', topo, k)).toBeCloseTo(14 / 8); // 2·7/8
      expect(busiestLinkShare('hierarchical', topo, k)).toBeCloseTo(1 + 6 / 4); // one member's tensor, then a ring of 4 leaders
    }
  });

  test('ATP: one stream per contributor on the PS link, 8 legacy workers down to 4 INA racks', () => {
    expect([0, 1, 2, 3, 4].map((k) => busiestLinkShare('atp', topo, k))).toEqual([8, 7, 6, 5, 4]);
  });

  test('Rina: a ring of 8, then 7, 6, 5, 4 members, an INA rack\'s links carrying (2M−1)/M', () => {
    expect(busiestLinkShare('rina', topo, 0)).toBeCloseTo(14 / 8);
    expect(busiestLinkShare('rina', topo, 1)).toBeCloseTo(13 / 7);
    expect(busiestLinkShare('rina', topo, 2)).toBeCloseTo(11 / 6);
    expect(busiestLinkShare('rina', topo, 4)).toBeCloseTo(7 / 4);
  });

  test('milliseconds: 1 MiB over the ring\'s 1.75 shares at 10 Mbit/s', () => {
    expect(linkBoundMs('ring', topo, 0, 1024 * 1024, 10)).toBeCloseTo((1.75 * 8 * 1024 * 1024) / 10_000);
    expect(() => busiestLinkShare('atp', topo, 5)).toThrow(RangeError);
  });
});
