/**
 * The loopback fabric (design §3, mode 2, for any topology and no root):
 * every switch of a topology as an emulated switch whose ports are UDP wires
 * on 127.0.0.1 (host ports and switch-to-switch links alike), programmed by
 * the real controller over P4Runtime/gRPC: each switch's program pushed and
 * forwarding for every pair of hosts installed. What it hands back:
 *
 *   const fabric = await LoopbackFabric.start(topology, { program });
 *   fabric.host('p4ih1')               // its wire: agent socket, ToR socket, addresses
 *   fabric.wireArgs('p4ih1')           // `--transport wire …` of the ATP agents
 *   const installer = await fabric.controller();   // jobs go through it
 *   await fabric.reprogram('p4it1', legacyProgram());  // a rollout stage
 *   fabric.setImpairment({ loss: 0.01, seed: 'run-3' });  // with the impairment option: the next run's loss
 *   fabric.linkCounters()              // what each host link's relay lost, duplicated, reordered
 *   await fabric.restartSwitch('p4it1');  // killed and started again, empty (switch-restart.ts)
 *   await fabric.close();              // every switch, relay and socket gone
 *
 * Only one controller can be primary for a switch at a time, so the fabric
 * programs with its own short controller runs and closes the Installers it
 * handed out before it reprograms (their topology would say the wrong
 * programs) and when it closes.
 */
import type { AtpWire } from '../agent/atp/wire-args.js';
import { withInaSwitches, type Topology } from '../controller/index.js';
import { Installer, ProgramCache, type InstallerOptions } from '../controller/install/index.js';
import { freeUdpPorts } from '../demo/free-ports.js';
import { moduleLogger, type Logger } from '../log/logger.js';
import { compilePipeline } from '../p4c/index.js';
import { builtCliEntry } from '../run/package-paths.js';
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import { impairs, type FabricImpairment, type HostLinkCounters } from './fabric-impairment.js';
import type { FabricOptions } from './fabric-options.js';
import { fabricDeviceIds, fabricTopology, programFromTopology, type FabricProgram } from './fabric-programs.js';
import { HostRelays } from './host-relays.js';
import { agentWire, fabricHosts, nextHopMac, wireArgs, type FabricHost } from './host-wire.js';
import { InProcessSwitches } from './in-process-switches.js';
import { ProcessSwitches } from './process-switches.js';
import type { RunningSwitch, SwitchLaunch, SwitchLauncher } from './switch-launch.js';
import { restartSwitch } from './switch-restart.js';
import { planWires, socketsNeeded, throughRelays } from './wire-plan.js';

export interface FabricSwitch {
  readonly name: string;
  /** "127.0.0.1:PORT" of its P4Runtime server. */
  readonly grpc: string;
  readonly deviceId: number;
  /** The process it runs in (this one's in process). */
  readonly pid: number;
  readonly program: FabricProgram;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;
const DEFAULT_RPC_TIMEOUT_MS = 30_000;

function defaultLogger(): Logger {
  // Info lines would land in the middle of a caller's table on stdout: warnings only unless LOG_LEVEL says otherwise.
  const logger = moduleLogger('fabric');
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  return logger;
}

function interrupted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new FabricError(FABRIC_ERROR_CODES.interrupted, `interrupted while ${what}`);
}

export class LoopbackFabric {
  private topologyValue: Topology;
  private programsBySwitch: Map<string, FabricProgram>;
  /** Switches whose pipeline a fabric run pushed and no handed-out controller has used since: their cells are clean. */
  private readonly fresh = new Set<string>();
  private readonly controllers: Installer[] = [];
  private closed: Promise<void> | undefined;
  private readonly onAbort = (): void => void this.close();
  /** Settles with the first switch that stops while the fabric is up (a process that died, not one restartSwitch killed); never otherwise. */
  readonly failed: Promise<FabricError>;
  private reportFailure!: (err: FabricError) => void;
  /** Switches as they were before restartSwitch killed them: their exits are no failure. */
  private readonly retired = new WeakSet<RunningSwitch>();

