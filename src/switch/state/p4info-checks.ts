/**
 * Is a P4Info well-formed enough to build a pipeline from? Checked on the
 * decoded message before anything is indexed or allocated, so that a
 * mutated or hand-made P4Info is refused with INVALID_ARGUMENT naming the
 * problem, never half-built: every object has a preamble with an id whose
 * top byte is its kind's prefix (P4Runtime spec §"P4Info object ids"); no id
 * is used twice in the whole P4Info, no name twice within a kind; sizes are
 * non-negative integers within this switch's limits; bitwidths are positive
 * and not absurd; every id an object refers to exists and is of the right kind.
 */
import type * as p4i from '../../proto/p4i.js';
import { IdPrefix } from '../../p4info/schema.js';
import { pluralNoun } from '../../util/plural-noun.js';
import { invalidArgument } from './entity-error.js';

/** Limits on what one P4Info may declare. */
export interface P4InfoLimits {
  /** Cells of one counter, meter or register array. */
  readonly maxArrayCells: number;
  /** Entries of one table, members of one action profile, members of one value set. */
  readonly maxTableEntries: number;
  /** Bits of one match field, action parameter, metadata field or register cell. */
  readonly maxBitwidth: number;
  /** Objects (tables, actions, externs, …) in the whole P4Info, and fields of one object. */
  readonly maxObjects: number;
}

const hex = (id: number): string => `0x${(id >>> 0).toString(16).padStart(8, '0')}`;

/** A P4Info int64 (a decimal string) or int32 as a number, refusing what is not a non-negative integer within `max`. */
function count(value: string | number, what: string, max: number, limitName: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw invalidArgument(`${what} is ${String(value)}; it must be a non-negative integer`);
  if (n > max) throw invalidArgument(`${what} is ${n}, more than this switch allows (${limitName} ${max})`);
  return n;
}

function bitwidth(value: number, what: string, limits: P4InfoLimits, allowZero = false): void {
  if (!Number.isSafeInteger(value) || value < 0 || (value === 0 && !allowZero)) {
    throw invalidArgument(`${what} has bitwidth ${value}; it must be a positive integer`);
  }
  if (value > limits.maxBitwidth) throw invalidArgument(`${what} has bitwidth ${value}, more than this switch allows (maxBitwidth ${limits.maxBitwidth})`);
}

/** Ids 1..n of the fields of one object: non-zero, unique, names unique. */
function fields(list: readonly { id: number; name: string }[], what: string, limits: P4InfoLimits): void {
  if (list.length > limits.maxObjects) throw invalidArgument(`${what} has ${list.length} fields, more than this switch allows (${limits.maxObjects})`);
  const ids = new Set<number>();
  const names = new Set<string>();
  for (const f of list) {
    if (!Number.isSafeInteger(f.id) || f.id <= 0) throw invalidArgument(`a field of ${what} has id ${f.id}; field ids start at 1`);
    if (ids.has(f.id)) throw invalidArgument(`two fields of ${what} have id ${f.id}`);
    if (f.name && names.has(f.name)) throw invalidArgument(`two fields of ${what} are named ${f.name}`);
    ids.add(f.id);
    names.add(f.name);
  }
}

/** The width of a bit<W>/int<W> type spec, undefined for other types (a register may hold a struct). */
function typeSpecWidth(spec: p4i.P4DataTypeSpec__Output | null): number | undefined {
  const bs = spec?.type_spec === 'bitstring' ? spec.bitstring : null;
  if (!bs) return undefined;
  if (bs.type_spec === 'bit') return bs.bit?.bitwidth ?? 0;
  if (bs.type_spec === 'int') return bs.int?.bitwidth ?? 0;
  if (bs.type_spec === 'varbit') return bs.varbit?.max_bitwidth ?? 0;
  return undefined;
}

