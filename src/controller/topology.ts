/**
 * The topology model: hosts, switches and the links between them, as the
 * controller, the rollout planner and the testbeds see them once a topology
 * file has been read and validated (`parseTopology`, `loadTopology`). The file
 * format is a superset of the p4lang tutorials' `topology.json`; see
 * docs/topology.md. Everything here is plain, immutable data: derived views
 * (attachments, racks, paths, the forwarding plan) are functions over it.
 *
 * Addresses are numbers, as in src/wire: an IPv4 address below 2^32, a MAC
 * below 2^48. Their text form is kept beside them for messages and files.
 */

/** Where a switch runs: our emulator, BMv2's simple_switch_grpc, a Tofino, or a plain Linux bridge (no P4Runtime). */
export type SwitchTarget = 'emulator' | 'bmv2' | 'tofino' | 'linux-bridge';
export const SWITCH_TARGETS: readonly SwitchTarget[] = ['emulator', 'bmv2', 'tofino', 'linux-bridge'];

/** A switch's tier: top of rack (hosts attach here), spine, or core. */
export type SwitchRole = 'tor' | 'spine' | 'core';
export const SWITCH_ROLES: readonly SwitchRole[] = ['tor', 'spine', 'core'];

/** The gRPC port of the first switch, as the tutorials' P4RuntimeSwitch counts (then +1 per switch). */
export const FIRST_DEFAULT_GRPC_PORT = 50051;

/** What the switch runs: a P4 source to compile, or artefacts compiled already. */
export interface SwitchProgram {
  /** A P4-16 source file. */
  readonly p4?: string;
  /** A P4Info file (text, JSON or binary). */
  readonly p4info?: string;
  /** The device config: BMv2 JSON, p4ina IR JSON, or the Tofino binary. */
  readonly config?: string;
}

export interface TopologyHost {
  readonly kind: 'host';
  readonly name: string;
  readonly ip: number;
  readonly ipText: string;
  /** From "10.0.1.1/24"; undefined when the file gave a bare address. */
  readonly prefixLength: number | undefined;
  readonly mac: number;
  readonly macText: string;
  /** Shell commands the testbed runs on the host after start (tutorials' `commands`). */
  readonly commands: readonly string[];
}

export interface TopologySwitch {
  readonly kind: 'switch';
  readonly name: string;
  readonly target: SwitchTarget;
  readonly role: SwitchRole;
  /** True when `role` came from the file; false when inferred (a switch with hosts is a ToR, others spines). */
  readonly roleGiven: boolean;
  /** The rack's name, for ToRs (defaults to the ToR's name). */
  readonly rack: string | undefined;
  /** The switch can aggregate (runs an INA program and has the resources). */
  readonly ina: boolean;
  /** The P4Runtime device id; undefined for a Linux bridge. */
  readonly deviceId: number | undefined;
  /** The address the controller dials, "host:port"; undefined for a Linux bridge. */
  readonly grpc: string | undefined;
  readonly cpuPort: number | undefined;
  readonly program: SwitchProgram | undefined;
  /** The switch's own addresses: the source of the results it sends, the target of INA packets. */
  readonly ip: number | undefined;
  readonly ipText: string | undefined;
  readonly mac: number | undefined;
  readonly macText: string | undefined;
  /** Tutorials' fields, kept as written for tools that use them. */
  readonly runtimeJson: string | undefined;
  readonly cliInput: string | undefined;
  readonly priorityQueues: number | undefined;
}

/** One end of a link. A host's end has port 0 (its only interface, eth0). */
export interface LinkEnd {
  readonly node: string;
  readonly kind: 'host' | 'switch';
  readonly port: number;
}

export interface TopologyLink {
  /** Position in the file's `links` array. */
  readonly index: number;
  readonly a: LinkEnd;
  readonly b: LinkEnd;
  /** One-way delay in ms (0 when not given). */
  readonly delayMs: number;
  /** Mbit/s, or undefined for an unshaped link. */
  readonly bandwidthMbps: number | undefined;
}

export interface Topology {
  readonly description: string | undefined;
  /** The file it came from, when it came from a file (relative paths inside are kept as written). */
  readonly sourcePath: string | undefined;
  /** By name, in the file's order. */
  readonly hosts: ReadonlyMap<string, TopologyHost>;
  readonly switches: ReadonlyMap<string, TopologySwitch>;
  readonly links: readonly TopologyLink[];
}

/** True for switches the controller programs over P4Runtime. */
export function isProgrammable(sw: TopologySwitch): boolean {
  return sw.target !== 'linux-bridge';
}

/** The other end of a link, seen from `node`. */
export function otherEnd(link: TopologyLink, node: string): LinkEnd {
  return link.a.node === node ? link.b : link.a;
}

/** This node's end of a link. */
export function ownEnd(link: TopologyLink, node: string): LinkEnd {
  return link.a.node === node ? link.a : link.b;
}
