// Entries with equal direct actions share one action object (shared-actions.ts): equal calls
// (same action, same values) get the same object, different ones never do, what is kept is a
// copy of the request's bytes, and the cache's pause during runs of all-different data ends.
import { describe, expect, it } from 'vitest';
import { keep, StoredCall, type ActionCall } from '../../../src/switch/state/action-call.js';
import { SharedActions } from '../../../src/switch/state/shared-actions.js';

const call = (actionId: number, ...params: number[][]): ActionCall => ({ actionId, params: params.map((p) => Buffer.from(p)) });
const unique = (n: number): ActionCall => call(2, [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
/** A call's id and values as plain data (a stored call keeps its values in another form). */
const plain = (c: ActionCall): ActionCall => ({ actionId: c.actionId, params: [...c.params] });

describe('shared direct actions', () => {
  it('gives equal calls one action, different calls their own, and keeps a copy of the values', () => {
    const shared = new SharedActions();
    const input = call(7, [1, 2], [3]);
    const first = shared.actionOf(input);
    expect(shared.actionOf(call(7, [1, 2], [3]))).toBe(first);
    expect(shared.actionOf(call(8, [1, 2], [3]))).not.toBe(first);
    // The same bytes split differently between the parameters are a different call.
    expect(shared.actionOf(call(7, [1], [2, 3]))).not.toBe(first);
    input.params[0]![0] = 99;
    expect(plain(first.call)).toEqual(call(7, [1, 2], [3]));
    expect(first.call.params[0]).not.toBe(input.params[0]);
  });

  it('keeps sharing a call that comes back often among many different ones', () => {
    const shared = new SharedActions();
    for (let n = 0; n < 20_000; n++) {
      expect(plain(shared.actionOf(unique(n)).call)).toEqual(unique(n));
      // (A full cache starts over, so the object may change between iterations, not within one.)
      const hop = shared.actionOf(call(1, [10]));
      expect(shared.actionOf(call(1, [10]))).toBe(hop);
    }
  });

  it('shares equal calls again after a long run of all-different ones', () => {
    const shared = new SharedActions();
    for (let n = 0; n < 10_000; n++) expect(plain(shared.actionOf(unique(n)).call)).toEqual(unique(n));
    let sharedAgainAfter: number | undefined;
    for (let n = 10_000; n < 110_000 && sharedAgainAfter === undefined; n++) {
      if (shared.actionOf(call(1, [10])) === shared.actionOf(call(1, [10]))) sharedAgainAfter = n;
      expect(plain(shared.actionOf(unique(n)).call)).toEqual(unique(n));
    }
    expect(sharedAgainAfter).toBeDefined();
  });
});

describe('stored calls', () => {
  it('give back the values they were made from, for any number and length of values', () => {
    for (const made of [call(3), call(4, [0]), call(5, [1, 2, 3, 4, 5, 6], [7]), call(0xfffffffe, Array.from({ length: 300 }, (_, i) => i & 255), [255])]) {
      const stored = keep(made);
      expect(stored).toBeInstanceOf(StoredCall);
      expect(plain(stored)).toEqual(made);
      // Reading them twice gives equal values, not the same Buffers: a reader may not change what is stored.
      stored.params[0]?.fill(0);
      expect(plain(stored)).toEqual(made);
      expect(keep(stored)).toBe(stored);
      // A stored call is also the direct action that runs it.
      expect(stored).toMatchObject({ kind: 'action' });
      expect((stored as StoredCall).call).toBe(stored);
    }
  });
});