/** Throws EntityError (INVALID_ARGUMENT) saying what is wrong with `p4info`. */
export function checkP4Info(p4info: p4i.P4Info__Output, limits: P4InfoLimits): void {
  const seen = new Map<number, string>();
  const namesByKind = new Map<string, Set<string>>();
  let objects = 0;
  /** Records one object's preamble; returns its id. */
  const object = (preamble: p4i.Preamble__Output | null, kind: string, prefix: number | undefined): number => {
    if (++objects > limits.maxObjects) throw invalidArgument(`the P4Info declares more than ${limits.maxObjects} objects, more than this switch allows`);
    if (!preamble) throw invalidArgument(`a ${kind} has no preamble (id and name)`);
    const { id, name } = preamble;
    const label = `${kind} ${name || '(unnamed)'}`;
    if (!id) throw invalidArgument(`${label} has id 0; P4Info ids are never 0`);
    if (prefix !== undefined && id >>> 24 !== prefix) {
      throw invalidArgument(`${label} has id ${hex(id)}, whose top byte 0x${(id >>> 24).toString(16)} is not the ${kind} prefix 0x${prefix.toString(16).padStart(2, '0')}`);
    }
    const other = seen.get(id);
    if (other) throw invalidArgument(`id ${hex(id)} is used twice: by ${other} and by ${label}`);
    seen.set(id, label);
    if (!name) throw invalidArgument(`the ${kind} with id ${hex(id)} has no name`);
    let names = namesByKind.get(kind);
    if (!names) namesByKind.set(kind, (names = new Set()));
    if (names.has(name)) throw invalidArgument(`two ${pluralNoun(kind)} are named ${name}`);
    names.add(name);
    return id;
  };

  const actionIds = new Set(p4info.actions.map((a) => object(a.preamble, 'action', IdPrefix.ACTION)));
  for (const a of p4info.actions) {
    const what = `action ${a.preamble!.name}`;
    fields(a.params, what, limits);
    for (const p of a.params) bitwidth(p.bitwidth, `parameter ${p.name} of ${what}`, limits, true);
  }
  const tableIds = new Set(p4info.tables.map((t) => object(t.preamble, 'table', IdPrefix.TABLE)));
  const profileIds = new Set(p4info.action_profiles.map((p) => object(p.preamble, 'action profile', IdPrefix.ACTION_PROFILE)));
  const directCounters = new Map(p4info.direct_counters.map((c) => [object(c.preamble, 'direct counter', IdPrefix.DIRECT_COUNTER), c.direct_table_id]));
  const directMeters = new Map(p4info.direct_meters.map((m) => [object(m.preamble, 'direct meter', IdPrefix.DIRECT_METER), m.direct_table_id]));

  for (const t of p4info.tables) {
    const id = t.preamble!.id;
    const what = `table ${t.preamble!.name}`;
    count(t.size, `the size of ${what}`, limits.maxTableEntries, 'maxTableEntries');
    fields(t.match_fields, what, limits);
    for (const f of t.match_fields) bitwidth(f.bitwidth, `match field ${f.name} of ${what}`, limits, true);
    const refs = new Set<number>();
    for (const ref of t.action_refs) {
      if (!actionIds.has(ref.id)) throw invalidArgument(`${what} refers to action id ${hex(ref.id)}, which the P4Info does not define`);
      if (refs.has(ref.id)) throw invalidArgument(`${what} lists action id ${hex(ref.id)} twice`);
      refs.add(ref.id);
    }
    if (t.const_default_action_id && !refs.has(t.const_default_action_id)) {
      throw invalidArgument(`the const default action ${hex(t.const_default_action_id)} of ${what} is not one of its actions`);
    }
    if (t.implementation_id && !profileIds.has(t.implementation_id)) {
      throw invalidArgument(`${what} refers to action profile id ${hex(t.implementation_id)}, which the P4Info does not define`);
    }
    for (const r of t.direct_resource_ids) {
      const owner = directCounters.get(r) ?? directMeters.get(r);
      if (owner === undefined) throw invalidArgument(`${what} refers to direct resource id ${hex(r)}, which is not a direct counter or meter of the P4Info`);
      if (owner !== id) throw invalidArgument(`${what} refers to direct resource ${hex(r)}, which belongs to table ${hex(owner)}`);
    }
  }
  for (const [kind, resources] of [
    ['direct counter', directCounters],
    ['direct meter', directMeters],
  ] as const) {
    for (const [id, table] of resources) {
      if (!tableIds.has(table)) throw invalidArgument(`${kind} ${hex(id)} belongs to table ${hex(table)}, which the P4Info does not define`);
    }
  }
  for (const p of p4info.action_profiles) {
    const what = `action profile ${p.preamble!.name}`;
    count(p.size, `the size of ${what}`, limits.maxTableEntries, 'maxTableEntries');
    count(p.max_group_size, `the max_group_size of ${what}`, limits.maxTableEntries, 'maxTableEntries');
    for (const t of p.table_ids) if (!tableIds.has(t)) throw invalidArgument(`${what} refers to table id ${hex(t)}, which the P4Info does not define`);
  }
  for (const c of p4info.counters) {
    object(c.preamble, 'counter', IdPrefix.COUNTER);
    count(c.size, `the size of counter ${c.preamble!.name}`, limits.maxArrayCells, 'maxArrayCells');
  }
  for (const m of p4info.meters) {
    object(m.preamble, 'meter', IdPrefix.METER);
    count(m.size, `the size of meter ${m.preamble!.name}`, limits.maxArrayCells, 'maxArrayCells');
  }
  for (const r of p4info.registers) {
    object(r.preamble, 'register', IdPrefix.REGISTER);
    count(r.size, `the size of register ${r.preamble!.name}`, limits.maxArrayCells, 'maxArrayCells');
    const w = typeSpecWidth(r.type_spec);
    if (w !== undefined) bitwidth(w, `register ${r.preamble!.name}`, limits);
  }
  for (const d of p4info.digests) object(d.preamble, 'digest', IdPrefix.DIGEST);
  for (const h of p4info.controller_packet_metadata) {
    object(h.preamble, 'controller header', IdPrefix.CONTROLLER_HEADER);
    const what = `controller header ${h.preamble!.name}`;
    fields(h.metadata, what, limits);
    for (const m of h.metadata) bitwidth(m.bitwidth, `field ${m.name} of ${what}`, limits, true);
  }
  for (const v of p4info.value_sets) {
    object(v.preamble, 'value set', IdPrefix.VALUE_SET);
    const what = `value set ${v.preamble!.name}`;
    count(v.size, `the size of ${what}`, limits.maxTableEntries, 'maxTableEntries');
    fields(v.match, what, limits);
    for (const f of v.match) bitwidth(f.bitwidth, `match field ${f.name} of ${what}`, limits, true);
  }
  for (const e of p4info.externs) {
    for (const i of e.instances) object(i.preamble, `${e.extern_type_name || 'extern'} instance`, undefined);
  }
}
