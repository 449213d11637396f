import { describe, expect, test } from 'vitest';
import { assignIds, idFor, IdPrefix, jenkinsOneAtATime } from '../../src/p4info/index.js';

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
    // A natural collision of the low 24 bits, found by search (deterministic).
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair && i < 100_000; i++) {
      const name = `t${i}`;
      const suffix = jenkinsOneAtATime(name) & 0xffffff;
      const other = seen.get(suffix);
      if (other) pair = [other, name].sort() as [string, string];
      else seen.set(suffix, name);
    }
    expect(pair).toBeDefined();
    const [first, second] = pair!;
    const ids = assignIds(IdPrefix.TABLE, [second, first]);
    expect(ids.get(first)).toBe(idFor(IdPrefix.TABLE, first));
    expect(ids.get(second)).toBe(idFor(IdPrefix.TABLE, first) + 1);
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
