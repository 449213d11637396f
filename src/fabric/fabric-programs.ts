/**
 * What each switch of the fabric runs, and the topology the controller sees
 * once the switches are up: every switch p4ina's emulator at the P4Runtime
 * address it announced, with the program and INA capability the caller
 * chose. A rollout stage switches a ToR between legacy and INA by giving it
 * forward.p4 (`legacyProgram`) or an INA program (`inaProgram`).
 */
import path from 'node:path';
import { isProgrammable, withInaSwitches, type SwitchProgram, type Topology, type TopologySwitch } from '../controller/index.js';
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import { packageRoot } from '../run/package-paths.js';

export interface FabricProgram {
  /** A P4 source (`{ p4 }`) or compiled artefacts (`{ p4info, config }`). */
  readonly program: SwitchProgram;
  /** Whether the switch aggregates with it (the topology's `ina`); it then needs its own ip and mac. */
  readonly ina: boolean;
}

/** The P4 program p4ina's legacy switches run. */
export function forwardSource(): string {
  return path.join(packageRoot(), 'p4', 'forward.p4');
}

/** forward.p4: a legacy switch. */
export function legacyProgram(): FabricProgram {
  return { program: { p4: forwardSource() }, ina: false };
}

/** An INA program (p4/atp.p4, p4/switchml.p4, …): the switch can aggregate. */
export function inaProgram(source: string): FabricProgram {
  return { program: { p4: source }, ina: true };
}

/**
 * What a switch runs when the caller does not say: the topology's program
 * and `ina`; forward.p4 for a switch with no program (a Linux bridge among
 * them: loopback has no kernel bridges, and a legacy switch does the same).
 */
export function programFromTopology(sw: TopologySwitch): FabricProgram {
  if (isProgrammable(sw) && sw.program !== undefined) return { program: sw.program, ina: sw.ina };
  if (isProgrammable(sw) && sw.ina) {
    throw new FabricError(FABRIC_ERROR_CODES.noProgram, `switch ${sw.name} is INA-capable but has no program: give it one in the topology ("program": { "p4": "p4/atp.p4" }) or in the fabric's options`);
  }
  return legacyProgram();
}

/** Each switch's device id: the topology's, and for a Linux bridge (which has none) the next free one. */
export function fabricDeviceIds(topology: Topology): Map<string, number> {
  const ids = new Map<string, number>();
  let next = Math.max(-1, ...[...topology.switches.values()].map((sw) => sw.deviceId ?? -1)) + 1;
  for (const sw of topology.switches.values()) ids.set(sw.name, sw.deviceId ?? next++);
  return ids;
}

export interface RunningSwitchAddress {
  readonly grpc: string;
  readonly deviceId: number;
}

/**
 * The topology with every switch running on the fabric: target emulator, its
 * P4Runtime address and device id, its program and INA capability. Throws
 * ControllerError (TOPOLOGY_INA_WITHOUT_ADDRESS) for an INA switch without ip
 * and mac.
 */
export function fabricTopology(topology: Topology, running: ReadonlyMap<string, RunningSwitchAddress>, programs: ReadonlyMap<string, FabricProgram>): Topology {
  const switches = new Map<string, TopologySwitch>();
  for (const [name, sw] of topology.switches) {
    const at = running.get(name);
    const program = programs.get(name);
    if (!at || !program) throw new Error(`fabricTopology: switch ${name} is not running or has no program`);
    switches.set(name, { ...sw, target: 'emulator', grpc: at.grpc, deviceId: at.deviceId, program: program.program, ina: false });
  }
  const ina = [...programs].filter(([, p]) => p.ina).map(([name]) => name);
  return withInaSwitches({ ...topology, switches }, ina);
}
