/**
 * The fabric's switches as `p4ina switch --no-p4` processes of the built
 * CLI, in a ChildGroup (src/demo/child-group.ts): stopped by close() with
 * SIGTERM then SIGKILL, SIGKILLed by an exit hook if the owner exits without
 * closing, and each on a lifeline that ends it when the owner dies without
 * any hook running (kill -9, or a signal the owner does not handle).
 */
import { formatPortRate } from '../switch/queues/port-rate.js';
import { startAnnouncedChild } from '../demo/announced-child.js';
import { ChildGroup, waitExit, type TrackedChild } from '../demo/child-group.js';
import { DEMO_ERROR_CODES, DemoError } from '../demo/demo-error.js';
import { describeExit } from '../demo/switch-process.js';
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import { portRates, type RunningSwitch, type SwitchLaunch, type SwitchLauncher } from './switch-launch.js';
import { interfaceSpec, LOOPBACK } from './wire-plan.js';

/** `p4ina switch`'s first stdout line names its P4Runtime server. */
const LISTENING = /listening on (127\.0\.0\.1:\d{1,5})\b/;
/** How long a SIGKILLed switch may take to be reaped. */
const KILL_WAIT_MS = 5000;

export interface ProcessSwitchOptions {
  /** The built `p4ina` entry (dist/src/cli/main.js). */
  readonly cliEntry: string;
  /** How long a switch may take to say where it listens. */
  readonly startTimeoutMs: number;
}

/** `p4ina switch` arguments for one switch of the fabric. */
export function switchArgs(spec: SwitchLaunch): string[] {
  const rates = portRates(spec.ports).flatMap((q) => ['--port-rate', `${formatPortRate(q.rate === 'unlimited' ? undefined : q.rate)}@${q.port}`]);
  const cpu = spec.cpuPort === undefined ? [] : ['--cpu-port', String(spec.cpuPort)];
  return ['switch', '--device-id', String(spec.deviceId), ...spec.ports.flatMap((p) => ['-i', interfaceSpec(p)]), ...rates, '--no-p4', '--', '--grpc-server-addr', `${LOOPBACK}:${spec.grpcPort ?? 0}`, ...cpu];
}

export class ProcessSwitches implements SwitchLauncher {
  private readonly group = new ChildGroup();
  /** The latest process of each switch. */
  private readonly byName = new Map<string, TrackedChild>();
  private closing = false;

  constructor(private readonly options: ProcessSwitchOptions) {}

  async launch(spec: SwitchLaunch, signal: AbortSignal | undefined): Promise<RunningSwitch> {
    let started: { child: TrackedChild; address: string };
    try {
      started = await startAnnouncedChild(this.group, {
        name: spec.name,
        command: process.execPath,
        args: [this.options.cliEntry, ...switchArgs(spec)],
        announcement: LISTENING,
        startTimeoutMs: this.options.startTimeoutMs,
        signal,
        what: `switch ${spec.name}`,
        failed: (message) => new DemoError(DEMO_ERROR_CODES.switchStart, message),
      });
    } catch (err) {
      if (!(err instanceof DemoError)) throw err;
      const code = err.code === DEMO_ERROR_CODES.interrupted ? FABRIC_ERROR_CODES.interrupted : FABRIC_ERROR_CODES.switchFailed;
      throw new FabricError(code, err.message, { cause: err });
    }
    const { child, address } = started;
    this.byName.set(spec.name, child);
    const failure = child.exited.then((exit) => {
      const stderr = exit.signal || this.closing ? '' : child.stderr().trim().split('\n').slice(-5).join('\n');
      return new FabricError(FABRIC_ERROR_CODES.switchExited, `switch ${spec.name} (pid ${child.pid}) exited with ${describeExit(exit)}${stderr ? `\n${stderr}` : ''}`);
    });
    return { name: spec.name, grpc: address, pid: child.pid, failure };
  }

  async kill(name: string): Promise<void> {
    const child = this.byName.get(name);
    if (!child) throw new Error(`ProcessSwitches.kill: no switch ${name} was started`);
    if (child.exit()) return;
    child.process.kill('SIGKILL');
    if (!(await waitExit(child, KILL_WAIT_MS))) throw new FabricError(FABRIC_ERROR_CODES.switchFailed, `switch ${name} (pid ${child.pid}) did not exit within ${KILL_WAIT_MS / 1000} s of SIGKILL`);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.group.close();
  }
}
