/**
 * A job spec placed on a topology: each worker (and the parameter server)
 * matched to its topology host, by name or by address, with its ToR, the
 * ToR port and the rack. Addresses and MACs the spec gives must agree with
 * the topology; the topology's fill in what the spec leaves out.
 */
import { ipv4ToText, macToText } from '../wire/index.js';
import { ControllerErrorCode as C, ProblemLog } from './errors.js';
import { jsonPath } from './json-reader.js';
import type { JobSpec } from './job.js';
import { hostAttachment, racks } from './topology-views.js';
import type { Topology, TopologyHost } from './topology.js';

export interface PlacedHost {
  readonly host: string;
  readonly ip: number;
  readonly mac: number;
  readonly udpPort: number;
  readonly tor: string;
  /** The ToR's port towards the host. */
  readonly torPort: number;
  readonly rack: string;
}

export interface PlacedWorker extends PlacedHost {
  readonly rank: number;
}

/** An OmniReduce aggregator shard on its host, with the slots it owns. */
export interface PlacedShard extends PlacedHost {
  readonly firstSlot: number;
  readonly slotCount: number;
}

export interface PlacedJob {
  readonly job: JobSpec;
  readonly topology: Topology;
  /** By rank. */
  readonly workers: readonly PlacedWorker[];
  readonly parameterServer: PlacedHost | undefined;
  /** OmniReduce's host aggregators in slot order; empty for other algorithms. */
  readonly shards: readonly PlacedShard[];
}

interface Wanted {
  readonly host: string | undefined;
  readonly ip: number | undefined;
  readonly mac?: number | undefined;
  readonly udpPort: number;
}

function findHost(topology: Topology, wanted: Wanted, path: string, log: ProblemLog): TopologyHost | undefined {
  let host: TopologyHost | undefined;
  if (wanted.host !== undefined) {
    host = topology.hosts.get(wanted.host);
    if (!host) {
      log.add(C.JOB_UNKNOWN_HOST, jsonPath(path, 'host'), `the topology has no host "${wanted.host}"; use one of its hosts or fix the name`);
      return undefined;
    }
  } else {
    host = [...topology.hosts.values()].find((h) => h.ip === wanted.ip);
    if (!host) {
      log.add(C.JOB_UNKNOWN_HOST, jsonPath(path, 'ip'), `no topology host has address ${ipv4ToText(wanted.ip!)}; name the host with "host" or fix the address`);
      return undefined;
    }
  }
  let good = true;
  if (wanted.ip !== undefined && wanted.ip !== host.ip) {
    log.add(C.JOB_HOST_MISMATCH, jsonPath(path, 'ip'), `host "${host.name}" has address ${ipv4ToText(host.ip)} in the topology, not ${ipv4ToText(wanted.ip)}; make them agree`);
    good = false;
  }
  if (wanted.mac !== undefined && wanted.mac !== host.mac) {
    log.add(C.JOB_HOST_MISMATCH, jsonPath(path, 'mac'), `host "${host.name}" has MAC ${macToText(host.mac)} in the topology, not ${macToText(wanted.mac)}; make them agree`);
    good = false;
  }
  return good ? host : undefined;
}

function place(topology: Topology, host: TopologyHost, udpPort: number, rackOf: ReadonlyMap<string, string>): PlacedHost {
  const at = hostAttachment(topology, host.name);
  return { host: host.name, ip: host.ip, mac: host.mac, udpPort, tor: at.switch, torPort: at.port, rack: rackOf.get(at.switch)! };
}

/** Matches a job's workers and parameter server to topology hosts. Throws ControllerError listing every mismatch. */
export function placeJob(topology: Topology, job: JobSpec): PlacedJob {
  const log = new ProblemLog();
  const rackOf = new Map(racks(topology).map((r) => [r.tor, r.name]));
  const workers: PlacedWorker[] = [];
  for (const w of job.workers) {
    const host = findHost(topology, w, jsonPath('$.workers', w.index), log);
    if (host) workers.push({ rank: w.rank, ...place(topology, host, w.udpPort, rackOf) });
  }
  let parameterServer: PlacedHost | undefined;
  if (job.parameterServer) {
    const host = findHost(topology, job.parameterServer, '$.parameter_server', log);
    if (host) parameterServer = place(topology, host, job.parameterServer.udpPort, rackOf);
  }
  const shards: PlacedShard[] = [];
  job.omnireduce?.shards.forEach((shard, index) => {
    // The one-shard short form is the parameter server; a list names its own entries.
    const path = job.parameterServer ? '$.parameter_server' : jsonPath('$.omnireduce.shards', index);
    const host = findHost(topology, shard, path, log);
    if (host) shards.push({ ...place(topology, host, shard.udpPort, rackOf), firstSlot: shard.firstSlot, slotCount: shard.slotCount });
  });
  log.throwIfAny();
  return { job, topology, workers, parameterServer, shards };
}
