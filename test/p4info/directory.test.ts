import { describe, expect, test } from 'vitest';
import { Directory, P4InfoError, P4InfoErrorCode, type Named } from '../../src/p4info/index.js';

const item = (id: number, name: string, alias = name.slice(name.lastIndexOf('.') + 1)): Named => ({ id, name, alias });

const tables = new Directory('table', [
  item(1, 'MyIngress.ipv4_lpm'),
  item(2, 'MyIngress.acl.filter', 'ingress_filter'),
  item(3, 'MyEgress.acl.filter', 'egress_filter'),
  item(4, 'MyIngress.stats.ports', 'ports'),
]);

function lookupError(run: () => unknown): P4InfoError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(P4InfoError);
    return error as P4InfoError;
  }
  throw new Error('expected a P4InfoError');
}

describe('Directory lookups', () => {
  test('by id, full name, alias and unique dotted suffix', () => {
    expect(tables.get(1).name).toBe('MyIngress.ipv4_lpm');
    expect(tables.get('MyIngress.ipv4_lpm').id).toBe(1);
    expect(tables.get('ipv4_lpm').id).toBe(1);
    expect(tables.get('ingress_filter').id).toBe(2);
    expect(tables.get('MyIngress.acl.filter').id).toBe(2);
    expect(tables.get('stats.ports').id).toBe(4);
    expect(tables.get('ports').id).toBe(4);
  });

  test('has() answers without throwing, also for an ambiguous suffix', () => {
    expect(tables.has(1)).toBe(true);
    expect(tables.has(5)).toBe(false);
    expect(tables.has('ipv4_lpm')).toBe(true);
    expect(tables.has('acl.filter')).toBe(true);
    expect(tables.has('ipv6_lpm')).toBe(false);
  });

  test('an ambiguous suffix is an error that names every candidate', () => {
    const error = lookupError(() => tables.get('filter'));
    expect(error.code).toBe(P4InfoErrorCode.AMBIGUOUS);
    expect(error.message).toBe('table "filter" is ambiguous: it could be MyIngress.acl.filter or MyEgress.acl.filter; use the full name');
    expect(lookupError(() => tables.find('acl.filter')).code).toBe(P4InfoErrorCode.AMBIGUOUS);
  });

  test('an unknown name or id is an error that lists the known names', () => {
    const error = lookupError(() => tables.get('ipv6_lpm'));
    expect(error.code).toBe(P4InfoErrorCode.UNKNOWN);
    expect(error.message).toBe('no table "ipv6_lpm" in the P4Info; known tables: MyIngress.ipv4_lpm, MyIngress.acl.filter, MyEgress.acl.filter, MyIngress.stats.ports');
    expect(lookupError(() => tables.get(0x02000001)).message).toContain('no table id 33554433 (0x2000001) in the P4Info');
    expect(tables.find('nope')).toBeUndefined();
    expect(tables.find(99)).toBeUndefined();
  });

  test('the list of known names is cut after eight', () => {
    const many = new Directory('action', Array.from({ length: 10 }, (_, i) => item(i + 1, `a${i}`)));
    expect(lookupError(() => many.get('zz')).message).toBe('no action "zz" in the P4Info; known actions: a0, a1, a2, a3, a4, a5, a6, a7, …');
    expect(lookupError(() => new Directory('digest', []).get('d')).message).toBe('no digest "d" in the P4Info');
  });

  test('a suffix that is also a full name finds the full name', () => {
    const dir = new Directory('action', [item(1, 'drop'), item(2, 'MyIngress.drop')]);
    expect(dir.get('drop').id).toBe(1);
    expect(dir.get('MyIngress.drop').id).toBe(2);
  });

  test('two objects with one id are refused', () => {
    const error = lookupError(() => new Directory('table', [item(1, 'a'), item(1, 'b')]));
    expect(error.code).toBe(P4InfoErrorCode.INCONSISTENT);
    expect(error.message).toBe('two tables have id 1: a and b');
  });

  test('messages put the head noun in the plural, not the whole phrase', () => {
    const fields = [item(1, 'a'), item(1, 'b')];
    expect(lookupError(() => new Directory('match field of table t', fields)).message).toBe('two match fields of table t have id 1: a and b');
    expect(lookupError(() => new Directory('parameter of action a', [item(1, 'p')]).get('q')).message).toBe(
      'no parameter of action a "q" in the P4Info; known parameters of action a: p',
    );
    expect(lookupError(() => new Directory('entity', fields)).message).toBe('two entities have id 1: a and b');
  });

  test('size and all', () => {
    expect(tables.size).toBe(4);
    expect(tables.all.map((t) => t.id)).toEqual([1, 2, 3, 4]);
  });
});
