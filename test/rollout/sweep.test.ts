// The sweep's bookkeeping with a scripted network (the real networks have their own tests):
// stages nested and seeded, every (stage, algorithm, repeat) asked once in order, a failed run
// reported in its cell and the sweep going on, Ctrl-C stopping it, the network closed always.
import { describe, expect, test } from 'vitest';
import { SILENT_PROGRESS } from '../../src/demo/progress.js';
import { cellIsExact, summariseCell, type RunOutcome } from '../../src/rollout/rollout-cells.js';
import { formatRolloutTable, renderRolloutPlot, type RolloutReport } from '../../src/rollout/rollout-report.js';
import { runSweep, type RolloutNetwork, type RolloutRunRequest } from '../../src/rollout/run-rollout.js';
import { pickStages, upgradeOrder } from '../../src/rollout/stage-pick.js';

const ok = (timeMs: number, retransmissions = 0): RunOutcome => ({ timeMs, retransmissions, exact: true, runs: 'x', failure: undefined });

class ScriptedNetwork implements RolloutNetwork {
  readonly asked: string[] = [];
  closed = 0;
  constructor(private readonly answer: (r: RolloutRunRequest) => RunOutcome | Error) {}
  run(r: RolloutRunRequest): Promise<RunOutcome> {
    this.asked.push(`${r.stage.count}:${r.algorithm}:${r.repeat}`);
    const a = this.answer(r);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  }
  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}

describe('stages', () => {
  const tors = ['s1', 's2', 's3', 's4'];
  test('a seeded permutation, the same for the same seed, nested stages', () => {
    const order = upgradeOrder(tors, 7);
    expect([...order].sort()).toEqual(tors);
    expect(upgradeOrder(tors, 7)).toEqual(order);
    const stages = pickStages(tors, [0, 1, 2, 3, 4], 7);
    expect(stages.map((s) => s.inaTors)).toEqual([[], order.slice(0, 1), order.slice(0, 2), order.slice(0, 3), order]);
    // Different seeds do not all give the same order (24 permutations).
    expect(new Set([1, 2, 3, 4, 5, 6].map((s) => upgradeOrder(tors, s).join())).size).toBeGreaterThan(1);
    expect(() => pickStages(tors, [5], 7)).toThrow(RangeError);
  });
});

describe('cells', () => {
  test('median time, goodput at the median, mean retransmissions, failures kept', () => {
    const cell = summariseCell(1, ['s2'], 'rina', 1_000_000, [ok(40, 3), ok(10, 1), { ...ok(20, 2), exact: false }, { timeMs: undefined, retransmissions: undefined, exact: undefined, runs: undefined, failure: 'boom' }]);
    // median of 10, 20, 40 = 20 ms; 8e6 bits / 20 ms = 400 Mbit/s.
    expect(cell).toMatchObject({ timeMs: 20, goodputMbps: 400, retransmissions: 2, exactRuns: 2, repeats: 4, failures: ['boom'] });
    expect(cellIsExact(cell)).toBe(false);
    expect(cellIsExact(summariseCell(0, [], 'ring', 8, [ok(1), ok(3)]))).toBe(true);
    expect(summariseCell(0, [], 'ring', 8, [ok(1), ok(3)]).timeMs).toBe(2);
  });
});

describe('runSweep', () => {
  const stages = pickStages(['s1', 's2'], [0, 2], 1);
  const plan = { stages, algorithms: ['rina', 'ring'] as const, repeats: 2, tensorBytes: 4096 };

  test('asks for every run once in order; a failing run is its cell’s failure and the sweep goes on', async () => {
    const net = new ScriptedNetwork((r) => (r.stage.count === 2 && r.algorithm === 'rina' && r.repeat === 1 ? new Error('worker 3 timed out') : ok(10 + r.repeat)));
    const cells = await runSweep(plan, net, SILENT_PROGRESS, new AbortController().signal);
    expect(net.asked).toEqual(['0:rina:0', '0:rina:1', '0:ring:0', '0:ring:1', '2:rina:0', '2:rina:1', '2:ring:0', '2:ring:1']);
    expect(cells.map((c) => [c.stage, c.algorithm, c.exactRuns, c.failures])).toEqual([
      [0, 'rina', 2, []],
      [0, 'ring', 2, []],
      [2, 'rina', 1, ['worker 3 timed out']],
      [2, 'ring', 2, []],
    ]);
    expect(net.closed).toBe(1);
  });

  test('Ctrl-C stops the sweep with ROLLOUT_INTERRUPTED and still closes the network', async () => {
    const abort = new AbortController();
    const net = new ScriptedNetwork((r) => {
      if (r.repeat === 1) abort.abort();
      return ok(1);
    });
    await expect(runSweep(plan, net, SILENT_PROGRESS, abort.signal)).rejects.toMatchObject({ code: 'ROLLOUT_INTERRUPTED' });
    expect(net.asked).toEqual(['0:rina:0', '0:rina:1']);
    expect(net.closed).toBe(1);
  });

  test('the table says ratio to ring per stage and counts exact cells; the plot has a line per algorithm', async () => {
    const net = new ScriptedNetwork((r) => ok(r.algorithm === 'ring' ? 40 : 10));
    const cells = await runSweep(plan, net, SILENT_PROGRESS, new AbortController().signal);
    const report: RolloutReport = { topology: 'leafspine,racks=2,hosts=2,spines=1', net: 'loopback', tors: 2, workers: 4, tensorBytes: 4096, repeats: 2, seed: 1, bwMbps: undefined, loss: 0, algorithms: ['rina', 'ring'], cells };
    const table = formatRolloutTable(report);
    // rina at 10 ms vs ring at 40 ms: 4× ring's goodput.
    expect(table).toMatch(/2\/2 +\S+ +rina +x +10 +3\.28 +4 +0 +yes/);
    expect(table).toContain('4 of 4 cells exact in every repeat');
    const svg = renderRolloutPlot(report);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('>100%<');
  });
});
