// The rollout plot: points land where the axes say (checked by mapping each marker's pixel
// position back through the drawn tick labels), failed runs break a line, and text is escaped.
import { describe, expect, test } from 'vitest';
import { niceTicks, renderLinePlot } from '../../src/report/svg-line-plot.js';

function attrs(svg: string, tag: string): Record<string, string>[] {
  return [...svg.matchAll(new RegExp(`<${tag} ([^>]*)/?>`, 'g'))].map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

describe('niceTicks', () => {
  test('round steps that cover the maximum', () => {
    expect(niceTicks(4.3)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(niceTicks(0.73)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(1200)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});

describe('renderLinePlot', () => {
  const plot = {
    title: 'goodput <by> rollout',
    xLabel: 'INA ToRs',
    yLabel: 'Gbit/s',
    xs: [0, 0.5, 1],
    formatX: (x: number) => `${x * 100}%`,
    series: [
      { name: 'rina', values: [1, 2, 4] },
      { name: 'atp & co', values: [0.5, undefined, 3] },
    ],
  };
  const svg = renderLinePlot(plot);

  test('every marker sits at its value on the drawn axes', () => {
    const yTicks = attrs(svg, 'text').filter((t) => t['text-anchor'] === 'end');
    expect(yTicks).toHaveLength(5);
    // The y ticks 0..4 are drawn from the bottom up at even spacing: value = (y0 − y) / (y0 − y4) · 4.
    const labels = [...svg.matchAll(/text-anchor="end" dominant-baseline="middle">([^<]*)</g)].map((m) => Number(m[1]));
    expect(labels).toEqual([0, 1, 2, 3, 4]);
    const ys = yTicks.map((t) => Number(t.y));
    const valueAt = (y: number): number => ((ys[0]! - y) / (ys[0]! - ys.at(-1)!)) * 4;
    const points = attrs(svg, 'circle').filter((c) => c.class === 'point');
    expect(points).toHaveLength(5);
    for (const p of points) expect(valueAt(Number(p.cy))).toBeCloseTo(Number(p['data-y']), 1);
    const xTicks = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle">(\d+%)</g)].map((m) => [Number(m[1]), m[2]] as const);
    expect(xTicks.map((t) => t[1])).toEqual(['0%', '50%', '100%']);
    for (const p of points) expect(Number(p.cx)).toBeCloseTo(xTicks[plot.xs.indexOf(Number(p['data-x']))]![0], 1);
  });

  test('a missing value breaks the line; names and title are escaped', () => {
    const lines = attrs(svg, 'polyline');
    expect(lines.map((l) => l['data-series'])).toEqual(['rina']);
    expect(svg).toContain('goodput &lt;by&gt; rollout');
    expect(svg).toContain('atp &amp; co');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  test('a series of the wrong length is a misuse', () => {
    expect(() => renderLinePlot({ ...plot, series: [{ name: 'x', values: [1] }] })).toThrow(RangeError);
  });
});
