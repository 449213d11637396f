/**
 * OmniReduce's block-density sweep in Mininet (issue #14, "Speed"): for
 * block densities 100, 50, 10 and 1% (sparsity 0, 0.5, 0.9, 0.99, random
 * pattern, blocks of 256), one testbed run per density on `single,hosts=4`
 * with every link shaped to the same rate runs OmniReduce with one host
 * aggregator, OmniReduce in the switch (omnireduce.p4, blocks of 128), dense
 * SwitchML and ring AllReduce side by side on the same block-sparse tensors.
 * Each row beside its busiest link's lower bound (omnireduce-link-bounds.ts,
 * from the very masks the workers draw): the links are slow enough that
 * they, not the switch's CPU, limit SwitchML. Root only: without root (or
 * Mininet) it says why and measures nothing.
 */
import { nonZeroBlockMask } from '../src/agent/baseline/sparse-tensor.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { rowIsExact, runTestbed, sweepWithLoad, whyTestbedCannotRun, type TestbedRow } from './mininet-testbed.js';
import { linkBoundMs, omniReduceBusiestLink, omniReduceWire, ringLinkBytes, splitBlocks, switchMlLinkBytes } from './omnireduce-link-bounds.js';

const ALGORITHMS = ['omnireduce', 'omnireduce-switch', 'switchml', 'ring'] as const;
type Algorithm = (typeof ALGORITHMS)[number];
const SPARSITIES = [0, 0.5, 0.9, 0.99] as const;
const WORKERS = 4;
const LINK_MBPS = 1;
/** OmniReduce's slots and SwitchML's pool (each worker's window). */
const POOL = 32;
const SPARSE_BLOCK = 256;
/** omnireduce.p4's block: the largest it takes (128) that divides the pattern's. */
const SWITCH_BLOCK = 128;
const SEED = 1;
const KIB = 1024;

interface Bound {
  readonly link: string;
  readonly bytes: number;
}

/** Each algorithm's busiest link and its frame bytes for this density, from the masks the workers draw. */
function bounds(sparsity: number, tensorBytes: number): Record<Algorithm, Bound> {
  const elements = tensorBytes / 4;
  const blocks = Math.ceil(elements / SPARSE_BLOCK);
  const masks = Array.from({ length: WORKERS }, (_, rank) => nonZeroBlockMask(blocks, { sparsity, pattern: 'random', blockElements: SPARSE_BLOCK }, SEED, rank, WORKERS));
  const hosts = omniReduceWire(masks, { blocks, blockElements: SPARSE_BLOCK, slots: POOL });
  const factor = SPARSE_BLOCK / SWITCH_BLOCK;
  const inSwitch = omniReduceWire(masks.map((m) => splitBlocks(m, factor)), { blocks: blocks * factor, blockElements: SWITCH_BLOCK, slots: POOL });
  return {
    omnireduce: { link: 'aggregator', bytes: omniReduceBusiestLink('hosts', hosts) },
    'omnireduce-switch': { link: 'worker', bytes: omniReduceBusiestLink('switch', inSwitch) },
    switchml: { link: 'worker', bytes: switchMlLinkBytes(elements, POOL) },
    ring: { link: 'worker', bytes: ringLinkBytes(tensorBytes, WORKERS) },
  };
}

const densityText = (sparsity: number): string => `${Math.round((1 - sparsity) * 1000) / 10}%`;

