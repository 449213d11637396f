/**
 * The sweep in Mininet, as root: each run is one whole Mininet testbed
 * (mininet/testbed.py) with the stage's ToRs INA-capable (`--ina-tors`, by
 * rack) and one algorithm, torn down by the script before the next run. The
 * names are the loopback network's (src/fabric's shorthand topology, one
 * parameter-server host in a rack of its own), which are Mininet's, so a
 * stage means the same racks on both networks; the other switches run
 * forward.p4 (`--legacy p4`), as on loopback. Every algorithm of the
 * sweep runs there; SwitchML only within one rack, so a job across racks is
 * a failed cell saying so, never a result from elsewhere.
 */
import { shorthandDocument } from '../fabric/index.js';
import type { Progress } from '../demo/progress.js';
import type { RunOutcome } from './rollout-cells.js';
import { RolloutError, ROLLOUT_ERROR_CODES } from './rollout-error.js';
import type { RolloutOptions } from './rollout-options.js';
import type { RolloutNetwork, RolloutRunRequest } from './run-rollout.js';
import { runTestbedProcess, whyTestbedCannotRun } from './mininet-testbed-process.js';
import { outcomeOfTestbedRun } from './mininet-outcome.js';

/** Time for the testbed to build, compile and tear down around the runs' own --timeout. */
const SETUP_MARGIN_MS = 180_000;

function failed(message: string): RunOutcome {
  return { timeMs: undefined, retransmissions: undefined, exact: undefined, runs: undefined, failure: message };
}

export interface ShorthandHosts {
  readonly workers: string[];
  /** Every ToR with workers, and its rack number (the testbed's --ina-tors names racks). */
  readonly rackOfTor: Map<string, number>;
}

/** Worker hosts and their ToRs, from the same document the loopback fabric is built from. */
export function shorthandHosts(options: RolloutOptions): ShorthandHosts {
  const doc = shorthandDocument(options.topo, { psHosts: 1, inaRacks: 'all' }) as { hosts: Record<string, { ip: string }>; links: { nodes: [string, string] }[] };
  const workers = Object.keys(doc.hosts).filter((h) => !/ps\d+$/.test(h));
  const rackOfTor = new Map<string, number>();
  for (const host of workers) {
    const link = doc.links.find((l) => l.nodes[0] === host);
    const rack = Number(doc.hosts[host]!.ip.split('.')[2]);
    if (!link || !Number.isInteger(rack)) throw new Error(`the shorthand topology has no ToR link or rack for ${host}`);
    rackOfTor.set(link.nodes[1].replace(/-p\d+$/, ''), rack);
  }
  return { workers, rackOfTor };
}

/** mininet/testbed.py's arguments for one run: the stage's ToRs as racks, every other switch forward.p4 as on loopback. */
export function testbedArgs(options: RolloutOptions, rackOfTor: ReadonlyMap<string, number>, request: RolloutRunRequest): string[] {
  const racks = request.stage.inaTors.map((tor) => {
    const rack = rackOfTor.get(tor);
    if (rack === undefined) throw new Error(`stage ToR ${tor} is not a ToR with workers (${[...rackOfTor.keys()].join(', ')})`);
    return rack;
  });
  return [
    '--topo', options.topoText,
    '--ina-tors', racks.length ? [...racks].sort((a, b) => a - b).join(',') : 'none',
    '--legacy', 'p4',
    '--job', request.algorithm,
    '--tensor', String(options.tensorBytes),
    '--seed', `${options.seed}/${request.repeat}`,
    '--timeout', String(Math.ceil(options.runTimeoutS)),
    ...(options.bwMbps === undefined ? [] : ['--bw', String(options.bwMbps)]),
    ...(options.loss > 0 ? ['--loss', String(options.loss)] : []),
    '--json',
  ];
}

export class MininetRolloutNetwork implements RolloutNetwork {
  private constructor(
    private readonly options: RolloutOptions,
    private readonly progress: Progress,
    readonly workers: readonly string[],
    private readonly rackOfTor: ReadonlyMap<string, number>,
  ) {}

  /** The ToRs that have workers, in rack order. */
  get workerTors(): readonly string[] {
    return [...this.rackOfTor.keys()];
  }

  /** Checks that the testbed can run here; throws ROLLOUT_NEEDS_ROOT with the reason before anything starts. */
  static start(options: RolloutOptions, progress: Progress): MininetRolloutNetwork {
    const why = whyTestbedCannotRun();
    if (why !== undefined) throw new RolloutError(ROLLOUT_ERROR_CODES.needsRoot, why);
    const { workers, rackOfTor } = shorthandHosts(options);
    return new MininetRolloutNetwork(options, progress, workers, rackOfTor);
  }

  async run(request: RolloutRunRequest, signal: AbortSignal): Promise<RunOutcome> {
    if (request.algorithm === 'switchml' && this.rackOfTor.size > 1) {
      return failed(`switchml in the Mininet testbed runs within one INA rack only, not the sweep's job across ${this.rackOfTor.size} racks (on loopback it runs as the planner's ring fallback)`);
    }
    const { stage, algorithm, repeat } = request;
    // The testbed's own steps (building Mininet, the controller, the job) under the sweep's progress line.
    const showStep = (line: string): void => {
      if (line.startsWith('testbed: ')) this.progress.update(`rollout: stage ${stage.count} (${stage.inaTors.join(',') || 'no INA ToR'}), ${algorithm}, repeat ${repeat + 1}: ${line}`);
    };
    const result = await runTestbedProcess(testbedArgs(this.options, this.rackOfTor, request), this.options.runTimeoutS * 1000 + SETUP_MARGIN_MS, signal, showStep);
    if (signal.aborted) throw new RolloutError(ROLLOUT_ERROR_CODES.interrupted, 'interrupted while the Mininet testbed ran; it tore its network down');
    return outcomeOfTestbedRun(request.algorithm, result, this.workers.length);
  }

  /** Nothing stays up between runs: each testbed tears its network down before it exits. */
  async close(): Promise<void> {}
}
