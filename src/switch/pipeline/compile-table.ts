/**
 * Table application: the key from the packet, the lookup in the device
 * state's TableStore (all-exact tables by one Map lookup; LPM, ternary,
 * range and optional by a candidate list rebuilt when the store's version
 * changes, ordered so the first match wins: longest prefix for LPM, highest
 * priority otherwise), the program's const entries, the default entry, the
 * direct counter, and the action with its data.
 */
import type { IrAction, IrKeyset, IrTable } from '../../p4c/ir/types.js';
import type { FieldValue } from '../state/match-key.js';
import type { ActionCall } from '../state/action-call.js';
import type { DefaultEntryRecord, TableEntryRecord, TableStore } from '../state/table-store.js';
import { bitsToBytes, bytesToBits, parseConst, toBigInt } from './bits.js';
import type { CompileEnv, Exec, TableResult } from './compile-env.js';
import { widthOf } from './compile-expression.js';
import type { ActionSelection } from './action-selection.js';
import { generateEvaluator } from './generate-expression.js';
import { LpmIndex } from './lpm-index.js';
import { bindArguments, type StatementCompiler } from './compile-statement.js';
import { FLOW_EXIT, FLOW_NEXT, type PacketContext } from './packet-context.js';
import { zeroOf, type Bits, type Value } from './values.js';

/** One field test of a candidate entry, on values in the key's representation (number ≤ 32 bits, else bigint). */
type FieldTest = { kind: 'any' } | { kind: 'eq'; value: Bits } | { kind: 'mask'; value: Bits; mask: Bits } | { kind: 'range'; low: Bits; high: Bits };

/** A bigint test to the representation of `width`. */
function narrow(t: FieldTest, width: number): FieldTest {
  if (width > 32) return t;
  switch (t.kind) {
    case 'any':
      return t;
    case 'eq':
      return { kind: 'eq', value: Number(t.value) };
    case 'mask':
      return { kind: 'mask', value: Number(t.value), mask: Number(t.mask) };
    case 'range':
      return { kind: 'range', low: Number(t.low), high: Number(t.high) };
  }
}

interface Candidate {
  readonly tests: readonly FieldTest[];
  /** Sort key: higher first (prefix length for LPM, priority otherwise). */
  readonly rank: number;
  /** Entry order, for ties (earlier first). */
  readonly order: number;
  /** The program entry's action (undefined for the store's entries, whose action is their record's). */
  readonly action: ResolvedAction | undefined;
  readonly record: TableEntryRecord | undefined;
}

/** An action with its data decoded and its runner and name looked up: what a hit runs, resolved once per entry. */
interface ResolvedAction {
  readonly actionId: number;
  readonly params: readonly Bits[];
  readonly name: string;
  readonly runner: Exec | undefined;
}

/** A stored field's test in the key's representation of `width` (number ≤ 32 bits, else bigint). */
function testOf(f: FieldValue | undefined, width: number): FieldTest {
  if (!f) return { kind: 'any' };
  // Numbers for keys of up to 32 bits (bytesToBits' representation): a rebuild of a large table must not go through bigint.
  switch (f.kind) {
    case 'exact':
    case 'optional':
      return { kind: 'eq', value: bytesToBits(f.value, width) };
    case 'lpm':
    case 'ternary': {
      const mask = bytesToBits(f.mask, width);
      const value = bytesToBits(f.value, width);
      return { kind: 'mask', value: typeof value === 'number' ? (value & (mask as number)) >>> 0 : value & (mask as bigint), mask };
    }
    case 'range':
      return { kind: 'range', low: bytesToBits(f.low, width), high: bytesToBits(f.high, width) };
  }
}

function keysetTest(k: IrKeyset | undefined, width: number, matchKind: string): FieldTest {
  if (!k || k.kind === 'default' || k.kind === 'value-set') return { kind: 'any' };
  if (k.kind === 'value') return { kind: 'eq', value: toBigInt(parseConst(k.value, width)) };
  if (k.kind === 'mask') {
    const mask = toBigInt(parseConst(k.mask, width));
    return { kind: 'mask', value: toBigInt(parseConst(k.value, width)) & mask, mask };
  }
  void matchKind;
  return { kind: 'range', low: toBigInt(parseConst(k.low, width)), high: toBigInt(parseConst(k.high, width)) };
}

function passes(t: FieldTest, v: Bits): boolean {
  switch (t.kind) {
    case 'any':
      return true;
    case 'eq':
      return v === t.value;
    case 'mask':
      if (typeof v === 'number') return ((v & (t.mask as number)) >>> 0) === t.value;
      return (v & (t.mask as bigint)) === t.value;
    case 'range':
      return v >= t.low && v <= t.high;
  }
}

function prefixLength(tests: readonly FieldTest[], lpmIndex: number): number {
  const t = tests[lpmIndex];
  if (!t || t.kind !== 'mask') return 0;
  let n = 0;
  for (let m = toBigInt(t.mask); m > 0n; m >>= 1n) if (m & 1n) n++;
  return n;
}

