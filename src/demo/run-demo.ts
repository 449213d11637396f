/**
 * The demo's orchestration (design §3, loopback mode): compile switchml.p4,
 * start the emulated switch with one UDP wire per host, program it over
 * P4Runtime with the controller (forwarding, then the SwitchML job), run the
 * SwitchML workers through it, then the ring baseline over TCP on the same
 * seeded tensors, and return one row per algorithm.
 *
 * Everything it starts — child processes, relay sockets, the controller's
 * gRPC channel, the temp directory — is released in `finally`, whether the
 * run worked, failed, or was aborted through `signal` (Ctrl-C). When the demo
 * is killed outright (kill -9), its children stop by themselves (their
 * lifelines, src/run/lifeline.ts); the temp directory is gone by then, as it
 * is removed as soon as the switch is programmed, and one left by a demo
 * killed earlier is removed by the next run (temp-dir.ts).
 */
import { rmSync } from 'node:fs';
import { defineJob, parseTopology } from '../controller/index.js';
import { Installer } from '../controller/install/index.js';
import { P4inaError } from '../errors/p4ina-error.js';
import { moduleLogger } from '../log/logger.js';
import { ChildGroup, type TrackedChild } from './child-group.js';
import { compileSwitchMl } from './compile-switchml.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import { demoHosts, demoJobInput, demoTopology, ringAgentArgs, switchInterfaceArgs, switchMlAgentArgs, type DemoHost, type WirePorts } from './demo-network.js';
import type { DemoOptions } from './demo-options.js';
import { failedRun, summariseRun, type DemoAlgorithm, type DemoRow } from '../report/demo-results.js';
import { freeTcpPorts, freeUdpPorts } from './free-ports.js';
import { LossyRelay } from './lossy-relay.js';
import { builtCliEntry, switchMlSource } from '../run/package-paths.js';
import { SILENT_PROGRESS, type Progress } from './progress.js';
import { startSwitchProcess, switchExitError, whenSwitchExits } from './switch-process.js';
import { makeDemoTempDir } from './temp-dir.js';
import { runWorkers } from './worker-runs.js';

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
   * Called, and awaited, just before each algorithm's workers start and just
   * after they all finished, while the switch still runs (the benchmark reads
   * the switch's counters and CPU time). Not called after a failed run.
   */
  readonly onRun?: (event: DemoRunEvent) => Promise<void> | void;
}

export interface DemoRunEvent {
  readonly algorithm: DemoAlgorithm;
  readonly phase: 'start' | 'end';
  /** The switch's child process. */
  readonly switchProcess: TrackedChild;
}

export interface DemoOutcome {
  readonly rows: readonly DemoRow[];
  /** Frames the loss relays dropped (0 without --loss). */
  readonly framesLost: number;
}

const SWITCH_START_TIMEOUT_MS = 30_000;
/**
 * The SwitchML workers run a little nicer than the switch. The switch is the
 * bottleneck and the workers mostly wait for it, but on one machine they
 * share its cores: when the cores are busy the scheduler would otherwise give
 * each worker as much CPU as the switch that all of them wait for. On a real
 * network the switch is a separate box; this keeps the loopback closer to it.
 */
const SWITCHML_WORKER_NICENESS = 5;
const CONTROLLER_RPC_TIMEOUT_MS = 30_000;

function interrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DemoError(DEMO_ERROR_CODES.interrupted, 'interrupted');
}