  private constructor(
    private readonly launcher: SwitchLauncher,
    private readonly running: Map<string, RunningSwitch>,
    private readonly launches: ReadonlyMap<string, SwitchLaunch>,
    private readonly hostWires: ReadonlyMap<string, FabricHost>,
    private readonly relays: HostRelays | undefined,
    private readonly programs: ProgramCache,
    private readonly options: FabricOptions,
    topology: Topology,
    programsBySwitch: Map<string, FabricProgram>,
  ) {
    this.topologyValue = topology;
    this.programsBySwitch = programsBySwitch;
    this.failed = new Promise((resolve) => (this.reportFailure = resolve));
    for (const r of running.values()) this.watch(r);
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /**
   * Starts every switch of `topology` and programs it. Throws FabricError,
   * ControllerError (an INA switch without an address) or InstallError (a
   * program that does not compile, a switch that cannot be programmed),
   * and RangeError or TypeError for an impairment out of range (before any
   * switch starts); whatever it started is stopped first.
   */
  static async start(topology: Topology, options: FabricOptions = {}): Promise<LoopbackFabric> {
    const signal = options.signal;
    interrupted(signal, 'starting the fabric');
    const choose = options.program ?? programFromTopology;
    const programsBySwitch = new Map([...topology.switches.values()].map((sw) => [sw.name, choose(sw)]));
    withInaSwitches(topology, [...programsBySwitch].filter(([, p]) => p.ina).map(([name]) => name));
    const programs = options.programs ?? new ProgramCache({ compiler: compilePipeline });
    // Compiled before anything starts: a program that does not compile leaves nothing to clean up.
    for (const [name, p] of programsBySwitch) programs.pipelineFor(p.program, name);
    const launcher: SwitchLauncher =
      options.mode === 'in-process'
        ? new InProcessSwitches()
        : new ProcessSwitches({ cliEntry: options.cliEntry ?? builtCliEntry(), startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS });
    const ports = await (options.udpPorts ?? freeUdpPorts)(socketsNeeded(topology));
    const planned = planWires(topology, ports);
    const relays = options.impairment === undefined ? undefined : await HostRelays.open(planned.hosts, options.impairment, ports);
    const wires = relays ? throughRelays(planned, relays.ends) : planned;
    const deviceIds = fabricDeviceIds(topology);
    const launches = new Map([...topology.switches.values()].map((sw) => [sw.name, { name: sw.name, deviceId: deviceIds.get(sw.name)!, ports: wires.switchPorts.get(sw.name)!, cpuPort: sw.cpuPort }]));
    try {
      const settled = await Promise.allSettled([...launches.values()].map((spec) => launcher.launch(spec, signal)));
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failure) throw failure.reason;
      interrupted(signal, 'the switches were starting');
      const running = new Map(settled.map((s) => (s as PromiseFulfilledResult<RunningSwitch>).value).map((r) => [r.name, r]));
      const programmed = fabricTopology(topology, addresses(running, launches), programsBySwitch);
      const fabric = new LoopbackFabric(launcher, running, launches, fabricHosts(programmed, wires.hosts), relays, programs, options, programmed, programsBySwitch);
      try {
        await fabric.programAll(programmed);
        interrupted(signal, 'the switches were being programmed');
      } catch (err) {
        await fabric.close();
        // An abort closes the fabric under the controller, whose error would hide why.
        interrupted(signal, 'the switches were being programmed');
        throw err;
      }
      return fabric;
    } catch (err) {
      await launcher.close();
      await relays?.close();
      throw err;
    }
  }

  /** The topology as the controller sees it now: each switch's P4Runtime address, program and `ina`. */
  get topology(): Topology {
    return this.topologyValue;
  }

