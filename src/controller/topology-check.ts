/**
 * The checks that need the whole file: links against the nodes they join
 * (ports used twice, the CPU port, host-to-host, self links, hosts with no
 * or several links, hosts under a switch that is not a ToR), addresses and
 * ids that must be unique, INA switches without addresses, and whether every
 * node can reach every other. Each problem names the JSON path where the
 * user fixes it and the other place involved.
 *
 * Hosts are single-homed on purpose: a worker has one address, one MAC and
 * one ToR, which is what racks, Rina's abstracted workers and the per-worker
 * switch entries are built on (and what the tutorials' topologies do).
 */
import { grpcCollisionKey, parseGrpcAddress } from './address-text.js';
import { ControllerErrorCode as C, type ControllerErrorCode, type ProblemLog } from './errors.js';
import { jsonPath } from './json-reader.js';
import { sortNames } from './names.js';
import { linkEndPath } from './topology-links.js';
import { isProgrammable, type TopologyHost, type TopologyLink, type TopologySwitch } from './topology.js';

export interface CheckInput {
  readonly hosts: ReadonlyMap<string, TopologyHost>;
  readonly switches: ReadonlyMap<string, TopologySwitch>;
  readonly links: readonly TopologyLink[];
  /** The file's `links` array, to tell the array form from the object form in paths. */
  readonly rawLinks: readonly unknown[];
  /** The file's `switches` object, to tell given values from defaults in messages. */
  readonly rawSwitches: Readonly<Record<string, unknown>>;
  readonly log: ProblemLog;
}

const HOSTS = '$.hosts';
const SWITCHES = '$.switches';
const LINKS = '$.links';

function endPath(input: CheckInput, link: TopologyLink, side: 0 | 1): string {
  return linkEndPath(LINKS, link, side, !Array.isArray(input.rawLinks[link.index]));
}

/** Links between nodes that were read without problems (others are already reported). */
function wholeLinks(input: CheckInput): TopologyLink[] {
  const known = (node: string): boolean => input.hosts.has(node) || input.switches.has(node);
  return input.links.filter((l) => known(l.a.node) && known(l.b.node));
}

/** Every string a link of the file names as an end, whether or not the link was valid. */
function mentionedEnds(rawLinks: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  for (const raw of rawLinks) {
    const ends = Array.isArray(raw) ? raw.slice(0, 2) : (raw as { nodes?: unknown } | null)?.nodes;
    if (Array.isArray(ends)) for (const e of ends) if (typeof e === 'string') names.add(e).add(e.replace(/-p\d+$/, ''));
  }
  return names;
}

export function checkLinks(input: CheckInput): void {
  const { log } = input;
  const portOwner = new Map<string, TopologyLink>();
  const hostLink = new Map<string, TopologyLink>();
  // Links to nodes whose definition is broken still count here, so one mistake is reported once.
  for (const link of input.links) {
    const linkPath = jsonPath(LINKS, link.index);
    if (link.a.kind === 'host' && link.b.kind === 'host') {
      log.add(C.TOPOLOGY_HOST_TO_HOST, linkPath, `hosts "${link.a.node}" and "${link.b.node}" are linked directly; connect each host to a switch port instead`);
      continue;
    }
    if (link.a.node === link.b.node) {
      log.add(C.TOPOLOGY_SELF_LINK, linkPath, `switch "${link.a.node}" is linked to itself (ports ${link.a.port} and ${link.b.port}); remove the link`);
      continue;
    }
    ([0, 1] as const).forEach((side) => {
      const end = side === 0 ? link.a : link.b;
      const path = endPath(input, link, side);
      if (end.kind === 'switch') {
        const sw = input.switches.get(end.node);
        if (sw?.cpuPort === end.port) {
          log.add(C.TOPOLOGY_PORT_IS_CPU_PORT, path, `port ${end.port} is "${end.node}"'s cpu_port, which carries PacketIn/PacketOut to the controller; link another port`);
        }
        const key = `${end.node}:${end.port}`;
        const earlier = portOwner.get(key);
        if (earlier) {
          log.add(C.TOPOLOGY_PORT_IN_USE, path, `port ${end.port} of "${end.node}" is already used by ${jsonPath(LINKS, earlier.index)}; a port takes one link, pick a free one`);
        } else {
          portOwner.set(key, link);
        }
      } else {
        const earlier = hostLink.get(end.node);
        if (earlier) {
          log.add(
            C.TOPOLOGY_HOST_MULTI_HOMED,
            path,
            `host "${end.node}" is already linked by ${jsonPath(LINKS, earlier.index)}; hosts are single-homed (one address, one ToR): remove one link or add another host`,
          );
        } else {
          hostLink.set(end.node, link);
        }
        const peer = side === 0 ? link.b : link.a;
        const sw = input.switches.get(peer.node);
        if (sw && sw.role !== 'tor') {
          log.add(
            C.TOPOLOGY_HOST_UNDER_NON_TOR,
            path,
            `host "${end.node}" is linked to "${sw.name}", whose role is "${sw.role}"; hosts attach to ToRs: link the host to a ToR or drop "role" from "${sw.name}"`,
          );
        }
      }
    });
  }
  const mentioned = mentionedEnds(input.rawLinks);
  for (const name of input.hosts.keys()) {
    if (!hostLink.has(name) && !mentioned.has(name)) {
      log.add(C.TOPOLOGY_HOST_UNLINKED, jsonPath(HOSTS, name), `host "${name}" has no link; add one to a ToR port, e.g. ["${name}", "s1-p1"]`);
    }
  }
}

