/**
 * Replicas of the packet replication engine: one copy per (port, instance),
 * `instance` becoming `egress_rid` in v1model. Ports are sent as the `port`
 * bytestring of P4Runtime 1.4 (canonical, at most 32 bits); the deprecated
 * `egress_port` integer is read but never sent.
 */
import type * as p4r from '../../proto/p4r.js';
import { encodeValue, type ValueInput } from '../../p4info/index.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { PORT_BITS } from './table-action.js';
import { bytesToP4Number, type P4Number } from './values.js';

export interface BackupReplicaInput {
  readonly port: ValueInput;
  readonly instance?: number;
}
export interface ReplicaInput extends BackupReplicaInput {
  /** Ports to use, in order, when `port` is down (servers may answer UNIMPLEMENTED). */
  readonly backups?: readonly BackupReplicaInput[];
}
export interface Replica {
  readonly port: P4Number;
  readonly instance: number;
  readonly backups?: readonly { readonly port: P4Number; readonly instance: number }[];
}

function checkInstance(instance: number): number {
  if (!Number.isInteger(instance) || instance < 0 || instance > 0xffffffff) {
    throw entityError(EntityErrorCode.BAD_ID, `replica instance ${instance} is not a 32-bit unsigned integer`);
  }
  return instance;
}

export function encodeReplicas(replicas: readonly ReplicaInput[], owner: string, checkUnique: boolean): p4r.Replica[] {
  const seen = new Set<string>();
  return replicas.map((r) => {
    const port = encodeValue(r.port, PORT_BITS);
    const instance = checkInstance(r.instance ?? 0);
    const key = `${port.toString('hex')}/${instance}`;
    if (checkUnique && seen.has(key)) {
      throw entityError(EntityErrorCode.DUPLICATE_REPLICA, `${owner}: replica (port ${String(r.port)}, instance ${instance}) appears twice`);
    }
    seen.add(key);
    const out: p4r.Replica = { port, instance };
    if (r.backups?.length) out.backup_replicas = r.backups.map((b) => ({ port: encodeValue(b.port, PORT_BITS), instance: checkInstance(b.instance ?? 0) }));
    return out;
  });
}

export function decodeReplicas(replicas: readonly p4r.Replica__Output[]): Replica[] {
  return replicas.map((r) => {
    const port = r.port_kind === 'egress_port' ? (r.egress_port ?? 0) : bytesToP4Number(r.port ?? Buffer.alloc(1), PORT_BITS);
    if (!r.backup_replicas.length) return { port, instance: r.instance };
    return { port, instance: r.instance, backups: r.backup_replicas.map((b) => ({ port: bytesToP4Number(b.port, PORT_BITS), instance: b.instance })) };
  });
}