export async function runDemo(options: DemoOptions, hooks: DemoHooks = {}): Promise<DemoOutcome> {
  const progress = hooks.progress ?? SILENT_PROGRESS;
  const cliEntry = hooks.cliEntry ?? builtCliEntry();
  const group = hooks.children ?? new ChildGroup();
  const signal = hooks.signal;
  const elements = options.tensorBytes / 4;
  const tmp = makeDemoTempDir();
  const relays: LossyRelay[] = [];
  const rows: DemoRow[] = [];
  try {
    progress.update('compiling p4/switchml.p4');
    const program = compileSwitchMl(switchMlSource(), tmp);
    interrupted(signal);

    const hosts = demoHosts(options.workers);
    const wires = await planWires(hosts, options, relays);
    progress.update(`starting the switch (${hosts.length} UDP-wire ports)`);
    const sw = await startSwitchProcess(group, cliEntry, { interfaces: switchInterfaceArgs(hosts, wires), config: program.config, startTimeoutMs: SWITCH_START_TIMEOUT_MS, signal });
    interrupted(signal);

    progress.update(`programming the switch at ${sw.grpcAddress} over P4Runtime`);
    try {
      await programSwitch(hosts, sw.grpcAddress, program, options.poolSize);
    } catch (err) {
      throw switchExitError(sw.child, 'while the controller programmed it') ?? err;
    }
    interrupted(signal);
    // Nothing reads the program's files any more (the switch and the controller have them): a demo
    // killed from here on leaves no temp dir behind.
    rmSync(tmp, { recursive: true, force: true });

    /** SwitchML needs the switch all along; the ring does not use it. */
    const run = async (algorithm: DemoAlgorithm, argvByRank: string[][], niceness = 0, needsSwitch = false): Promise<DemoRow> => {
      const label = `${algorithm}: ${hosts.length} workers × ${elements} floats`;
      let stage = `${label}: running`;
      const started = Date.now();
      const elapsed = (): string => `(${((Date.now() - started) / 1000).toFixed(0)} s)`;
      progress.update(stage, elapsed());
      const heartbeat = setInterval(() => progress.update(stage, elapsed()), 1000);
      try {
        await hooks.onRun?.({ algorithm, phase: 'start', switchProcess: sw.child });
        const during = `while ${algorithm}'s workers were running`;
        let outcomes;
        try {
          outcomes = await runWorkers(group, {
            label: algorithm,
            cliEntry,
            argvByRank,
            timeoutMs: options.runTimeoutMs,
            signal,
            niceness,
            fatal: needsSwitch ? whenSwitchExits(sw.child, during) : undefined,
            onProgress: (done, total) => progress.update((stage = `${label}: ${done}/${total} workers done`), elapsed()),
          });
        } catch (err) {
          // Workers that failed because the switch died: the switch's exit is the news.
          throw (needsSwitch && !signal?.aborted ? switchExitError(sw.child, during) : undefined) ?? err;
        }
        await hooks.onRun?.({ algorithm, phase: 'end', switchProcess: sw.child });
        return summariseRun(algorithm, options.tensorBytes, outcomes);
      } catch (err) {
        if (!options.keepGoing || !P4inaError.is(err) || err.code === DEMO_ERROR_CODES.interrupted) throw err;
        return failedRun(algorithm, hosts.length, options.tensorBytes, err.message);
      } finally {
        clearInterval(heartbeat);
      }
    };

    const switchMlRun = { workers: hosts.length, poolSize: options.poolSize, length: elements, seed: options.seed };
    rows.push(
      await run(
        'switchml',
        hosts.map((h, rank) => [...switchMlAgentArgs(h, wires[rank]!, switchMlRun), ...(hooks.extraSwitchMlArgs?.(rank) ?? [])]),
        SWITCHML_WORKER_NICENESS,
        true,
      ),
    );
    const tcpPorts = await freeTcpPorts(hosts.length);
    rows.push(await run('ring', hosts.map((_, rank) => ringAgentArgs(rank, tcpPorts, { length: elements, seed: options.seed }))));
    return { rows, framesLost: relays.reduce((sum, r) => sum + r.counters.lost, 0) };
  } finally {
    progress.update('cleaning up');
    progress.done();
    await (hooks.children ? group.stopAll() : group.close());
    await Promise.all(relays.map((r) => r.close()));
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Ports of every wire; with loss, a relay in the middle of each (pushed to `relays` for cleanup). */
async function planWires(hosts: readonly DemoHost[], options: DemoOptions, relays: LossyRelay[]): Promise<WirePorts[]> {
  const ports = await freeUdpPorts(2 * hosts.length);
  const wires: WirePorts[] = [];
  for (const [i, host] of hosts.entries()) {
    const switchSocket = ports[2 * i]!;
    const agentSocket = ports[2 * i + 1]!;
    if (options.loss > 0) {
      const relay = await LossyRelay.open(host.name, agentSocket, switchSocket, options.loss, options.seed);
      relays.push(relay);
      wires.push({ switchSocket, agentSocket, switchPeer: relay.switchFacingPort, agentPeer: relay.agentFacingPort });
    } else {
      wires.push({ switchSocket, agentSocket, switchPeer: agentSocket, agentPeer: switchSocket });
    }
  }
  return wires;
}

/** The controller's part: connect, push the pipeline if needed, forwarding, the SwitchML job; then let go. */
async function programSwitch(hosts: readonly DemoHost[], grpcAddress: string, program: { config: string; p4info: string }, poolSize: number): Promise<void> {
  const topology = parseTopology(demoTopology(hosts, grpcAddress, program));
  // The controller's info lines would land in the middle of the table on stdout: warnings only, unless LOG_LEVEL says otherwise.
  const logger = moduleLogger('demo.controller');
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  const installer = await Installer.connect(topology, { rpcTimeoutMs: CONTROLLER_RPC_TIMEOUT_MS, logger });
  try {
    await installer.installForwarding();
    await installer.setupJob(defineJob(demoJobInput(hosts, poolSize)));
  } finally {
    await installer.close();
  }
}
