/** Clone sessions: `cloneSession(5, [{ port: 3 }], { packetLengthBytes: 64 })`; session 0 reads every session. */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { checkEntityId } from './entity-id.js';
import { decodeReplicas, encodeReplicas, type ReplicaInput } from './replica.js';

export interface CloneSessionOptions {
  readonly classOfService?: number;
  /** Truncate clones to this many bytes; 0 keeps whole packets. */
  readonly packetLengthBytes?: number;
}

export class CloneSessionEntry implements P4Entity {
  readonly kind = 'clone_session_entry';
  readonly classOfService: number;
  readonly packetLengthBytes: number;

  constructor(
    readonly sessionId: number,
    readonly replicas: readonly ReplicaInput[] = [],
    options: CloneSessionOptions = {},
  ) {
    this.classOfService = options.classOfService ?? 0;
    this.packetLengthBytes = options.packetLengthBytes ?? 0;
  }

  describe(): string {
    return `clone session ${this.sessionId || '*'}`;
  }

  encode(_schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    const id = checkEntityId(this.sessionId, 'clone session id', isWrite(intent));
    if (!Number.isInteger(this.packetLengthBytes) || this.packetLengthBytes < 0 || this.packetLengthBytes > 0x7fffffff) {
      throw entityError(EntityErrorCode.BAD_ID, `${this.describe()}: packetLengthBytes ${this.packetLengthBytes} must be an integer >= 0`);
    }
    return {
      packet_replication_engine_entry: {
        clone_session_entry: {
          session_id: id,
          replicas: encodeReplicas(this.replicas, this.describe(), isWrite(intent)),
          class_of_service: this.classOfService,
          packet_length_bytes: this.packetLengthBytes,
        },
      },
    };
  }

  static decode(msg: p4r.Entity__Output): CloneSessionEntry {
    const e = msg.packet_replication_engine_entry?.clone_session_entry;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no clone_session_entry');
    return new CloneSessionEntry(e.session_id, decodeReplicas(e.replicas), { classOfService: e.class_of_service, packetLengthBytes: e.packet_length_bytes });
  }
}

/** A clone session and its replicas; leave the id out (0) to read every session. */
export function cloneSession(sessionId = 0, replicas: readonly ReplicaInput[] = [], options: CloneSessionOptions = {}): CloneSessionEntry {
  return new CloneSessionEntry(sessionId, replicas, options);
}