/** The padded big-endian bytes of a key value as a latin1 string (the TableStore's exact-key layout), without a Buffer. */
function keyChars(v: Bits, width: number): string {
  const n = (width + 7) >>> 3;
  if (typeof v === 'number') {
    let s = '';
    for (let b = n - 1; b >= 0; b--) s += String.fromCharCode(Math.floor(v / 2 ** (8 * b)) & 0xff);
    return s;
  }
  return bitsToBytes(v, width).toString('latin1');
}

export interface TableServices {
  store(tableId: number): TableStore | undefined;
  /** The program's entries are in the store already; otherwise the table matches them from the IR itself. */
  readonly programEntriesInstalled: boolean;
  /** The action profile/selector of an indirect table (undefined for direct tables). */
  selection?: ActionSelection | undefined;
  /** standard_metadata.packet_length of the packet (for direct counters' bytes). */
  packetLength(ctx: PacketContext): number;
}

export function compileTable(table: IrTable, env: CompileEnv, statements: StatementCompiler, services: TableServices): (ctx: PacketContext) => TableResult {
  const keys = table.keys.filter((k) => k.matchKind !== 'selector');
  const evaluateKeys = generateEvaluator(env, statements.exprs, keys.map((k) => k.expression));
  const widths = keys.map((k) => (k.width > 0 ? k.width : widthOf(k.expression.type)));
  const allExact = keys.every((k) => k.matchKind === 'exact');
  const lpmIndex = keys.findIndex((k) => k.matchKind === 'lpm');
  const store = services.store(table.id);
  // Tables with idle timeouts stamp every hit with the device's (injectable) clock: TTLs and time_since_last_hit.
  const hitClock = store?.hitClock;

  const actionsById = new Map<number, IrAction>();
  const runners = new Map<number, Exec>();
  for (const ref of table.actions) {
    const { action, body } = env.action(ref.action);
    actionsById.set(ref.actionId || action.id, action);
    const cp = action.params.filter((p) => p.controlPlane);
    const directional = action.params.filter((p) => !p.controlPlane);
    const binding = bindArguments(statements.exprs, directional, directional.map((_, i) => ({ direction: directional[i]!.direction === 'none' ? 'in' : directional[i]!.direction, value: ref.boundArgs[i]! })));
    const slots = cp.map((p) => p.slot);
    runners.set(ref.actionId || action.id, (ctx) => {
      const params = ctx.actionParams;
      for (let i = 0; i < slots.length; i++) ctx.slots[slots[i]!] = params[i];
      binding.copyIn(ctx);
      const flow = body(ctx);
      binding.copyOut(ctx);
      return flow === FLOW_EXIT ? FLOW_EXIT : FLOW_NEXT;
    });
  }
  const paramWidths = (actionId: number): number[] => (actionsById.get(actionId)?.params.filter((p) => p.controlPlane).map((p) => p.width) ?? []);
  const resolved0 = (actionId: number, params: readonly Bits[]): ResolvedAction => ({ actionId, params, name: actionsById.get(actionId)?.name ?? '', runner: runners.get(actionId) });

  // Decoded action data, cached per immutable ActionCall (a MODIFY stores a new one).
  const resolved = new WeakMap<object, ResolvedAction>();
  const decode = (call: ActionCall): ResolvedAction => {
    let r = resolved.get(call);
    if (r) return r;
    const widthsOf = paramWidths(call.actionId);
    r = resolved0(call.actionId, call.params.map((b, i) => bytesToBits(b, widthsOf[i] ?? 32)));
    resolved.set(call, r);
    return r;
  };
  const resolve = (owner: TableEntryRecord | DefaultEntryRecord, ctx?: PacketContext): ResolvedAction | undefined => {
    const a = owner.action;
    if (!a) return undefined;
    if (a.kind === 'action') return decode(a.call);
    // Indirect: which member runs can change per packet (groups) and per write (members).
    const call = ctx && services.selection ? services.selection.choose(ctx, a) : undefined;
    return call ? decode(call) : undefined;
  };

  // The program's entries (const entries, or initial entries of a non-const table).
  const programEntries: Candidate[] = (services.programEntriesInstalled && store ? [] : table.entries).map((e, order) => {
    const tests = keys.map((k, i) => narrow(keysetTest(e.keys[i], widths[i]!, k.matchKind), widths[i]!));
    const cpWidths = paramWidths(e.action.actionId);
    return {
      tests,
      rank: e.priority ?? (lpmIndex >= 0 ? prefixLength(tests, lpmIndex) : -order),
      order,
      action: resolved0(e.action.actionId, e.action.args.map((a, i) => parseConst(a, cpWidths[i] ?? 32))),
      record: undefined,
    };
  });
  programEntries.sort((a, b) => b.rank - a.rank || a.order - b.order);

  let candidates: Candidate[] = [];
  let candidatesVersion = -1;
  // A table whose only key is LPM gets a per-prefix-length index instead of a scan.
  const lpmOnly = keys.length === 1 && lpmIndex === 0;
  let lpm: LpmIndex<Candidate> | undefined;
  const candidateOf = (s: TableStore, record: TableEntryRecord, order: number): Candidate => {
    // `fields` may be sparse (don't-care fields left out): index it rather than map it. A stored
    // record decodes it from its key on every read (table-store.ts): read it once.
    const fields = record.fields;
    const tests = widths.map((w, i) => testOf(fields[i], w));
    const lpmField = lpmIndex >= 0 ? fields[lpmIndex] : undefined;
    const rank = lpmIndex >= 0 && !s.info.needsPriority ? (lpmField?.kind === 'lpm' ? lpmField.prefixLen : 0) : record.priority;
    return { tests, rank, order, action: undefined, record };
  };
  const lpmValue = (c: Candidate): Bits | undefined => {
    const t = c.tests[0]!;
    return t.kind === 'mask' ? t.value : t.kind === 'any' ? zeroOf(widths[0]!) : undefined;
  };
  const addToLpm = (index: LpmIndex<Candidate>, c: Candidate): void => {
    const value = lpmValue(c);
    if (value !== undefined) index.add(value, c.rank, c);
  };
  /** Brings the LPM index up to the store's version from the store's journal; false when it must be rebuilt. */
  const catchUpLpm = (s: TableStore, index: LpmIndex<Candidate>): boolean => {
    const changes = s.changesSince(candidatesVersion);
    if (!changes) return false;
    for (const change of changes) {
      const removed = change.removed;
      if (removed) {
        const c = candidateOf(s, removed, 0);
        const value = lpmValue(c);
        if (value !== undefined) index.remove(value, c.rank, (item) => item.record === removed);
      }
      if (change.added) addToLpm(index, candidateOf(s, change.added, 0));
    }
    return true;
  };
  const refreshCandidates = (s: TableStore): void => {
    if (candidatesVersion === s.version) return;
    if (lpm && catchUpLpm(s, lpm)) {
      candidatesVersion = s.version;
      return;
    }
    const list: Candidate[] = [];
    let order = 0;
    for (const record of s.entries()) list.push(candidateOf(s, record, order++));
    candidatesVersion = s.version;
    if (lpmOnly) {
      // The LPM index needs no order: the store holds one entry per value and prefix length.
      lpm = new LpmIndex<Candidate>(widths[0]!);
      for (const c of list) addToLpm(lpm, c);
      return;
    }
    list.sort((a, b) => b.rank - a.rank || a.order - b.order);
    candidates = list;
  };

  const raw: Bits[] = new Array<Bits>(keys.length).fill(0);
  // A bool key (`h.isValid()`) evaluates to true/false; entries hold it as the 1-bit value P4Runtime writes.
  const boolKeys = keys.flatMap((k, i) => (k.expression.type.kind === 'bool' ? [i] : []));
  const firstMatch = (list: readonly Candidate[]): Candidate | undefined => {
    for (const c of list) {
      let ok = true;
      for (let i = 0; i < c.tests.length && ok; i++) ok = passes(c.tests[i]!, raw[i]!);
      if (ok) return c;
    }
    return undefined;
  };
  const exactKey = (): string => {
    let key = '';
    for (let i = 0; i < raw.length; i++) key += keyChars(raw[i]!, widths[i]!);
    return key;
  };

  const result: TableResult = { hit: false, action: '', flow: FLOW_NEXT };
  const run = (ctx: PacketContext, action: ResolvedAction): void => {
    const runner = action.runner;
    result.action = action.name;
    if (!runner) {
      result.flow = FLOW_NEXT;
      return;
    }
    ctx.actionParams = action.params as Value[];
    result.flow = runner(ctx);
  };
  const noAction = resolved0(0, []);
  const d = table.defaultAction;
  const irDefault = resolved0(d.actionId, d.args.map((a, i) => parseConst(a, paramWidths(d.actionId)[i] ?? 32)));

  return (ctx) => {
    evaluateKeys(ctx, raw as Value[]);
    for (let b = 0; b < boolKeys.length; b++) raw[boolKeys[b]!] = raw[boolKeys[b]!] ? 1 : 0;
    let record: TableEntryRecord | undefined;
    let programHit: Candidate | undefined;
    if (store) {
      if (allExact) record = keys.length > 0 ? store.lookupExact(exactKey()) : undefined;
      else {
        refreshCandidates(store);
        record = (lpm ? lpm.lookup(raw[0]!) : firstMatch(candidates))?.record;
      }
    }
    if (!record && programEntries.length > 0) programHit = firstMatch(programEntries);
    if (record) {
      const action = resolve(record, ctx);
      if (record.counter) {
        record.counter.packets++;
        record.counter.bytes += services.packetLength(ctx);
      }
      if (hitClock) record.lastHit = hitClock();
      result.hit = true;
      ctx.entry = record;
      run(ctx, action ?? noAction);
      return result;
    }
    if (programHit) {
      result.hit = true;
      ctx.entry = undefined;
      run(ctx, programHit.action ?? noAction);
      return result;
    }
    result.hit = false;
    const def = store?.defaultEntry;
    if (def?.counter) {
      def.counter.packets++;
      def.counter.bytes += services.packetLength(ctx);
    }
    const action = def ? resolve(def, ctx) : undefined;
    ctx.entry = def;
    run(ctx, action ?? irDefault);
    return result;
  };
}
