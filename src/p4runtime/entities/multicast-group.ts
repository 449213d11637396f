/** Multicast groups: `multicastGroup(1, [{ port: 1 }, { port: 2, instance: 1 }])`; group 0 reads every group. */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { checkEntityId } from './entity-id.js';
import { decodeReplicas, encodeReplicas, type ReplicaInput } from './replica.js';

export class MulticastGroupEntry implements P4Entity {
  readonly kind = 'multicast_group_entry';

  constructor(
    readonly groupId: number,
    readonly replicas: readonly ReplicaInput[] = [],
    /** Opaque controller metadata (P4Runtime 1.4). */
    readonly metadata?: Uint8Array,
  ) {}

  describe(): string {
    return `multicast group ${this.groupId || '*'}`;
  }

  encode(_schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    const id = checkEntityId(this.groupId, 'multicast group id', isWrite(intent));
    const entry: p4r.MulticastGroupEntry = { multicast_group_id: id, replicas: encodeReplicas(this.replicas, this.describe(), isWrite(intent)) };
    if (this.metadata?.length) entry.metadata = Buffer.from(this.metadata);
    return { packet_replication_engine_entry: { multicast_group_entry: entry } };
  }

  static decode(msg: p4r.Entity__Output): MulticastGroupEntry {
    const e = msg.packet_replication_engine_entry?.multicast_group_entry;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no multicast_group_entry');
    return new MulticastGroupEntry(e.multicast_group_id, decodeReplicas(e.replicas), e.metadata.length ? e.metadata : undefined);
  }
}

/** A multicast group and its replicas; leave the id out (0) to read every group. */
export function multicastGroup(groupId = 0, replicas: readonly ReplicaInput[] = [], options: { metadata?: Uint8Array } = {}): MulticastGroupEntry {
  return new MulticastGroupEntry(groupId, replicas, options.metadata);
}
