/**
 * The stages of an incremental INA rollout, for tests and benchmarks that
 * run the same job at each: a topology with no INA-capable ToR, then one,
 * two, … all of them, in natural order of their names. Other switches keep
 * what the file says. A switch made INA-capable must have its own address
 * (the topology check requires it), so a rollout topology gives every ToR
 * an "ip" and a "mac" and leaves "ina" to this module.
 */
import { ControllerError, ControllerErrorCode as C } from './errors.js';
import { jsonPath } from './json-reader.js';
import { sortNames } from './names.js';
import type { Topology, TopologySwitch } from './topology.js';

export interface RolloutStage {
  /** ToRs that are INA-capable at this stage. */
  readonly inaTors: readonly string[];
  readonly topology: Topology;
}

/** A copy of `topology` in which exactly the given switches are INA-capable. */
export function withInaSwitches(topology: Topology, inaSwitches: Iterable<string>): Topology {
  const wanted = new Set(inaSwitches);
  for (const name of wanted) {
    const sw = topology.switches.get(name);
    const path = jsonPath('$.switches', name);
    if (!sw) throw ControllerError.of(C.TOPOLOGY_NO_SUCH_NODE, '$.switches', `the topology has no switch "${name}"`);
    if (sw.ip === undefined || sw.mac === undefined) {
      throw ControllerError.of(C.TOPOLOGY_INA_WITHOUT_ADDRESS, path, `switch "${name}" cannot be made INA-capable without its own "ip" and "mac"; add them to the topology`);
    }
    if (sw.target === 'linux-bridge') throw ControllerError.of(C.TOPOLOGY_BAD_VALUE, path, `switch "${name}" is a Linux bridge and cannot aggregate`);
  }
  const switches = new Map<string, TopologySwitch>();
  for (const [name, sw] of topology.switches) switches.set(name, { ...sw, ina: wanted.has(name) });
  return { ...topology, switches };
}

/** Stage k has the first k ToRs (by name) INA-capable, k = 0..number of ToRs; non-ToR switches are left as they are. */
export function rolloutStages(topology: Topology): RolloutStage[] {
  const tors = sortNames([...topology.switches.values()].filter((sw) => sw.role === 'tor').map((sw) => sw.name));
  const others = [...topology.switches.values()].filter((sw) => sw.role !== 'tor' && sw.ina).map((sw) => sw.name);
  return tors
    .map((_, k) => tors.slice(0, k))
    .concat([tors])
    .map((inaTors) => ({ inaTors, topology: withInaSwitches(topology, [...others, ...inaTors]) }));
}
