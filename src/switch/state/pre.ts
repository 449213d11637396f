/**
 * The packet replication engine (spec §9.5): multicast groups and clone
 * sessions, each a list of (port, instance) replicas that the traffic manager
 * reads by id. Ids must be > 0 (0 is the read wildcard); (port, instance)
 * pairs are unique within an entry; ports come as bytes (`port`) or as the
 * deprecated uint32 `egress_port`, and read back in the form they were
 * written. Backup replicas are not supported (UNIMPLEMENTED). These entries
 * do not depend on the P4Info.
 */
import type * as p4r from '../../proto/p4r.js';
import { alreadyExists, invalidArgument, notFound, unimplemented } from './entity-error.js';
import { Store } from './undo-log.js';
import { bytesToUint, checkBytes, uintToBytes, type UpdateType } from './validation.js';

/** v1model's egress_rid is 16 bits. */
const MAX_INSTANCE = 0xffff;

export interface ReplicaRecord {
  readonly port: number;
  readonly instance: number;
  /** How the client gave the port, to read it back the same way. */
  readonly portForm: 'port' | 'egress_port';
}

export interface MulticastGroup {
  readonly replicas: readonly ReplicaRecord[];
  readonly metadata: Buffer;
}

export interface CloneSession {
  readonly replicas: readonly ReplicaRecord[];
  readonly classOfService: number;
  /** 0 = no truncation. */
  readonly packetLengthBytes: number;
}

function checkReplicas(replicas: readonly p4r.Replica__Output[], what: string): ReplicaRecord[] {
  const seen = new Set<number>();
  return replicas.map((r) => {
    if (r.backup_replicas.length) throw unimplemented(`${what}: backup replicas are not supported by this switch`);
    let port: number;
    let portForm: ReplicaRecord['portForm'];
    if (r.port_kind === 'port') {
      port = bytesToUint(checkBytes(r.port!, 32, `${what} replica port`));
      portForm = 'port';
    } else if (r.port_kind === 'egress_port') {
      port = r.egress_port!;
      portForm = 'egress_port';
    } else {
      throw invalidArgument(`${what}: a replica has no port`);
    }
    if (r.instance > MAX_INSTANCE) throw invalidArgument(`${what}: replica instance ${r.instance} does not fit v1model's 16-bit egress_rid`);
    const pair = port * 0x10000 + r.instance;
    if (seen.has(pair)) throw invalidArgument(`${what}: replica (port ${port}, instance ${r.instance}) appears twice`);
    seen.add(pair);
    return { port, instance: r.instance, portForm };
  });
}

function replicaProto(r: ReplicaRecord): p4r.Replica {
  if (r.portForm === 'egress_port') return { egress_port: r.port, instance: r.instance };
  return { port: uintToBytes(r.port), instance: r.instance };
}

export class PreStore extends Store {
  /** Multicast groups by id, read by the traffic manager. */
  readonly multicastGroups = new Map<number, MulticastGroup>();
  /** Clone sessions by id. */
  readonly cloneSessions = new Map<number, CloneSession>();

  write(type: UpdateType, e: p4r.PacketReplicationEngineEntry__Output): void {
    if (e.type === 'multicast_group_entry') return this.writeGroup(type, e.multicast_group_entry!);
    if (e.type === 'clone_session_entry') return this.writeSession(type, e.clone_session_entry!);
    throw invalidArgument('a packet replication engine entry must hold a multicast_group_entry or a clone_session_entry');
  }

  private writeGroup(type: UpdateType, g: p4r.MulticastGroupEntry__Output): void {
    const id = g.multicast_group_id;
    if (id === 0) throw invalidArgument('multicast_group_id 0 is reserved for wildcard reads; use an id > 0');
    const what = `multicast group ${id}`;
    const exists = this.multicastGroups.has(id);
    if (type === 'INSERT' && exists) throw alreadyExists(`${what} already exists; use MODIFY to change it`);
    if (type !== 'INSERT' && !exists) throw notFound(`${what} does not exist`);
    const value = type === 'DELETE' ? undefined : { replicas: checkReplicas(g.replicas, what), metadata: Buffer.from(g.metadata) };
    this.put(this.multicastGroups, id, value);
  }

  private writeSession(type: UpdateType, s: p4r.CloneSessionEntry__Output): void {
    const id = s.session_id;
    if (id === 0) throw invalidArgument('clone session_id 0 is reserved for wildcard reads; use an id > 0');
    const what = `clone session ${id}`;
    const exists = this.cloneSessions.has(id);
    if (type === 'INSERT' && exists) throw alreadyExists(`${what} already exists; use MODIFY to change it`);
    if (type !== 'INSERT' && !exists) throw notFound(`${what} does not exist`);
    if (type === 'DELETE') return this.put(this.cloneSessions, id, undefined);
    if (s.packet_length_bytes < 0) throw invalidArgument(`${what}: packet_length_bytes ${s.packet_length_bytes} is negative (0 = no truncation)`);
    const replicas = checkReplicas(s.replicas, what);
    this.put(this.cloneSessions, id, { replicas, classOfService: s.class_of_service, packetLengthBytes: s.packet_length_bytes });
  }

  read(e: p4r.PacketReplicationEngineEntry__Output, out: p4r.Entity[]): void {
    // An entry with neither member set reads both kinds.
    if (e.type !== 'clone_session_entry') {
      const id = e.multicast_group_entry?.multicast_group_id ?? 0;
      for (const [gid, g] of this.multicastGroups) {
        if (id && gid !== id) continue;
        const entry = { multicast_group_id: gid, replicas: g.replicas.map(replicaProto), metadata: Buffer.from(g.metadata) };
        out.push({ packet_replication_engine_entry: { multicast_group_entry: entry } });
      }
    }
    if (e.type !== 'multicast_group_entry') {
      const id = e.clone_session_entry?.session_id ?? 0;
      for (const [sid, s] of this.cloneSessions) {
        if (id && sid !== id) continue;
        const entry = { session_id: sid, replicas: s.replicas.map(replicaProto), class_of_service: s.classOfService, packet_length_bytes: s.packetLengthBytes };
        out.push({ packet_replication_engine_entry: { clone_session_entry: entry } });
      }
    }
  }

  private put<V>(map: Map<number, V>, id: number, value: V | undefined): void {
    const old = map.get(id);
    if (value === undefined) map.delete(id);
    else map.set(id, value);
    this.touch();
    if (this.undo.active) {
      this.undo.record(() => {
        if (old === undefined) map.delete(id);
        else map.set(id, old);
        this.touch();
      });
    }
  }
}
