/**
 * The loopback fabric: any topology (a file, or a `--topo` shorthand named
 * as in the Mininet testbed) as emulated switches joined by UDP wires on
 * 127.0.0.1 and programmed by the real controller, with no root. See
 * docs/topology.md, "The loopback fabric".
 */
export { FABRIC_ERROR_CODES, FabricError, type FabricErrorCode } from './fabric-error.js';
export { parseTopoShorthand, formatTopoShorthand, MAX_TOPO_COUNT, type TopoShorthand } from './topo-shorthand.js';
export { shorthandDocument, shorthandTopology, type ShorthandOptions } from './shorthand-topology.js';
export { forwardSource, legacyProgram, inaProgram, programFromTopology, type FabricProgram } from './fabric-programs.js';
export { wireArgs, type FabricHost } from './host-wire.js';
export type { FabricImpairment, HostLinkCounters, LinkCounters, LinkDirection } from './fabric-impairment.js';
export type { FabricOptions } from './fabric-options.js';
export { LoopbackFabric, type FabricSwitch } from './loopback-fabric.js';
