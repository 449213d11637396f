import { describe, expect, test } from 'vitest';
import { assignIds, idFor, IdPrefix, jenkinsOneAtATime } from '../../src/p4info/index.js';

/**
 * Jenkins' one-at-a-time hash over the UTF-8 bytes, written here from its
 * published definition (per byte: add, add the value shifted left 10, xor
 * the value shifted right 6; then add <<3, xor >>11, add <<15; 32 bits).
 */
function oneAtATime(text: string): number {
  let h = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    h = (h + byte) >>> 0;
    h = (h + (h << 10)) >>> 0;
    h = (h ^ (h >>> 6)) >>> 0;
  }
  h = (h + (h << 3)) >>> 0;
  h = (h ^ (h >>> 11)) >>> 0;
  return (h + (h << 15)) >>> 0;
}

describe('ids as p4c assigns them', () => {
  test('the values in p4c basic_routing-bmv2 golden P4Info', () => {
    expect(idFor(IdPrefix.TABLE, 'ingress.bd')).toBe(0x02e26967);
    expect(idFor(IdPrefix.TABLE, 'ingress.bd')).toBe(48392551);
    expect(idFor(IdPrefix.ACTION, 'NoAction')).toBe(21257015);
    expect(assignIds(IdPrefix.ACTION, ['ingress.set_vrf', 'NoAction']).get('NoAction')).toBe(21257015);
  });

  test('Jenkins one-at-a-time hash of the UTF-8 bytes, in 32-bit arithmetic', () => {
    expect(jenkinsOneAtATime('')).toBe(0);
    expect(jenkinsOneAtATime('a')).toBe(0xca2e9442);
    expect(jenkinsOneAtATime('The quick brown fox jumps over the lazy dog')).toBe(0x519e91f5);
    expect(jenkinsOneAtATime('é')).not.toBe(jenkinsOneAtATime('e'));
  });

  test('the top byte is the kind prefix and the rest the low 24 bits of the hash', () => {
    const id = idFor(IdPrefix.REGISTER, 'MyIngress.slot_values');
    expect(id >>> 24).toBe(0x16);
    expect(id & 0xffffff).toBe(jenkinsOneAtATime('MyIngress.slot_values') & 0xffffff);
  });

  test('a collision probes upwards; names are hashed in sorted order, so the first name keeps its id', () => {
    // t1445 and t4784 share the low 24 bits of their hash, 0x342f39: found by searching t0, t1, … with
    // the hash written out below from Bob Jenkins' definition, not with src/p4info/ids.ts.
    expect(oneAtATime('t1445') & 0xffffff).toBe(0x342f39);
    expect(oneAtATime('t4784') & 0xffffff).toBe(0x342f39);
    const ids = assignIds(IdPrefix.TABLE, ['t4784', 't1445']);
    expect(ids.get('t1445')).toBe(0x02342f39);
    expect(ids.get('t4784')).toBe(0x02342f3a);
  });

  test('a collision forced by an @id takes the next free id', () => {
    const taken = idFor(IdPrefix.ACTION, 'b');
    const ids = assignIds(IdPrefix.ACTION, ['a', 'b', 'c'], new Map([['a', taken]]));
    expect(ids.get('a')).toBe(taken);
    expect(ids.get('b')).toBe(taken + 1);
    expect(ids.get('c')).toBe(idFor(IdPrefix.ACTION, 'c'));
    // An @id given without its prefix collides just the same.
    const bare = assignIds(IdPrefix.ACTION, ['x'], new Map([['y', idFor(IdPrefix.ACTION, 'x') & 0xffffff]]));
    expect(bare.get('x')).toBe(idFor(IdPrefix.ACTION, 'x') + 1);
  });

  test('@id values: a zero top byte gets the prefix, a full id must have the right prefix', () => {
    const ids = assignIds(IdPrefix.TABLE, ['t', 'u'], new Map([['t', 5], ['u', 0x02000009]]));
    expect(ids.get('t')).toBe(0x02000005);
    expect(ids.get('u')).toBe(0x02000009);
    expect(() => assignIds(IdPrefix.TABLE, [], new Map([['t', 0x01000005]]))).toThrow(/wrong prefix/);
    expect(() => assignIds(IdPrefix.TABLE, [], new Map([['t', 5], ['u', 0x02000005]]))).toThrow(/used twice/);
  });

  test('names with an @id are not hashed again', () => {
    const ids = assignIds(IdPrefix.TABLE, ['t', 'u'], new Map([['t', 7]]));
    expect(ids.size).toBe(2);
    expect(ids.get('t')).toBe(0x02000007);
    expect(ids.get('u')).toBe(idFor(IdPrefix.TABLE, 'u'));
  });

  test('the result does not depend on the order the names are given in', () => {
    const names = ['MyIngress.a', 'MyIngress.b', 'MyEgress.a', 'NoAction'];
    expect([...assignIds(1, names)].sort()).toEqual([...assignIds(1, [...names].reverse())].sort());
  });
});
