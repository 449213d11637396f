/** What Rina's paper compares at partial deployment. */
const DEFAULT_ALGORITHMS = 'rina,atp,hierarchical,ring';

/**
 * `p4ina rollout` options: the topology (the testbeds' `--topo` shorthand),
 * the algorithms, the stages (how many ToRs are INA-capable; all by
 * default), the tensor, the network (loopback fabric or Mininet), link
 * bandwidth and loss, repeats, the seed, and where the results go.
 */
import { parseArgs } from 'node:util';
import { parseTensorSize } from '../demo/demo-options.js';
import { parseTopoShorthand, type TopoShorthand } from '../fabric/index.js';
import { ROLLOUT_ALGORITHMS, type RolloutAlgorithm } from './rollout-cells.js';
import { RolloutError, ROLLOUT_ERROR_CODES } from './rollout-error.js';

export interface RolloutOptions {
  readonly topoText: string;
  readonly topo: TopoShorthand;
  readonly algorithms: readonly RolloutAlgorithm[];
  /** Counts of INA-capable ToRs, ascending; undefined: 0..every ToR. */
  readonly stages: readonly number[] | undefined;
  readonly tensorBytes: number;
  readonly net: 'loopback' | 'mininet';
  /** Every link's bandwidth, Mbit/s (loopback: the switches' port rate). */
  readonly bwMbps: number | undefined;
  /** Probability that a packet is lost on each host link, each way. */
  readonly loss: number;
  readonly repeats: number;
  readonly seed: number | string;
  /** Seconds one run may take before it is a failure. */
  readonly runTimeoutS: number;
  readonly json: boolean;
  /** Where the SVG goes; undefined: no plot. */
  readonly plotPath: string | undefined;
}

export const ROLLOUT_USAGE = `usage: p4ina rollout [options]

Runs the same AllReduce job at every stage of an incremental INA rollout (no
INA-capable ToR, then one, two, … all, picked by the seed), every algorithm
at every stage on the same tensors, checks every result against the float64
reference, and prints a table (stage × algorithm), with an SVG plot of
goodput against the share of INA ToRs.

options:
  --topo SPEC          leafspine,racks=R,hosts=H,spines=S or single,hosts=K
                       (default leafspine,racks=4,hosts=2,spines=1)
  --algorithms LIST    of ${ROLLOUT_ALGORITHMS.join(', ')} (default ${DEFAULT_ALGORITHMS})
  --stages LIST        INA-capable ToR counts, e.g. 0,2,4 (default every count)
  --tensor SIZE        bytes of float32 per worker: 1MiB, 512KiB, … (default 1MiB)
  --net NET            loopback (emulated switches on UDP wires, no root) or mininet (root)
                       (default loopback)
  --bw MBITS           every link's bandwidth in Mbit/s (default unlimited)
  --loss P             packet loss on every host link, each way, 0..0.5 (default 0)
  --repeat N           runs per cell; the table shows the median (default 1)
  --seed S             tensors, loss and which ToRs are upgraded first (default 1)
  --run-timeout SEC    one run longer than this is a failure (default 300)
  --plot FILE          the SVG plot (default rollout.svg; --no-plot for none)
  --no-plot            no plot
  --json               one JSON document instead of the table
  -h, --help           this help`;

function bad(message: string): RolloutError {
  return new RolloutError(ROLLOUT_ERROR_CODES.badOption, message);
}

function list(text: string, what: string): string[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw bad(`${what}: an empty item in "${text}"`);
  const twice = items.find((s, i) => items.indexOf(s) !== i);
  if (twice !== undefined) throw bad(`${what} lists ${twice} twice; give each once`);
  return items;
}

function number(text: string | undefined, what: string, min: number, max: number, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw bad(`${what} takes ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not "${text}"`);
  }
  return n;
}

/** Parses argv after "rollout"; undefined for --help. Throws RolloutError (ROLLOUT_BAD_OPTION). */
export function parseRolloutArgs(argv: readonly string[]): RolloutOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        topo: { type: 'string' },
        algorithms: { type: 'string' },
        stages: { type: 'string' },
        tensor: { type: 'string' },
        net: { type: 'string' },
        bw: { type: 'string' },
        loss: { type: 'string' },
        repeat: { type: 'string' },
        seed: { type: 'string' },
        'run-timeout': { type: 'string' },
        plot: { type: 'string' },
        'no-plot': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw bad((err as Error).message);
  }
  if (values.help) return undefined;
  const topoText = values.topo ?? 'leafspine,racks=4,hosts=2,spines=1';
  let topo: TopoShorthand;
  try {
    topo = parseTopoShorthand(topoText);
  } catch (err) {
    throw bad((err as Error).message);
  }
  const tors = topo.kind === 'single' ? 1 : topo.racks;
  const known = new Set<string>(ROLLOUT_ALGORITHMS);
  const algorithms = list(values.algorithms ?? DEFAULT_ALGORITHMS, '--algorithms');
  const unknown = algorithms.find((a) => !known.has(a));
  if (unknown !== undefined) throw bad(`--algorithms takes ${ROLLOUT_ALGORITHMS.join(', ')}; "${unknown}" is not one`);
  const stages = values.stages === undefined ? undefined : list(values.stages, '--stages').map((s) => number(s, '--stages', 0, tors, true)!);
  if (stages) stages.sort((a, b) => a - b);
  const net = values.net ?? 'loopback';
  if (net !== 'loopback' && net !== 'mininet') throw bad(`--net takes loopback or mininet, not "${net}"`);
  let tensorBytes: number;
  try {
    tensorBytes = parseTensorSize(values.tensor ?? '1MiB');
  } catch (err) {
    throw bad((err as Error).message);
  }
  if (values.plot !== undefined && values['no-plot']) throw bad('give --plot FILE or --no-plot, not both');
  const seedText = (values.seed ?? '1').trim();
  if (seedText === '') throw bad('--seed must not be empty');
  return {
    topoText,
    topo,
    algorithms: algorithms as RolloutAlgorithm[],
    stages,
    tensorBytes,
    net,
    bwMbps: number(values.bw, '--bw', 0.01, 100_000, false),
    loss: number(values.loss, '--loss', 0, 0.5, false) ?? 0,
    repeats: number(values.repeat, '--repeat', 1, 100, true) ?? 1,
    seed: /^-?\d+$/.test(seedText) && Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText,
    runTimeoutS: number(values['run-timeout'], '--run-timeout', 1, 86_400, false) ?? 300,
    json: values.json ?? false,
    plotPath: values['no-plot'] ? undefined : (values.plot ?? 'rollout.svg'),
  };
}
