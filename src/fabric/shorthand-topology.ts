/**
 * The network a `--topo` shorthand names, as a topology document
 * (docs/topology.md) and a Topology: the names, ports and host addresses of
 * mininet/p4ina_mininet/topologies.py (plan_single, plan_leafspine,
 * topology_json), so that a name means the same node, and a port the same
 * cable, in Mininet and on loopback.
 *
 *   hosts   PREFIXh1, PREFIXh2, … numbered across racks; host i of rack r is
 *           10.0.r.i/8 with MAC 08:00:00:00:rr:ii, on its ToR's port i
 *   ToRs    PREFIXs1 (single) or PREFIXt1 … PREFIXtR; ToR port H+k goes to spine k
 *   spines  PREFIXs1 … PREFIXsS; spine port r goes to rack r's ToR
 *   PSes    PREFIXps1 … (ATP parameter servers): on a single switch the
 *           ports after the hosts; on a leaf-spine a rack of their own
 *           (R+1) under a legacy ToR, linked to every spine like the others
 *
 * One difference, because frames on a wire are addressed without ARP: every
 * switch has its own address, legacy or not — the one Mininet gives it when
 * it is INA (ToR r: 10.0.r.254, 02:00:00:00:rr:fe; spine k: 10.0.0.(200+k),
 * 02:00:00:00:00:kk). So each host's gateway is its ToR, and a rollout can
 * make any ToR INA-capable without changing the topology (withInaSwitches).
 */
import { parseTopology, type Topology } from '../controller/index.js';
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import { forwardSource } from './fabric-programs.js';
import { formatTopoShorthand, MAX_TOPO_COUNT, type TopoShorthand } from './topo-shorthand.js';

export interface ShorthandOptions {
  /** Prefix of every node name (Mininet's --prefix; default p4i, as there). */
  readonly prefix?: string;
  /** Racks (1…R) whose ToR is INA-capable, or 'all' (the default, as Mininet's --ina-tors). */
  readonly inaRacks?: readonly number[] | 'all';
  /** Spines: 'p4' legacy (forward.p4, the default) or 'ina' (Mininet's --spine). */
  readonly spine?: 'p4' | 'ina';
  /** ATP parameter-server hosts (default 0). */
  readonly psHosts?: number;
  /** What INA-capable switches run (a P4 source); without it they get no program and the fabric must be told one. */
  readonly inaProgram?: string;
  /** Every link's bandwidth in Mbit/s (Mininet's --bw); on loopback the switches' egress rates. */
  readonly bandwidthMbps?: number;
}

interface PlannedHost {
  readonly name: string;
  readonly rack: number;
  readonly index: number;
}

interface PlannedSwitch {
  readonly name: string;
  readonly role: 'tor' | 'spine';
  readonly ina: boolean;
  readonly ip: string;
  readonly mac: string;
}

type LinkEnds = readonly [string, string];

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');

function tor(name: string, rack: number, ina: boolean): PlannedSwitch {
  return { name, role: 'tor', ina, ip: `10.0.${rack}.254`, mac: `02:00:00:00:${hex2(rack)}:fe` };
}

function spine(name: string, k: number, ina: boolean): PlannedSwitch {
  return { name, role: 'spine', ina, ip: `10.0.0.${200 + k}`, mac: `02:00:00:00:00:${hex2(k)}` };
}

function checkOptions(topo: TopoShorthand, options: ShorthandOptions): void {
  const racks = topo.kind === 'single' ? 1 : topo.racks;
  const stray = options.inaRacks === undefined || options.inaRacks === 'all' ? undefined : options.inaRacks.find((r) => !Number.isInteger(r) || r < 1 || r > racks);
  if (stray !== undefined) throw new FabricError(FABRIC_ERROR_CODES.badTopo, `INA racks: ${stray} is not a rack of ${formatTopoShorthand(topo)}; give racks from 1 to ${racks}`);
  const ps = options.psHosts ?? 0;
  if (!Number.isInteger(ps) || ps < 0 || ps > MAX_TOPO_COUNT) throw new FabricError(FABRIC_ERROR_CODES.badTopo, `parameter-server hosts: ${ps} is not a whole number from 0 to ${MAX_TOPO_COUNT}`);
}

