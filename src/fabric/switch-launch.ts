/**
 * Starting the fabric's switches, two ways behind one interface: as
 * `p4ina switch` processes (process-switches.ts), or inside this process
 * with launchSwitch (in-process-switches.ts), which is what `p4ina switch`
 * runs, for tests that need speed. Either way a switch starts with no
 * program (the controller pushes one), its ports the UDP wires of the plan,
 * and its P4Runtime server on 127.0.0.1 at a port it chooses.
 */
import type { QueueSetting } from '../switch/queues/queue-setting.js';
import type { FabricError } from './fabric-error.js';
import type { SwitchPortWire } from './wire-plan.js';

export interface SwitchLaunch {
  readonly name: string;
  readonly deviceId: number;
  readonly ports: readonly SwitchPortWire[];
  readonly cpuPort: number | undefined;
  /** Its P4Runtime server's port on 127.0.0.1 (undefined: one the switch chooses); a restart asks for the port it had. */
  readonly grpcPort?: number;
}

export interface RunningSwitch {
  readonly name: string;
  /** "127.0.0.1:PORT" of its P4Runtime server. */
  readonly grpc: string;
  /** The process it runs in (this one's for an in-process switch). */
  readonly pid: number;
  /** Settles with the reason if the switch stops while the fabric still needs it; never for an in-process switch. */
  readonly failure: Promise<FabricError>;
}

export interface SwitchLauncher {
  /** Starts one switch; rejects with FabricError (FABRIC_SWITCH_FAILED, FABRIC_INTERRUPTED). */
  launch(spec: SwitchLaunch, signal: AbortSignal | undefined): Promise<RunningSwitch>;
  /** Stops one switch it started as a crash would (a process is SIGKILLed), with everything it held; bounded. */
  kill(name: string): Promise<void>;
  /** Stops every switch it started (also those whose start failed); bounded. */
  close(): Promise<void>;
}

/** Each port whose link has a bandwidth gets that egress rate (Mininet shapes the same links). */
export function portRates(ports: readonly SwitchPortWire[]): QueueSetting[] {
  return ports.filter((p) => p.bandwidthMbps !== undefined).map((p) => ({ port: p.port, rate: { unit: 'bps', value: p.bandwidthMbps! * 1e6 } }));
}
