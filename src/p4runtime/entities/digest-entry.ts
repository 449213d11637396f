/**
 * Digest configuration: INSERT enables a digest with a config, MODIFY changes
 * it, DELETE disables it. `digestEntry('learn', { maxTimeoutNs: 1_000_000, maxListSize: 1, ackTimeoutNs: 1e9 })`.
 */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { bigintOf, int64 } from './values.js';

export interface DigestConfigInput {
  /** How long the switch may hold a list before sending it; 0 sends every digest at once. */
  readonly maxTimeoutNs?: number | bigint;
  /** Digests per list; 0 = no limit. */
  readonly maxListSize?: number;
  /** How long the switch suppresses duplicates while waiting for an ack. */
  readonly ackTimeoutNs?: number | bigint;
}
export interface DigestConfig {
  readonly maxTimeoutNs: bigint;
  readonly maxListSize: number;
  readonly ackTimeoutNs: bigint;
}

export class DigestEntry implements P4Entity {
  readonly kind = 'digest_entry';

  constructor(
    /** Digest name; undefined means every digest (reads only). */
    readonly digest: string | undefined,
    readonly config?: DigestConfigInput,
  ) {}

  describe(): string {
    return `digest ${this.digest ?? '*'}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    if (isWrite(intent) && this.digest === undefined) throw entityError(EntityErrorCode.WILDCARD_WRITE, 'a digest write needs the digest name');
    if (intent === 'insert' && !this.config) throw entityError(EntityErrorCode.MISSING_VALUE, `${this.describe()}: INSERT needs a config`);
    const c = this.config;
    return {
      digest_entry: {
        digest_id: this.digest === undefined ? 0 : schema.digests.get(this.digest).id,
        config: c
          ? { max_timeout_ns: int64(c.maxTimeoutNs, 'maxTimeoutNs'), max_list_size: c.maxListSize ?? 0, ack_timeout_ns: int64(c.ackTimeoutNs, 'ackTimeoutNs') }
          : null,
      },
    };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): DigestEntry {
    const e = msg.digest_entry;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no digest_entry');
    const config = e.config
      ? { maxTimeoutNs: bigintOf(e.config.max_timeout_ns), maxListSize: e.config.max_list_size, ackTimeoutNs: bigintOf(e.config.ack_timeout_ns) }
      : undefined;
    return new DigestEntry(e.digest_id ? schema.digests.get(e.digest_id).name : undefined, config);
  }
}

/** A digest's configuration entry; `'*'` for every digest (reads). */
export function digestEntry(name: string, config?: DigestConfigInput): DigestEntry {
  return new DigestEntry(name === '*' ? undefined : name, config);
}
