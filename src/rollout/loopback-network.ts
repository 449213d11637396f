/**
 * The sweep on loopback, as a normal user: the topology shorthand as a
 * LoopbackFabric of `p4ina switch` processes on UDP wires, with one
 * parameter-server host in a rack of its own (as the Mininet testbed has
 * it). For each run the stage's ToRs get the algorithm's INA program and
 * every other switch forward.p4 (only switches whose program changes are
 * pushed), then the algorithm runs through the fabric: ring as UDP ring
 * members (fabric-rina-run.ts); only hierarchical, a TCP baseline, runs on
 * 127.0.0.1 beside it.
 */
import { ChildGroup } from '../demo/child-group.js';
import { inaProgram, LoopbackFabric, legacyProgram, shorthandTopology, type FabricProgram } from '../fabric/index.js';
import { atpSource, builtCliEntry, rinaSource, switchMlSource } from '../run/package-paths.js';
import type { RolloutAlgorithm, RunOutcome } from './rollout-cells.js';
import { RolloutError, ROLLOUT_ERROR_CODES } from './rollout-error.js';
import type { RolloutOptions } from './rollout-options.js';
import { runAtpOnFabric, type FabricRun } from './fabric-atp-run.js';
import { runRinaOnFabric, runUdpRingOnFabric } from './fabric-rina-run.js';
import { runSwitchMlOnFabric } from './fabric-switchml-run.js';
import { runHierarchicalOnHosts } from './host-baseline-run.js';
import type { RolloutNetwork, RolloutRunRequest } from './run-rollout.js';

const PS_HOSTS = 1;

/** The P4 program an algorithm's INA ToRs run; undefined for host-only algorithms. */
function inaSourceOf(algorithm: RolloutAlgorithm): string | undefined {
  if (algorithm === 'atp') return atpSource();
  if (algorithm === 'switchml') return switchMlSource();
  if (algorithm === 'rina') return rinaSource();
  return undefined;
}

type FabricRunner = (run: FabricRun) => Promise<RunOutcome>;

const RUNNERS: Partial<Record<RolloutAlgorithm, FabricRunner>> = {
  atp: runAtpOnFabric,
  ring: runUdpRingOnFabric,
  hierarchical: runHierarchicalOnHosts,
  switchml: runSwitchMlOnFabric,
  rina: runRinaOnFabric,
};

export class LoopbackRolloutNetwork implements RolloutNetwork {
  private readonly group = new ChildGroup();

  private constructor(
    private readonly fabric: LoopbackFabric,
    private readonly options: RolloutOptions,
    /** Worker hosts by rank, the PS host, and the ToRs that have workers. */
    readonly workers: readonly string[],
    readonly psHost: string,
    readonly workerTors: readonly string[],
  ) {}

  static async start(options: RolloutOptions, signal: AbortSignal): Promise<LoopbackRolloutNetwork> {
    const topology = shorthandTopology(options.topo, { psHosts: PS_HOSTS, inaRacks: 'all', bandwidthMbps: options.bwMbps });
    const psHosts = new Set([...topology.hosts.keys()].filter((h) => /ps\d+$/.test(h)));
    const workers = [...topology.hosts.keys()].filter((h) => !psHosts.has(h));
    const [psHost] = [...psHosts];
    if (psHost === undefined) throw new Error('the shorthand topology has no parameter-server host');
    let fabric: LoopbackFabric;
    try {
      // Relays on every host link, so that --loss can be set per run (seeded by the run) and counted.
      fabric = await LoopbackFabric.start(topology, { program: () => legacyProgram(), signal, impairment: { loss: options.loss, seed: String(options.seed) } });
    } catch (err) {
      if (signal.aborted) throw new RolloutError(ROLLOUT_ERROR_CODES.interrupted, 'interrupted while the fabric was starting', { cause: err });
      throw new RolloutError(ROLLOUT_ERROR_CODES.network, `the loopback fabric did not start: ${(err as Error).message}`, { cause: err });
    }
    const workerTors = [...new Set(workers.map((h) => fabric.host(h).tor))];
    return new LoopbackRolloutNetwork(fabric, options, workers, psHost, workerTors);
  }

  async run(request: RolloutRunRequest, signal: AbortSignal): Promise<RunOutcome> {
    const runner = RUNNERS[request.algorithm];
    if (!runner) return { timeMs: undefined, retransmissions: undefined, exact: undefined, runs: undefined, failure: `${request.algorithm} does not run on the loopback fabric yet` };
    const source = inaSourceOf(request.algorithm);
    const ina = new Set(source ? request.stage.inaTors : []);
    const programs = new Map<string, FabricProgram>();
    for (const sw of this.fabric.topology.switches.values()) programs.set(sw.name, ina.has(sw.name) ? inaProgram(source!) : legacyProgram());
    const changed = new Map([...programs].filter(([name, p]) => !samePrograms(this.fabric.switches().find((s) => s.name === name)!.program, p)));
    if (changed.size) await this.fabric.reprogramAll(changed);
    // The same loss pattern for every algorithm of a (stage, repeat): a fair comparison.
    this.fabric.setImpairment({ loss: this.options.loss, seed: `${this.options.seed}/${request.stage.count}/${request.repeat}` });
    const outcome = await runner({
      fabric: this.fabric,
      group: this.group,
      cliEntry: builtCliEntry(),
      workers: this.workers,
      psHost: this.psHost,
      elements: this.options.tensorBytes / 4,
      seed: `${this.options.seed}/${request.repeat}`,
      timeoutMs: this.options.runTimeoutS * 1000,
      signal,
    });
    if (this.options.loss === 0 || !outcome.runs || outcome.runs.includes('off the switches')) return outcome;
    let lost = 0;
    for (const c of this.fabric.linkCounters().values()) lost += c.up.lost + c.down.lost;
    return { ...outcome, framesLost: lost };
  }

  async close(): Promise<void> {
    try {
      await this.group.close();
    } finally {
      await this.fabric.close();
    }
  }
}

function samePrograms(a: FabricProgram, b: FabricProgram): boolean {
  return a.ina === b.ina && JSON.stringify(a.program) === JSON.stringify(b.program);
}
