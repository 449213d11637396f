/**
 * What every algorithm's run in the demo shares: the options, the caller's
 * hooks, the child group, the built CLI, the progress line and the worker
 * hosts; and the loss relays opened so far (counted and closed by runDemo).
 */
import type { DemoAlgorithm } from '../report/demo-results.js';
import type { ChildGroup, TrackedChild } from './child-group.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import type { DemoHost } from './demo-network.js';
import type { DemoOptions } from './demo-options.js';
import type { LossyRelay } from './lossy-relay.js';
import type { Progress } from './progress.js';

export interface DemoHooks {
  /** The built `p4ina` entry the children run (default dist/src/cli/main.js of this package). */
  readonly cliEntry?: string;
  readonly progress?: Progress;
  /** Aborting stops the run and cleans up (the demo command wires SIGINT/SIGTERM to it). */
  readonly signal?: AbortSignal;
  /** The group children are started in; tests pass one to check the PIDs afterwards. */
  readonly children?: ChildGroup;
  /** Extra argv for the SwitchML agents, e.g. a worker that must fail in a test. */
  readonly extraSwitchMlArgs?: (rank: number) => readonly string[];
  /**
   * Called, and awaited, just before the workers of an algorithm that runs
   * through a switch (switchml, atp) start and just after they all finished,
   * while that switch still runs (the benchmark reads the switch's counters
   * and CPU time). Not called after a failed run.
   */
  readonly onRun?: (event: DemoRunEvent) => Promise<void> | void;
}

export interface DemoRunEvent {
  readonly algorithm: DemoAlgorithm;
  readonly phase: 'start' | 'end';
  /** The switch's child process. */
  readonly switchProcess: TrackedChild;
}

export interface DemoRunContext {
  readonly options: DemoOptions;
  readonly hooks: DemoHooks;
  readonly group: ChildGroup;
  readonly cliEntry: string;
  readonly progress: Progress;
  /** The workers h1..hN. */
  readonly hosts: readonly DemoHost[];
  /** Float32 values per tensor. */
  readonly elements: number;
  /** Every loss relay opened so far. */
  readonly relays: LossyRelay[];
}

/**
 * The workers of an algorithm through a switch run a little nicer than the
 * switch. The switch is the bottleneck and the workers mostly wait for it,
 * but on one machine they share its cores: when the cores are busy the
 * scheduler would otherwise give each worker as much CPU as the switch that
 * all of them wait for. On a real network the switch is a separate box; this
 * keeps the loopback closer to it.
 */
export const INA_WORKER_NICENESS = 5;

/** Throws DEMO_INTERRUPTED once the demo was asked to stop. */
export function interrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DemoError(DEMO_ERROR_CODES.interrupted, 'interrupted');
}
