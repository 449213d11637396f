/**
 * Idle timeouts (spec §Idle-timeout and §"Table Idle Timeout Notification"):
 * an entry with a TTL (`idle_timeout_ns` > 0) in a table that supports idle
 * timeouts expires when it has not been hit for at least its TTL. Each expiry
 * is reported once; the spec then has the server "reset the timer" of the
 * entry, so an entry that stays idle is reported again one TTL later, never
 * on every scan. A hit, or a MODIFY to a shorter TTL, counts from the last hit.
 * `time_since_last_hit` stays the time since the last data-plane hit.
 */
import type * as p4r from '../../proto/p4r.js';
import { entryProto } from './table-reads.js';
import type { TableStores } from './tables.js';

/** TTLs are int64 nanoseconds as decimal strings; this is the TTL in milliseconds (0: never expires). */
function ttlMs(idleTimeoutNs: string): number {
  return idleTimeoutNs === '0' ? 0 : Number(idleTimeoutNs) / 1e6;
}

/**
 * The entries that have expired by the tables' clock, one list per table (the
 * spec's coalescing), each as a TableEntry with its key, metadata and TTL; every
 * entry returned counts as notified now.
 */
export function collectExpired(tables: TableStores): p4r.TableEntry[][] {
  const out: p4r.TableEntry[][] = [];
  for (const t of tables.all()) {
    const clock = t.hitClock;
    if (!clock || t.size === 0) continue;
    const now = clock();
    let expired: p4r.TableEntry[] | undefined;
    for (const r of t.entries()) {
      const ttl = ttlMs(r.idleTimeoutNs);
      if (ttl === 0 || now - Math.max(r.lastHit, r.idleNotified) < ttl) continue;
      r.idleNotified = now;
      (expired ??= []).push(entryProto(t, r, { counter: false, meter: false, hit: false }));
    }
    if (expired) out.push(expired);
  }
  return out;
}