  /** Every host's wire, in the topology's order. */
  get hosts(): ReadonlyMap<string, FabricHost> {
    return this.hostWires;
  }

  /** One host's wire; throws FabricError (FABRIC_UNKNOWN_NODE). */
  host(name: string): FabricHost {
    const host = this.hostWires.get(name);
    if (!host) throw new FabricError(FABRIC_ERROR_CODES.unknownNode, `the fabric has no host "${name}"; its hosts are ${[...this.hostWires.keys()].join(', ')}`);
    return host;
  }

  /** Every switch: where its P4Runtime server listens, its process and what it runs. */
  switches(): FabricSwitch[] {
    return [...this.running.values()].map((r) => ({ name: r.name, grpc: r.grpc, deviceId: this.launches.get(r.name)!.deviceId, pid: r.pid, program: this.programsBySwitch.get(r.name)! }));
  }

  /** The MAC `host`'s frames go to: its ToR's, or without one the MAC of `to` (a host or switch). */
  nextHopMac(host: string, to?: string): string {
    return nextHopMac(this.topologyValue, this.host(host), to);
  }

  /** The host's wire as the ATP agents take it (openAtpWire of src/agent/atp/wire-args.ts). */
  agentWire(host: string, to?: string): AtpWire {
    return agentWire(this.host(host), this.nextHopMac(host, to));
  }

  /** `--transport wire --wire-local … --peer … --mac … --gateway-mac …` for `p4ina agent atp-worker|atp-ps` on `host`. */
  wireArgs(host: string, to?: string): string[] {
    return wireArgs(this.agentWire(host, to));
  }

  /**
   * A controller run on the fabric as it is now (forwarding is in place), for
   * jobs; closed by the fabric at reprogram() and close() if not before.
   */
  async controller(options: Omit<InstallerOptions, 'programs'> = {}): Promise<Installer> {
    this.checkOpen('controller');
    const installer = await Installer.connect(this.topologyValue, this.installerOptions(options));
    // The pipelines the fabric pushed have had no job yet: their cells are clean, so the first job needs no reset.
    for (const sw of this.fresh) installer.markCellsClean(sw);
    this.fresh.clear();
    this.controllers.push(installer);
    return installer;
  }

  /** Switches one switch to another program (forward.p4 or an INA program); see reprogramAll. */
  reprogram(sw: string, program: FabricProgram): Promise<void> {
    return this.reprogramAll(new Map([[sw, program]]));
  }

  /**
   * Pushes the new programs and reinstalls those switches' forwarding (a
   * pushed pipeline starts empty); switches whose program is unchanged are
   * left as they are. Closes the controllers handed out so far first. Throws
   * FabricError (FABRIC_UNKNOWN_NODE), ControllerError (INA without an
   * address) or InstallError, before pushing anything when it can.
   */
  async reprogramAll(changes: ReadonlyMap<string, FabricProgram>): Promise<void> {
    this.checkOpen('reprogramAll');
    const programsBySwitch = new Map(this.programsBySwitch);
    for (const [name, program] of changes) {
      if (!this.running.has(name)) throw new FabricError(FABRIC_ERROR_CODES.unknownNode, `the fabric has no switch "${name}"; its switches are ${[...this.running.keys()].join(', ')}`);
      this.programs.pipelineFor(program.program, name);
      programsBySwitch.set(name, program);
    }
    const topology = fabricTopology(this.topologyValue, addresses(this.running, this.launches), programsBySwitch);
    await this.closeControllers();
    await this.programAll(topology);
    this.topologyValue = topology;
    this.programsBySwitch = programsBySwitch;
  }

