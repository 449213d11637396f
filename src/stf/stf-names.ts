/**
 * Resolving STF names against the program's P4Info the way p4c's BMv2 runner
 * does: a table or action by its full name or by a suffix of it (so
 * `ipv4_lpm` finds `MyIngress.ipv4_lpm`, and an action only among the
 * table's own actions), a key field by the P4 key expression or its @name,
 * a suffix of either (`dstAddr`), header-stack elements written `h$0` as well
 * as `h[0]`, and validity keys written `h.$valid$`, `h.valid` or `h`.
 * Ambiguous or unknown names are errors that list what the program has.
 */
import type { Named } from '../p4info/directory.js';
import type { ActionInfo, MatchFieldInfo, ParamInfo, TableInfo } from '../p4info/entities.js';
import type { P4Schema } from '../p4info/schema.js';
import { STF_ERROR_CODES, StfError } from './stf-error.js';

function list(items: readonly Named[]): string {
  const names = items.map((i) => i.name);
  return names.length === 0 ? '(none)' : names.length > 12 ? `${names.slice(0, 12).join(', ')}, …` : names.join(', ');
}

/**
 * The one item whose name is `key`, else the one whose name ends in `.key`,
 * else (as BMv2's runner does) the one whose name simply ends in `key`.
 * Throws for none or for several.
 */
function bySuffix<T extends Named>(items: readonly T[], key: string, kind: string, line: number, where = ''): T {
  const exact = items.filter((i) => i.name === key || i.alias === key);
  if (exact.length === 1) return exact[0]!;
  for (const test of [(n: string) => n.endsWith(`.${key}`), (n: string) => n.endsWith(key)]) {
    const found = items.filter((i) => test(i.name));
    if (found.length === 1) return found[0]!;
    if (found.length > 1) {
      throw new StfError(STF_ERROR_CODES.ambiguousName, `${kind} "${key}"${where} is ambiguous: it could be ${list(found)}; write the full name`, line);
    }
  }
  throw new StfError(STF_ERROR_CODES.unknownName, `no ${kind} "${key}"${where}; the program has: ${list(items)}`, line);
}

export function resolveTable(schema: P4Schema, name: string, line: number): TableInfo {
  return bySuffix(schema.tables.all, name, 'table', line);
}

/** An action of `table` (one it lists), by full name or suffix. */
export function resolveTableAction(schema: P4Schema, table: TableInfo, name: string, line: number): ActionInfo {
  const actions = [...table.actionRefs.values()].map((r) => r.action);
  try {
    return bySuffix(actions, name, 'action', line, ` in table ${table.name}`);
  } catch (e) {
    // Say so when the action exists but the table cannot run it.
    const elsewhere = schema.actions.all.find((a) => a.name === name || a.name.endsWith(`.${name}`));
    if (e instanceof StfError && e.code === STF_ERROR_CODES.unknownName && elsewhere) {
      throw new StfError(STF_ERROR_CODES.unknownName, `action ${elsewhere.name} is not one of table ${table.name}'s actions (${list(actions)})`, line);
    }
    throw e;
  }
}

export function resolveParam(action: ActionInfo, name: string, line: number): ParamInfo {
  const p = action.params.all.find((q) => q.name === name);
  if (p) return p;
  throw new StfError(STF_ERROR_CODES.unknownName, `action ${action.name} has no parameter "${name}"; its parameters are: ${list(action.params.all)}`, line);
}

/** The spellings a key name may have in the P4Info, most literal first (p4c names an isValid() key `h.$valid$`). */
function keyVariants(key: string): string[] {
  // Header stack elements: p4c's runner writes hdr.h$0.f for hdr.h[0].f.
  const k = key.replace(/\$(\d+)/g, '[$1]');
  const validity = (base: string): string[] => (base === '' ? ['$valid$', 'isValid()'] : [`${base}.$valid$`, `${base}.isValid()`]);
  if (k === 'valid' || k === '$valid$') return [k, ...validity('')];
  for (const suffix of ['.$valid$', '.valid', '.isValid()']) {
    if (k.endsWith(suffix)) return [k, ...validity(k.slice(0, -suffix.length))];
  }
  return [k, ...validity(k)];
}

export function resolveKeyField(table: TableInfo, key: string, line: number): MatchFieldInfo {
  const fields = table.matchFields.all;
  for (const variant of keyVariants(key)) {
    const exact = fields.find((f) => f.name === variant);
    if (exact) return exact;
  }
  for (const variant of keyVariants(key)) {
    const found = fields.filter((f) => f.name.endsWith(`.${variant}`) || ((variant === 'isValid()' || variant === '$valid$') && f.name.endsWith(variant)));
    if (found.length === 1) return found[0]!;
    if (found.length > 1) {
      throw new StfError(STF_ERROR_CODES.ambiguousName, `key field "${key}" of table ${table.name} is ambiguous: it could be ${list(found)}; write the full name`, line);
    }
  }
  throw new StfError(STF_ERROR_CODES.unknownName, `table ${table.name} has no key field "${key}"; its key fields are: ${list(fields)}`, line);
}

export function resolveRegister(schema: P4Schema, name: string, line: number) {
  return bySuffix(schema.registers.all, name, 'register', line);
}

/** An indexed counter, or a direct counter (named directly or through its table). */
export function resolveCounter(schema: P4Schema, name: string, line: number) {
  const indexed = schema.counters.all;
  const direct = schema.directCounters.all;
  const all: Named[] = [...indexed, ...direct];
  const found = bySuffix(all, name, 'counter', line);
  const counter = indexed.find((c) => c === found);
  if (counter) return { kind: 'indexed' as const, counter };
  return { kind: 'direct' as const, counter: direct.find((c) => c === found)! };
}
