/**
 * A line plot as a standalone SVG document, for sweeps that are easier seen
 * than read (`p4ina rollout`: goodput against the share of INA ToRs, one
 * line per algorithm). No dependency: axes with round ticks, one polyline
 * and a marker per point for each series, a legend. Missing points (a failed
 * run) break the line instead of being drawn as zero.
 */

export interface PlotSeries {
  readonly name: string;
  /** y per x of the plot's `xs`, or undefined where there is no value. */
  readonly values: readonly (number | undefined)[];
}

export interface LinePlot {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xs: readonly number[];
  readonly series: readonly PlotSeries[];
  /** How x tick labels are written (default: the number). */
  readonly formatX?: (x: number) => string;
}

const WIDTH = 720;
const HEIGHT = 440;
const MARGIN = { left: 72, right: 180, top: 40, bottom: 56 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

/** Round tick values covering [0, max]: 1, 2 or 5 times a power of ten apart. */
export function niceTicks(max: number, wanted = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / wanted;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step * 1e-9 || ticks.length < 2; i++) ticks.push(Number((i * step).toPrecision(12)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function fixed(n: number): string {
  return Number(n.toFixed(2)).toString();
}

/** The plot as SVG text. Throws RangeError when a series' length differs from `xs` (a misuse). */
export function renderLinePlot(plot: LinePlot): string {
  for (const s of plot.series) if (s.values.length !== plot.xs.length) throw new RangeError(`series "${s.name}" has ${s.values.length} values for ${plot.xs.length} x positions`);
  const formatX = plot.formatX ?? ((x: number) => String(x));
  const xMin = Math.min(...plot.xs);
  const xMax = Math.max(...plot.xs);
  const yValues = plot.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined && Number.isFinite(v)));
  const yTicks = niceTicks(Math.max(0, ...yValues));
  const yTop = yTicks.at(-1)!;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const px = (x: number): number => MARGIN.left + (xMax === xMin ? plotW / 2 : ((x - xMin) / (xMax - xMin)) * plotW);
  const py = (y: number): number => MARGIN.top + plotH - (y / yTop) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(plot.title)}</text>`,
  ];
  for (const t of yTicks) {
    const y = fixed(py(t));
    out.push(`<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + plotW}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${MARGIN.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${escapeXml(String(t))}</text>`);
  }
  for (const x of plot.xs) {
    const at = fixed(px(x));
    out.push(`<line x1="${at}" y1="${MARGIN.top + plotH}" x2="${at}" y2="${MARGIN.top + plotH + 5}" stroke="black"/>`);
    out.push(`<text x="${at}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${escapeXml(formatX(x))}</text>`);
  }
  out.push(`<line x1="${MARGIN.left}" y1="${MARGIN.top + plotH}" x2="${MARGIN.left + plotW}" y2="${MARGIN.top + plotH}" stroke="black"/>`);
  out.push(`<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotH}" stroke="black"/>`);
  out.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escapeXml(plot.xLabel)}</text>`);
  out.push(`<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(plot.yLabel)}</text>`);
  plot.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    let run: string[] = [];
    const flush = (): void => {
      if (run.length > 1) out.push(`<polyline class="series" data-series="${escapeXml(s.name)}" fill="none" stroke="${colour}" stroke-width="2" points="${run.join(' ')}"/>`);
      run = [];
    };
    s.values.forEach((v, j) => {
      if (v === undefined || !Number.isFinite(v)) return flush();
      const point = `${fixed(px(plot.xs[j]!))},${fixed(py(v))}`;
      run.push(point);
      out.push(`<circle class="point" data-series="${escapeXml(s.name)}" data-x="${plot.xs[j]}" data-y="${v}" cx="${fixed(px(plot.xs[j]!))}" cy="${fixed(py(v))}" r="3.5" fill="${colour}"/>`);
    });
    flush();
    const ly = MARGIN.top + 10 + i * 20;
    out.push(`<line x1="${WIDTH - MARGIN.right + 16}" y1="${ly}" x2="${WIDTH - MARGIN.right + 40}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`);
    out.push(`<text x="${WIDTH - MARGIN.right + 46}" y="${ly}" dominant-baseline="middle">${escapeXml(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
