/**
 * The direct actions of a table's entries, shared by the entries that run the
 * same call with the same data (a few next hops for a million routes): one
 * call object for all of them, in memory and in the data plane's per-call
 * resolution. A bounded cache, emptied when full, so that entries with
 * all-different data cannot make it grow without limit; and skipped for a
 * while when it finds too little to share, since looking up and keeping calls
 * that are never shared costs a bulk insert of such entries about a tenth.
 */
import { callData, StoredCall, type ActionCall } from './action-call.js';

/** What an entry of a direct table runs (table-store.ts's EntryAction of kind 'action'). */
export interface DirectAction {
  readonly kind: 'action';
  readonly call: ActionCall;
}

/** Distinct calls kept before the cache starts over. */
const CAPACITY = 4096;
/** A full cache that found an equal call for fewer than one lookup in this many is skipped for a while… */
const MIN_HIT_RATE = 8;
/** …for this many calls, then tried again (empty). */
const BYPASS = 8 * CAPACITY;

export class SharedActions {
  private readonly cache = new Map<string, DirectAction>();
  /** Lookups that found a call since the cache was last emptied. */
  private hits = 0;
  /** Calls still to make without the cache. */
  private bypass = 0;

  /** The action for `checked`, which may hold views of the request (ActionValidator.check): it is copied only when new. */
  actionOf(checked: ActionCall): DirectAction {
    const key = callData(checked);
    if (this.bypass > 0) {
      this.bypass--;
      return new StoredCall(checked.actionId, key);
    }
    const cached = this.cache.get(key);
    if (cached) {
      this.hits++;
      return cached;
    }
    const action = new StoredCall(checked.actionId, key);
    if (this.cache.size >= CAPACITY) {
      if (this.hits * MIN_HIT_RATE < CAPACITY) this.bypass = BYPASS;
      this.cache.clear();
      this.hits = 0;
      if (this.bypass > 0) return action;
    }
    this.cache.set(key, action);
    return action;
  }
}