interface Claim {
  readonly owner: string;
  readonly path: string;
}

function claimUnique(claims: Map<string, Claim>, key: string, claim: Claim, log: ProblemLog, code: ControllerErrorCode, what: string): void {
  const earlier = claims.get(key);
  if (earlier) log.add(code, claim.path, `${what} is also used by "${earlier.owner}" (${earlier.path}); each must be unique`);
  else claims.set(key, claim);
}

export function checkUniqueness(input: CheckInput): void {
  const { log } = input;
  const ips = new Map<string, Claim>();
  const macs = new Map<string, Claim>();
  for (const h of input.hosts.values()) {
    const at = jsonPath(HOSTS, h.name);
    claimUnique(ips, String(h.ip), { owner: h.name, path: jsonPath(at, 'ip') }, log, C.TOPOLOGY_DUPLICATE_IP, `IPv4 address ${h.ipText}`);
    claimUnique(macs, String(h.mac), { owner: h.name, path: jsonPath(at, 'mac') }, log, C.TOPOLOGY_DUPLICATE_MAC, `MAC ${h.macText}`);
  }
  const deviceIds = new Map<string, Claim>();
  const grpc = new Map<string, Claim>();
  const racks = new Map<string, Claim>();
  for (const sw of input.switches.values()) {
    const at = jsonPath(SWITCHES, sw.name);
    if (sw.ip !== undefined) claimUnique(ips, String(sw.ip), { owner: sw.name, path: jsonPath(at, 'ip') }, log, C.TOPOLOGY_DUPLICATE_IP, `IPv4 address ${sw.ipText}`);
    if (sw.mac !== undefined) claimUnique(macs, String(sw.mac), { owner: sw.name, path: jsonPath(at, 'mac') }, log, C.TOPOLOGY_DUPLICATE_MAC, `MAC ${sw.macText}`);
    if (sw.rack !== undefined) claimUnique(racks, sw.rack, { owner: sw.name, path: jsonPath(at, 'rack') }, log, C.TOPOLOGY_DUPLICATE_NAME, `rack name "${sw.rack}"`);
    if (!isProgrammable(sw)) continue;
    // Defaults come from the switch's position (the tutorials' numbering) and can collide with values given elsewhere.
    const given = (key: string): boolean => (input.rawSwitches[sw.name] as Record<string, unknown>)[key] !== undefined;
    const label = (key: string, value: string): string => (given(key) ? `${key} ${value}` : `the default ${key} ${value} (from the switch's position; set "${key}")`);
    const where = (key: string): Claim => ({ owner: sw.name, path: given(key) ? jsonPath(at, key) : at });
    claimUnique(deviceIds, String(sw.deviceId), where('device_id'), log, C.TOPOLOGY_DUPLICATE_DEVICE_ID, label('device_id', String(sw.deviceId)));
    const address = parseGrpcAddress(sw.grpc!);
    if (address.ok) claimUnique(grpc, grpcCollisionKey(address.value), where('grpc'), log, C.TOPOLOGY_DUPLICATE_GRPC_ADDRESS, label('grpc', sw.grpc!));
  }
}

export function checkInaAddresses(input: CheckInput): void {
  for (const sw of input.switches.values()) {
    if (!sw.ina || (sw.ip !== undefined && sw.mac !== undefined)) continue;
    const missing = [sw.ip === undefined ? '"ip"' : '', sw.mac === undefined ? '"mac"' : ''].filter(Boolean).join(' and ');
    input.log.add(
      C.TOPOLOGY_INA_WITHOUT_ADDRESS,
      jsonPath(SWITCHES, sw.name),
      `switch "${sw.name}" has "ina": true but no ${missing}: workers address INA packets to the switch and results come from it; add ${missing}`,
    );
  }
}

/** Every node must reach every other, or paths and forwarding entries cannot be computed. */
export function checkConnected(input: CheckInput): void {
  const nodes = [...input.hosts.keys(), ...input.switches.keys()];
  if (nodes.length < 2) return;
  const adjacent = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const l of wholeLinks(input)) {
    adjacent.get(l.a.node)?.push(l.b.node);
    adjacent.get(l.b.node)?.push(l.a.node);
  }
  const seen = new Set([nodes[0]!]);
  const queue = [nodes[0]!];
  for (let i = 0; i < queue.length; i++) {
    for (const next of adjacent.get(queue[i]!)!) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const unreachable = sortNames(nodes.filter((n) => !seen.has(n)));
  if (unreachable.length > 0) {
    const shown = unreachable.slice(0, 8).map((n) => `"${n}"`).join(', ') + (unreachable.length > 8 ? `, … (${unreachable.length} in all)` : '');
    input.log.add(C.TOPOLOGY_DISCONNECTED, LINKS, `${shown} cannot be reached from "${nodes[0]}"; add links so that every node is connected`);
  }
}