/** The topology document of the shorthand (plain JSON, as a topology file holds it). Throws FabricError (FABRIC_BAD_TOPO) for options out of range. */
export function shorthandDocument(topo: TopoShorthand, options: ShorthandOptions = {}): Record<string, unknown> {
  checkOptions(topo, options);
  const prefix = options.prefix ?? 'p4i';
  const ps = options.psHosts ?? 0;
  const inaRack = (rack: number): boolean => options.inaRacks === undefined || options.inaRacks === 'all' || options.inaRacks.includes(rack);
  const hosts: PlannedHost[] = [];
  const switches: PlannedSwitch[] = [];
  const links: LinkEnds[] = [];
  const psHosts = (rack: number, firstIndex: number): PlannedHost[] => Array.from({ length: ps }, (_, j) => ({ name: `${prefix}ps${j + 1}`, rack, index: firstIndex + j }));
  if (topo.kind === 'single') {
    const sw = tor(`${prefix}s1`, 1, inaRack(1));
    switches.push(sw);
    for (let i = 1; i <= topo.hosts; i++) hosts.push({ name: `${prefix}h${i}`, rack: 1, index: i });
    hosts.push(...psHosts(1, topo.hosts + 1));
    for (const h of hosts) links.push([h.name, `${sw.name}-p${h.index}`]);
  } else {
    for (let rack = 1; rack <= topo.racks; rack++) {
      const t = tor(`${prefix}t${rack}`, rack, inaRack(rack));
      switches.push(t);
      for (let index = 1; index <= topo.hosts; index++) {
        const h = { name: `${prefix}h${(rack - 1) * topo.hosts + index}`, rack, index };
        hosts.push(h);
        links.push([h.name, `${t.name}-p${index}`]);
      }
    }
    // Each ToR's first uplink port comes after its hosts.
    const uplinks = Array.from({ length: topo.racks }, (_, r) => ({ rack: r + 1, first: topo.hosts }));
    if (ps > 0) {
      const rack = topo.racks + 1;
      const t = tor(`${prefix}t${rack}`, rack, false);
      switches.push(t);
      const servers = psHosts(rack, 1);
      hosts.push(...servers);
      for (const h of servers) links.push([h.name, `${t.name}-p${h.index}`]);
      uplinks.push({ rack, first: ps });
    }
    for (let k = 1; k <= topo.spines; k++) {
      const s = spine(`${prefix}s${k}`, k, options.spine === 'ina');
      switches.push(s);
      for (const { rack, first } of uplinks) links.push([`${prefix}t${rack}-p${first + k}`, `${s.name}-p${rack}`]);
    }
  }
  const programOf = (sw: PlannedSwitch): Record<string, unknown> => {
    if (!sw.ina) return { program: { p4: forwardSource() } };
    return options.inaProgram === undefined ? {} : { program: { p4: options.inaProgram } };
  };
  return {
    description: `p4ina loopback fabric: ${formatTopoShorthand(topo)}`,
    hosts: Object.fromEntries(hosts.map((h) => [h.name, { ip: `10.0.${h.rack}.${h.index}/8`, mac: `08:00:00:00:${hex2(h.rack)}:${hex2(h.index)}` }])),
    switches: Object.fromEntries(switches.map((s) => [s.name, { target: 'emulator', role: s.role, ina: s.ina, ip: s.ip, mac: s.mac, ...programOf(s) }])),
    links: links.map((nodes) => ({ nodes: [...nodes], ...(options.bandwidthMbps === undefined ? {} : { bandwidth_mbps: options.bandwidthMbps }) })),
  };
}

/** The shorthand's network as a validated Topology. Throws ControllerError for options that make no sense (e.g. a bad prefix). */
export function shorthandTopology(topo: TopoShorthand, options: ShorthandOptions = {}): Topology {
  return parseTopology(shorthandDocument(topo, options));
}
