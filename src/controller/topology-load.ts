/**
 * Topology files in, a validated Topology out: `parseTopology(json)` for a
 * value already parsed, `parseTopologyText(text)` and `loadTopology(path)`
 * for files. Every problem in the file is reported at once, as one
 * ControllerError whose `problems` name each JSON path.
 */
import { readFile } from 'node:fs/promises';
import { ControllerError, ControllerErrorCode as C, ProblemLog } from './errors.js';
import { jsonPath, ObjectReader } from './json-reader.js';
import { checkConnected, checkInaAddresses, checkLinks, checkUniqueness } from './topology-check.js';
import { readLinks } from './topology-links.js';
import { readHost, readSwitch, TOPOLOGY_CODES, type SwitchDraft } from './topology-nodes.js';
import type { Topology, TopologyHost, TopologyLink, TopologySwitch } from './topology.js';

const TOP_FIELDS = ['hosts', 'switches', 'links', 'description'] as const;

export interface ParseOptions {
  /** Named in messages and kept as `sourcePath`. */
  readonly sourcePath?: string;
}

/** Validates a topology (the JSON value of a topology file). Throws ControllerError listing every problem. */
export function parseTopology(json: unknown, options: ParseOptions = {}): Topology {
  const log = new ProblemLog();
  const top = ObjectReader.of(json, '$', log, TOPOLOGY_CODES, 'a topology');
  if (!top) return fail(log, options);
  top.rejectUnknown(TOP_FIELDS, 'a topology');
  const description = top.string('description');
  const hostsObject = top.require('hosts', 'add "hosts": { "h1": { "ip": "10.0.1.1/24", "mac": "08:00:00:00:01:11" } }') ? top.object('hosts', '"hosts"') : undefined;
  const switchesObject = top.require('switches', 'add "switches": { "s1": {} }') ? top.object('switches', '"switches"') : undefined;
  const rawLinks = top.require('links', 'add "links": [["h1", "s1-p1"]]') ? top.array('links') : undefined;

  const hostNames = new Set(Object.keys(hostsObject?.value ?? {}));
  const switchNames = new Set(Object.keys(switchesObject?.value ?? {}));
  for (const name of switchNames) {
    if (hostNames.has(name)) {
      log.add(C.TOPOLOGY_DUPLICATE_NAME, jsonPath('$.switches', name), `"${name}" is both a host and a switch; rename one of them`);
    }
  }

  const hosts = new Map<string, TopologyHost>();
  for (const [name, value] of Object.entries(hostsObject?.value ?? {})) {
    const host = readHost(name, value, jsonPath('$.hosts', name), log);
    if (host) hosts.set(name, host);
  }
  const drafts = new Map<string, SwitchDraft>();
  let programmable = 0;
  for (const [name, value] of Object.entries(switchesObject?.value ?? {})) {
    const draft = readSwitch(name, value, jsonPath('$.switches', name), programmable, log);
    if (draft) drafts.set(name, draft);
    if (!isBridgeValue(value)) programmable++;
  }
  const links = readLinks(rawLinks ?? [], '$.links', { hosts: hostNames, switches: switchNames }, log);
  const switches = settleRoles(drafts, links, log);

  const input = { hosts, switches, links, rawLinks: rawLinks ?? [], rawSwitches: switchesObject?.value ?? {}, log };
  if (rawLinks) checkLinks(input);
  checkUniqueness(input);
  checkInaAddresses(input);
  if (log.empty) checkConnected(input);
  if (!log.empty) return fail(log, options);
  return { description, sourcePath: options.sourcePath, hosts, switches, links };
}

function fail(log: ProblemLog, options: ParseOptions): never {
  log.throwIfAny(options.sourcePath);
  throw new Error('unreachable: fail() without problems');
}

/** Bridges take no device id or gRPC port, so the tutorials' numbering skips them. */
function isBridgeValue(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)['target'] === 'linux-bridge';
}

/** A switch without "role" is a ToR when a host links to it and a spine otherwise. */
function settleRoles(drafts: ReadonlyMap<string, SwitchDraft>, links: readonly TopologyLink[], log: ProblemLog): Map<string, TopologySwitch> {
  const withHosts = new Set<string>();
  for (const l of links) {
    if (l.a.kind === 'host' && l.b.kind === 'switch') withHosts.add(l.b.node);
    if (l.b.kind === 'host' && l.a.kind === 'switch') withHosts.add(l.a.node);
  }
  const switches = new Map<string, TopologySwitch>();
  for (const [name, draft] of drafts) {
    const { givenRole, givenRack, ...rest } = draft;
    const role = givenRole ?? (withHosts.has(name) ? 'tor' : 'spine');
    if (givenRack !== undefined && role !== 'tor') {
      log.add(C.TOPOLOGY_BAD_VALUE, jsonPath(jsonPath('$.switches', name), 'rack'), `only a ToR names a rack, and "${name}" is a ${role}; remove "rack" or make it a ToR`);
    }
    switches.set(name, { ...rest, role, roleGiven: givenRole !== undefined, rack: role === 'tor' ? (givenRack ?? name) : undefined });
  }
  return switches;
}

/** Parses the text of a topology file. */
export function parseTopologyText(text: string, options: ParseOptions = {}): Topology {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const where = options.sourcePath ? `${options.sourcePath}: ` : '';
    throw new ControllerError([{ code: C.TOPOLOGY_BAD_JSON, path: '$', message: `${where}not JSON (${(error as Error).message}); check commas, quotes and brackets` }], { cause: error });
  }
  return parseTopology(json, options);
}

/** Reads and validates a topology file. */
export async function loadTopology(path: string): Promise<Topology> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ControllerError([{ code: C.TOPOLOGY_FILE_UNREADABLE, path: '$', message: `cannot read topology file ${path}: ${(error as Error).message}` }], { cause: error });
  }
  return parseTopologyText(text, { sourcePath: path });
}
