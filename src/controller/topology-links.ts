/**
 * Reading the `links` array of a topology file. Two forms are accepted:
 *
 *   tutorials:  ["h1", "s1-p1", latency?, bandwidth?]
 *               latency in ms (number) or Mininet text ("0ms", "100us");
 *               bandwidth in Mbit/s (number or null)
 *   p4ina:      { "nodes": ["s1-p3", "s2-p1"], "delay_ms": 0.5, "bandwidth_mbps": 1000 }
 *
 * A link end is a host's name (its single interface) or `<switch>-p<port>`.
 * Names are checked against every name the file declares, even where the
 * node's own definition is broken (that is reported where it is defined),
 * so one mistake is not reported again at every link.
 */
import { parseDelayMs } from './address-text.js';
import { ControllerErrorCode as C, type ProblemLog } from './errors.js';
import { describeJson, jsonPath, ObjectReader } from './json-reader.js';
import { MAX_PORT, TOPOLOGY_CODES } from './topology-nodes.js';
import type { LinkEnd, TopologyLink } from './topology.js';

const LINK_FIELDS = ['nodes', 'delay_ms', 'bandwidth_mbps'] as const;
const MAX_BANDWIDTH_MBPS = 1_000_000;

/** The names each section of the file declares, whether or not their definitions were valid. */
export interface DeclaredNames {
  readonly hosts: ReadonlySet<string>;
  readonly switches: ReadonlySet<string>;
}

const SWITCH_PORT = /^(.+)-p(\d+)$/;

/** Reads one link end; undefined when it is bad (reported). */
function readEnd(value: unknown, path: string, names: DeclaredNames, log: ProblemLog): LinkEnd | undefined {
  if (typeof value !== 'string') {
    log.add(C.TOPOLOGY_WRONG_TYPE, path, `a link end must be a string such as "h1" or "s1-p2", not ${describeJson(value)}`);
    return undefined;
  }
  if (names.hosts.has(value)) return { node: value, kind: 'host', port: 0 };
  const m = SWITCH_PORT.exec(value);
  if (!m) {
    const hint = names.switches.has(value)
      ? `a switch end needs its port: write "${value}-p<port>", e.g. "${value}-p1"`
      : `no host or switch is called "${value}"; define it under "hosts" or "switches", or fix the name`;
    log.add(names.switches.has(value) ? C.TOPOLOGY_BAD_ENDPOINT : C.TOPOLOGY_UNKNOWN_NODE, path, hint);
    return undefined;
  }
  const [, node, portText] = m;
  if (names.hosts.has(node!)) {
    log.add(C.TOPOLOGY_BAD_ENDPOINT, path, `host "${node}" has a single interface and no ports; write "${node}"`);
    return undefined;
  }
  if (!names.switches.has(node!)) {
    log.add(C.TOPOLOGY_UNKNOWN_NODE, path, `no switch is called "${node}"; define it under "switches" or fix the name`);
    return undefined;
  }
  const port = Number(portText);
  if (port > MAX_PORT) {
    log.add(C.TOPOLOGY_BAD_VALUE, path, `port ${port} of "${node}" is out of range; switch ports are 0 to ${MAX_PORT} (511 is the drop port)`);
    return undefined;
  }
  return { node: node!, kind: 'switch', port };
}

function readDelay(value: unknown, path: string, log: ProblemLog): number | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') {
    log.add(C.TOPOLOGY_WRONG_TYPE, path, `a delay must be a number of ms or text such as "2ms", not ${describeJson(value)}`);
    return undefined;
  }
  const parsed = parseDelayMs(value);
  if (!parsed.ok) log.add(C.TOPOLOGY_BAD_VALUE, path, parsed.why);
  return parsed.ok ? parsed.value : undefined;
}

function readBandwidth(value: unknown, path: string, log: ProblemLog): number | undefined | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    log.add(C.TOPOLOGY_WRONG_TYPE, path, `a bandwidth must be a number of Mbit/s, not ${describeJson(value)}`);
    return undefined;
  }
  if (value <= 0 || value > MAX_BANDWIDTH_MBPS) {
    log.add(C.TOPOLOGY_BAD_VALUE, path, `a bandwidth must be more than 0 and at most ${MAX_BANDWIDTH_MBPS} Mbit/s, not ${value}`);
    return undefined;
  }
  return value;
}

interface RawLink {
  readonly ends: readonly [unknown, unknown];
  readonly endPaths: readonly [string, string];
  readonly delay: unknown;
  readonly delayPath: string;
  readonly bandwidth: unknown;
  readonly bandwidthPath: string;
}

function rawLink(value: unknown, path: string, log: ProblemLog): RawLink | undefined {
  if (Array.isArray(value)) {
    if (value.length < 2 || value.length > 4) {
      log.add(C.TOPOLOGY_BAD_VALUE, path, `a link array is [end, end, latency?, bandwidth?]; this one has ${value.length} items`);
      return undefined;
    }
    return {
      ends: [value[0], value[1]],
      endPaths: [jsonPath(path, 0), jsonPath(path, 1)],
      delay: value[2],
      delayPath: jsonPath(path, 2),
      bandwidth: value[3],
      bandwidthPath: jsonPath(path, 3),
    };
  }
  const r = ObjectReader.of(value, path, log, TOPOLOGY_CODES, 'a link');
  if (!r) return undefined;
  r.rejectUnknown(LINK_FIELDS, 'a link');
  if (!r.require('nodes', 'give the two ends, e.g. "nodes": ["h1", "s1-p1"]')) return undefined;
  const nodes = r.array('nodes');
  if (nodes === undefined) return undefined;
  if (nodes.length !== 2) {
    log.add(C.TOPOLOGY_BAD_VALUE, r.at('nodes'), `"nodes" must list exactly two ends, not ${nodes.length}`);
    return undefined;
  }
  const nodesPath = r.at('nodes');
  return {
    ends: [nodes[0], nodes[1]],
    endPaths: [jsonPath(nodesPath, 0), jsonPath(nodesPath, 1)],
    delay: r.value['delay_ms'],
    delayPath: r.at('delay_ms'),
    bandwidth: r.value['bandwidth_mbps'],
    bandwidthPath: r.at('bandwidth_mbps'),
  };
}

/** Reads every link; the result holds only the links that are whole. */
export function readLinks(values: readonly unknown[], path: string, names: DeclaredNames, log: ProblemLog): TopologyLink[] {
  const links: TopologyLink[] = [];
  values.forEach((value, index) => {
    const at = jsonPath(path, index);
    const raw = rawLink(value, at, log);
    if (!raw) return;
    const a = readEnd(raw.ends[0], raw.endPaths[0], names, log);
    const b = readEnd(raw.ends[1], raw.endPaths[1], names, log);
    const delayMs = raw.delay === undefined ? 0 : readDelay(raw.delay, raw.delayPath, log);
    const bandwidth = readBandwidth(raw.bandwidth, raw.bandwidthPath, log);
    if (!a || !b || delayMs === undefined || bandwidth === undefined) return;
    links.push({ index, a, b, delayMs, bandwidthMbps: bandwidth ?? undefined });
  });
  return links;
}

/** The JSON path of end `side` (0 or 1) of a link. */
export function linkEndPath(linksPath: string, link: TopologyLink, side: 0 | 1, objectForm: boolean): string {
  const at = jsonPath(linksPath, link.index);
  return objectForm ? jsonPath(jsonPath(at, 'nodes'), side) : jsonPath(at, side);
}