async function measure(sparsity: number, tensorBytes: number, progress: (line: string) => void): Promise<{ rows: Cell[][]; failures: string[] }> {
  progress(`density ${densityText(sparsity)}: ${ALGORITHMS.join(', ')} × ${WORKERS} workers, ${tensorBytes / KIB} KiB, links at ${LINK_MBPS} Mbit/s`);
  const runs = await runTestbed([
    ...['--prefix', 'p4m', '--topo', `single,hosts=${WORKERS}`, '--bw', String(LINK_MBPS), '--tensor', String(tensorBytes), '--timeout', '900'],
    ...['--job', ALGORITHMS.join(','), '--pool', String(POOL), '--seed', String(SEED)],
    ...['--sparsity', String(sparsity), '--pattern', 'random', '--sparse-block', String(SPARSE_BLOCK)],
  ]);
  const bound = bounds(sparsity, tensorBytes);
  const timeOf = (algorithm: Algorithm): number | undefined => {
    const row = runs.find((r) => r.algorithm === algorithm);
    return row?.failure === null && row.timeMs !== null ? row.timeMs : undefined;
  };
  const switchml = timeOf('switchml');
  const switchmlBoundMs = linkBoundMs(bound.switchml.bytes, LINK_MBPS);
  const failures: string[] = [];
  const rows = ALGORITHMS.map((algorithm): Cell[] => {
    const row: TestbedRow | undefined = runs.find((r) => r.algorithm === algorithm);
    if (!row || !rowIsExact(row)) failures.push(`${densityText(sparsity)} ${algorithm}: ${row?.failure ?? (row ? 'not exact' : 'missing')}`);
    const t = timeOf(algorithm);
    const boundMs = linkBoundMs(bound[algorithm].bytes, LINK_MBPS);
    return [
      densityText(sparsity),
      algorithm,
      t === undefined ? undefined : t / 1000,
      row?.sentPerWorker == null ? undefined : row.sentPerWorker / KIB,
      bound[algorithm].link,
      bound[algorithm].bytes / KIB,
      boundMs / 1000,
      t === undefined ? undefined : t / boundMs,
      t === undefined || switchml === undefined ? undefined : switchml / t,
      switchmlBoundMs / boundMs,
      algorithm === 'ring' ? undefined : (row?.retransmissions ?? undefined),
      row === undefined ? 'missing' : rowIsExact(row) ? 'yes' : row.failure !== null ? 'failed' : 'no',
    ];
  });
  return { rows, failures };
}

export const omniReduceDensityMininet: Benchmark = {
  name: 'omnireduce-density-mininet',
  summary: `Mininet (root): OmniReduce (host and switch) against dense SwitchML and ring at 100/50/10/1% block density, ${WORKERS} hosts, ${LINK_MBPS} Mbit/s links`,
  async run({ quick, progress }): Promise<BenchResult> {
    const title = `OmniReduce block-density sweep on a Mininet testbed (${WORKERS} workers, every link ${LINK_MBPS} Mbit/s)`;
    const columns = ['density', 'algorithm', 'time (s)', 'KiB sent/worker', 'busiest link', 'its KiB', 'link bound (s)', '× bound', '× faster than SwitchML', 'bound: × SwitchML\'s', 'retransmissions', 'exact'];
    const why = whyTestbedCannotRun('omnireduce-density-mininet');
    if (why) return { title, columns, rows: [], notes: [`skipped: ${why}`] };
    const tensorBytes = (quick ? 256 : 1024) * KIB;
    const { rows, failures, loads } = await sweepWithLoad(quick ? [0, 0.9] : SPARSITIES, densityText, (sparsity) => measure(sparsity, tensorBytes, progress));
    return {
      title,
      columns,
      rows,
      notes: [
        `One \`mininet/testbed.py --topo single,hosts=${WORKERS} --bw ${LINK_MBPS} --tensor ${tensorBytes / KIB}KiB --job ${ALGORITHMS.join(',')} --pool ${POOL} --seed ${SEED} --sparsity S --pattern random --sparse-block ${SPARSE_BLOCK}\` per density: one p4ina switch (AF_PACKET, its ports' egress at ${LINK_MBPS} Mbit/s), ${WORKERS} worker hosts and one host for OmniReduce's aggregator, every link shaped by TCLink (htb). Every algorithm's workers reduce the same block-sparse tensors. omnireduce: one aggregator process owning all ${POOL} slots, blocks of ${SPARSE_BLOCK}, the switch (switchml.p4) only forwarding; omnireduce-switch: the switch reprogrammed to omnireduce.p4 (blocks of ${SWITCH_BLOCK}) aggregates; switchml: switchml.p4, 64 values per packet, pool ${POOL}, dense; ring: TCP. One run per row.`,
        "time: the slowest worker's AllReduce call. KiB sent/worker: what each worker's transport sent in the call, resends included (UDP payloads; ring: TCP stream bytes). busiest link and its KiB: the link that carries most in one direction and its frame bytes (headers included) for this density's masks, resends not included: a worker's link for the switch variant, SwitchML and ring; the aggregator's link for the host variant (every worker's messages in, one reply per worker out). × bound = time / (its KiB over the link rate). × faster than SwitchML: SwitchML's time over the row's, same run. bound: × SwitchML's: SwitchML's bound over the row's, the speed-up the links alone would allow.",
        `1-minute load average before → after each run (a 2-core machine shared with other work): ${loads.join('; ')}.`,
        ...failures.map((f) => `FAILED ${f}`),
      ],
    };
  },
};
