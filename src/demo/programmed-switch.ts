/**
 * One emulated switch for one algorithm: its program compiled into a temp
 * dir, a UDP wire per host (through a loss relay with --loss), `p4ina switch`
 * started on them, and the controller's part: connect over P4Runtime,
 * install forwarding, then what the algorithm needs (`install`), and let go.
 * The temp dir is removed as soon as the switch is programmed: nothing reads
 * it after that, so a demo killed from then on leaves none behind.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseTopology } from '../controller/index.js';
import { Installer } from '../controller/install/index.js';
import { moduleLogger } from '../log/logger.js';
import { compileDemoProgram } from './compile-program.js';
import { demoTopology, switchInterfaceArgs, type NetworkHost, type WirePorts } from './demo-network.js';
import { interrupted, type DemoRunContext } from './demo-run-context.js';
import { freeUdpPorts } from './free-ports.js';
import { LossyRelay } from './lossy-relay.js';
import { startSwitchProcess, switchExitError, type SwitchProcess } from './switch-process.js';
import { makeDemoTempDir } from './temp-dir.js';

const SWITCH_START_TIMEOUT_MS = 30_000;
const CONTROLLER_RPC_TIMEOUT_MS = 30_000;

export interface ProgrammedSwitch<T> {
  readonly process: SwitchProcess;
  /** By host, in the order given. */
  readonly wires: readonly WirePorts[];
  /** What `install` returned. */
  readonly installed: T;
}

export interface SwitchRequest<T> {
  /** The P4 source, e.g. p4/switchml.p4. */
  readonly source: string;
  /** Preprocessor defines, NAME=VALUE (e.g. OmniReduce's block size). */
  readonly defines?: readonly string[];
  /** Host i on switch port hosts[i].switchPort. */
  readonly hosts: readonly NetworkHost[];
  /** The algorithm's part of the controller's work, after forwarding. */
  readonly install: (installer: Installer) => Promise<T>;
}

/** Starts and programs the switch; on failure, the switch (if started) is left to the caller's group to stop. */
export async function startProgrammedSwitch<T>(ctx: DemoRunContext, request: SwitchRequest<T>): Promise<ProgrammedSwitch<T>> {
  const signal = ctx.hooks.signal;
  const tmp = makeDemoTempDir();
  try {
    ctx.progress.update(`compiling p4/${path.basename(request.source)}`);
    const program = compileDemoProgram(request.source, tmp, request.defines);
    interrupted(signal);
    const wires = await planWires(request.hosts, ctx);
    ctx.progress.update(`starting the switch (${request.hosts.length} UDP-wire ports)`);
    const flags = ctx.options.udpIo !== undefined ? ['--udp-io', ctx.options.udpIo] : [];
    const sw = await startSwitchProcess(ctx.group, ctx.cliEntry, { interfaces: switchInterfaceArgs(request.hosts, wires), config: program.config, startTimeoutMs: SWITCH_START_TIMEOUT_MS, signal, flags });
    interrupted(signal);
    ctx.progress.update(`programming the switch at ${sw.grpcAddress} over P4Runtime`);
    let installed: T;
    try {
      installed = await programSwitch(request, sw.grpcAddress, program);
    } catch (err) {
      throw switchExitError(sw.child, 'while the controller programmed it') ?? err;
    }
    interrupted(signal);
    return { process: sw, wires, installed };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Ports of every wire; with loss, a relay in the middle of each (pushed to ctx.relays for cleanup). */
async function planWires(hosts: readonly NetworkHost[], ctx: DemoRunContext): Promise<WirePorts[]> {
  const { loss, seed } = ctx.options;
  const ports = await freeUdpPorts(2 * hosts.length);
  const wires: WirePorts[] = [];
  for (const [i, host] of hosts.entries()) {
    const switchSocket = ports[2 * i]!;
    const agentSocket = ports[2 * i + 1]!;
    if (loss > 0) {
      const relay = await LossyRelay.open(host.name, agentSocket, switchSocket, loss, seed);
      ctx.relays.push(relay);
      wires.push({ switchSocket, agentSocket, switchPeer: relay.switchFacingPort, agentPeer: relay.agentFacingPort });
    } else {
      wires.push({ switchSocket, agentSocket, switchPeer: agentSocket, agentPeer: switchSocket });
    }
  }
  return wires;
}

/** The controller's part: connect, push the pipeline if needed, forwarding, the algorithm's job; then let go. */
async function programSwitch<T>(request: SwitchRequest<T>, grpcAddress: string, program: { config: string; p4info: string }): Promise<T> {
  const topology = parseTopology(demoTopology(request.hosts, grpcAddress, program));
  // The controller's info lines would land in the middle of the table on stdout: warnings only, unless LOG_LEVEL says otherwise.
  const logger = moduleLogger('demo.controller');
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  const installer = await Installer.connect(topology, { rpcTimeoutMs: CONTROLLER_RPC_TIMEOUT_MS, logger });
  try {
    await installer.installForwarding();
    return await request.install(installer);
  } finally {
    await installer.close();
  }
}
