/**
 * The fabric's switches inside this process: launchSwitch, the SwitchDevice
 * and P4Runtime server that `p4ina switch` runs, on the same UDP wires.
 * Faster to start than processes, and what tests use; they share this
 * process's CPU with everything else in it.
 */
import { P4inaError } from '../errors/p4ina-error.js';
import { launchSwitch, type LaunchedSwitch } from '../switch/device/switch-launcher.js';
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import { portRates, type RunningSwitch, type SwitchLaunch, type SwitchLauncher } from './switch-launch.js';
import { interfaceSpec, LOOPBACK } from './wire-plan.js';

export class InProcessSwitches implements SwitchLauncher {
  private readonly launched: LaunchedSwitch[] = [];
  /** The latest incarnation of each switch. */
  private readonly byName = new Map<string, LaunchedSwitch>();

  async launch(spec: SwitchLaunch, signal: AbortSignal | undefined): Promise<RunningSwitch> {
    if (signal?.aborted) throw new FabricError(FABRIC_ERROR_CODES.interrupted, `interrupted before switch ${spec.name} started`);
    let launched: LaunchedSwitch;
    try {
      launched = await launchSwitch({
        deviceId: spec.deviceId,
        ports: spec.ports.map(interfaceSpec),
        cpuPort: spec.cpuPort,
        server: { address: `${LOOPBACK}:${spec.grpcPort ?? 0}` },
        queues: portRates(spec.ports),
      });
    } catch (err) {
      if (!P4inaError.is(err)) throw err;
      throw new FabricError(FABRIC_ERROR_CODES.switchFailed, `switch ${spec.name} did not start: ${err.message}`, { cause: err });
    }
    this.launched.push(launched);
    this.byName.set(spec.name, launched);
    return { name: spec.name, grpc: `${LOOPBACK}:${launched.grpcPort}`, pid: process.pid, failure: new Promise<never>(() => {}) };
  }

  /** In this process there is nothing to kill: the switch stops, its sockets, server and state gone as with a crash. */
  async kill(name: string): Promise<void> {
    const launched = this.byName.get(name);
    if (!launched) throw new Error(`InProcessSwitches.kill: no switch ${name} was started`);
    this.byName.delete(name);
    this.launched.splice(this.launched.indexOf(launched), 1);
    await launched.stop();
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.launched.splice(0).map((l) => l.stop()));
  }
}