  /**
   * Kills switch `name` and starts it again on the same wires and P4Runtime
   * port, empty (switch-restart.ts); nothing reprograms it. Controllers
   * handed out so far keep a broken session with it: close them and take a
   * new controller() to reprogram it (Installer.reconcile). Throws
   * FabricError (FABRIC_UNKNOWN_NODE; FABRIC_SWITCH_FAILED when it does not
   * start again, which `failed` then reports too).
   */
  async restartSwitch(name: string): Promise<FabricSwitch> {
    this.checkOpen('restartSwitch');
    const current = this.running.get(name);
    if (!current) throw new FabricError(FABRIC_ERROR_CODES.unknownNode, `the fabric has no switch "${name}"; its switches are ${[...this.running.keys()].join(', ')}`);
    this.retired.add(current);
    let again: RunningSwitch;
    try {
      again = await restartSwitch(this.launcher, current, this.launches.get(name)!, this.options.signal);
    } catch (err) {
      if (err instanceof FabricError && this.closed === undefined) this.reportFailure(err);
      throw err;
    }
    this.running.set(name, again);
    this.fresh.delete(name);
    this.watch(again);
    return this.switches().find((s) => s.name === name)!;
  }

  /**
   * The impairment of every host link from now on (the `impairment` option's
   * relays): every stream starts afresh from its seed and the counters from
   * zero, so a run after setImpairment(x) meets the same pattern as any other
   * run after setImpairment(x). Throws RangeError (a probability outside
   * 0..1) or TypeError (a seed neither an integer nor a string) and changes
   * nothing; throws Error on a fabric started without the option unless the
   * impairment changes no frame (then there is nothing to do).
   */
  setImpairment(impairment: FabricImpairment): void {
    this.checkOpen('setImpairment');
    if (this.relays) this.relays.set(impairment);
    else if (impairs(impairment)) throw new Error('LoopbackFabric.setImpairment: the fabric has no relays; start it with the impairment option (loss 0 will do) to impair it later');
  }

  /**
   * What each host link's relay did (by host; `up` from the agent to the ToR,
   * `down` back) since the impairment was last set; empty without relays.
   */
  linkCounters(): Map<string, HostLinkCounters> {
    return this.relays?.counters() ?? new Map();
  }

  /** Stops every controller, switch, relay and socket of the fabric; the same promise on every call. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      this.options.signal?.removeEventListener('abort', this.onAbort);
      await this.closeControllers();
      await this.launcher.close();
      await this.relays?.close();
    })();
    return this.closed;
  }

  /** One controller run: pipelines pushed where they differ, forwarding where it is missing; a switch that dies meanwhile is the error. */
  private async programAll(topology: Topology): Promise<void> {
    const work = (async () => {
      const installer = await Installer.connect(topology, this.installerOptions({}));
      try {
        await installer.installForwarding();
        for (const [name, session] of installer.sessions) if (session.counters.pipelinePushes > 0) this.fresh.add(name);
      } finally {
        await installer.close();
      }
    })();
    const died = this.failed.then((err) => Promise.reject(err));
    // A switch that dies after the work is done is not this run's error.
    died.catch(() => {});
    work.catch(() => {});
    await Promise.race([work, died]);
  }

  private watch(r: RunningSwitch): void {
    void r.failure.then((err) => {
      if (this.closed === undefined && !this.retired.has(r)) this.reportFailure(err);
    });
  }

  private installerOptions(options: Omit<InstallerOptions, 'programs'>): InstallerOptions {
    return { rpcTimeoutMs: this.options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS, logger: this.options.logger ?? defaultLogger(), ...options, programs: this.programs };
  }

  private async closeControllers(): Promise<void> {
    await Promise.allSettled(this.controllers.splice(0).map((c) => c.close()));
  }

  private checkOpen(what: string): void {
    if (this.closed !== undefined) throw new Error(`LoopbackFabric.${what}: the fabric is closed`);
  }
}

function addresses(running: ReadonlyMap<string, RunningSwitch>, launches: ReadonlyMap<string, SwitchLaunch>): Map<string, { grpc: string; deviceId: number }> {
  return new Map([...running].map(([name, r]) => [name, { grpc: r.grpc, deviceId: launches.get(name)!.deviceId }]));
}
