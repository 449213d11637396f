/**
 * Digest configuration (spec §9.8): INSERT enables a digest with its config,
 * MODIFY changes the config of an enabled digest, DELETE disables it. The
 * stream side reads `config(id)` to batch and de-duplicate digest lists.
 */
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { alreadyExists, invalidArgument, notFound } from './entity-error.js';
import { Store, type UndoLog } from './undo-log.js';
import { describe, type UpdateType } from './validation.js';

export interface DigestConfig {
  /** Longest a digest message may wait in the buffer; 0 = send at once. */
  readonly maxTimeoutNs: bigint;
  /** Most messages per DigestList; 0 = no limit. */
  readonly maxListSize: number;
  /** How long sent data stays in the de-duplication cache without an ack; 0 = no cache. */
  readonly ackTimeoutNs: bigint;
}

function nonNegativeNs(text: string, what: string): bigint {
  const value = BigInt(text);
  if (value < 0n) throw invalidArgument(`${what} is negative (${text})`);
  return value;
}

export class DigestStore extends Store {
  private readonly enabled = new Map<number, DigestConfig>();

  constructor(
    private readonly schema: P4Schema,
    undo: UndoLog,
  ) {
    super(undo);
  }

  /** The configuration of an enabled digest, or undefined while it is disabled. */
  config(digestId: number): DigestConfig | undefined {
    return this.enabled.get(digestId);
  }

  write(type: UpdateType, e: p4r.DigestEntry__Output): void {
    const info = this.schema.digests.find(e.digest_id);
    if (!info) throw notFound(`no digest with id ${e.digest_id} in the P4Info`);
    const label = describe('digest', info.name, info.id);
    const current = this.enabled.get(e.digest_id);
    if (type === 'DELETE') {
      if (!current) throw notFound(`${label} is not enabled`);
      return this.put(e.digest_id, undefined);
    }
    if (type === 'INSERT' && current) throw alreadyExists(`${label} is already enabled; use MODIFY to change its config`);
    if (type === 'MODIFY' && !current) throw notFound(`${label} is not enabled; INSERT it first`);
    const c = e.config;
    if (!c) throw invalidArgument(`${label}: the entry needs a config (max_timeout_ns, max_list_size, ack_timeout_ns)`);
    if (c.max_list_size < 0) throw invalidArgument(`${label}: max_list_size ${c.max_list_size} is negative`);
    this.put(e.digest_id, {
      maxTimeoutNs: nonNegativeNs(c.max_timeout_ns, `${label} max_timeout_ns`),
      maxListSize: c.max_list_size,
      ackTimeoutNs: nonNegativeNs(c.ack_timeout_ns, `${label} ack_timeout_ns`),
    });
  }

  read(e: p4r.DigestEntry__Output, out: p4r.Entity[]): void {
    if (e.digest_id && !this.schema.digests.find(e.digest_id)) throw notFound(`no digest with id ${e.digest_id} in the P4Info`);
    for (const [id, c] of this.enabled) {
      if (e.digest_id && id !== e.digest_id) continue;
      const config = { max_timeout_ns: String(c.maxTimeoutNs), max_list_size: c.maxListSize, ack_timeout_ns: String(c.ackTimeoutNs) };
      out.push({ digest_entry: { digest_id: id, config } });
    }
  }

  private put(id: number, value: DigestConfig | undefined): void {
    const old = this.enabled.get(id);
    if (value) this.enabled.set(id, value);
    else this.enabled.delete(id);
    this.touch();
    if (this.undo.active) {
      this.undo.record(() => {
        if (old) this.enabled.set(id, old);
        else this.enabled.delete(id);
        this.touch();
      });
    }
  }
}
