/**
 * Runs an STF test against p4ina's switch in process: compiles the program
 * with our front end, loads it into a SwitchDevice whose ports capture what
 * it sends, programs it through the device state exactly as P4Runtime writes
 * would (so refusals read as they would over P4Runtime), injects packets,
 * and checks every expectation. Everything is synchronous: a `packet` line
 * has been processed to the end, every copy sent, before the next line runs,
 * so there are no sleeps and `wait` has nothing to wait for.
 *
 * The file is checked completely before anything runs: syntax, then every
 * table, action, field, parameter, register and counter name and value
 * against the program's P4Info. Then the commands run in order, and the
 * packets each port sent are compared with the `expect` lines for that port,
 * in order, at the end (as p4c's runner does).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { moduleLogger } from '../log/logger.js';
import { compileProgram, formatDiagnostics } from '../p4c/index.js';
import { serializeIr } from '../p4c/ir/serialize.js';
import type { ActionInfo, TableInfo } from '../p4info/entities.js';
import { P4Schema } from '../p4info/schema.js';
import { action as actionSpec } from '../p4runtime/entities/action.js';
import { cloneSession } from '../p4runtime/entities/clone-session.js';
import { counter as counterEntity } from '../p4runtime/entities/counter-entry.js';
import type { MatchInput } from '../p4runtime/entities/match.js';
import { multicastGroup } from '../p4runtime/entities/multicast-group.js';
import { register as registerEntity } from '../p4runtime/entities/register-entry.js';
import { defaultEntry, table as tableEntity, type TableEntry } from '../p4runtime/entities/table-entry.js';
import { encodeUpdate, type Update } from '../p4runtime/update.js';
import { P4inaError } from '../errors/p4ina-error.js';
import { decodeMessage, encodeMessage } from '../proto/codec.js';
import type * as p4i from '../proto/p4i.js';
import type * as p4r from '../proto/p4r.js';
import { SwitchDevice } from '../switch/device/switch-device.js';
import { MAX_PORT_NUMBER } from '../switch/ports/port-number.js';
import { PortSet } from '../switch/ports/port-set.js';
import { Code, codeName } from '../switch/state/status.js';
import { CapturePort } from './capture-port.js';
import type { ActionText, CellRef, Comparison, ExpectPattern, StfCommand } from './stf-commands.js';
import { comparePacket, describeMismatch } from './stf-compare.js';
import { STF_ERROR_CODES, StfError, type StfDiagnostic } from './stf-error.js';
import { resolveCounter, resolveKeyField, resolveParam, resolveRegister, resolveTable, resolveTableAction } from './stf-names.js';
import { parseStf } from './stf-parser.js';
import { matchInput, parseStfValue } from './stf-values.js';

export interface StfOptions {
  /** The P4-16 v1model program. */
  readonly program: string;
  /** The STF test file. */
  readonly stf: string;
  /** The program's source, instead of reading `program`. */
  readonly programText?: string;
  /** The STF text, instead of reading `stf`. */
  readonly stfText?: string;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly string[];
  readonly logger?: Logger;
}

/**
 * passed: every expectation held. failed: the test ran and something did not
 * hold. error: it could not run (STF errors, the program does not compile).
 */
export type StfStatus = 'passed' | 'failed' | 'error';

export type StfFailureKind = 'mismatch' | 'missing' | 'unexpected' | 'refused' | 'check';

export interface StfFailure {
  /** The expect/check line, the refused command's line, or for an unexpected packet the line of the packet that caused it. */
  readonly line: number;
  readonly kind: StfFailureKind;
  readonly message: string;
  readonly port?: number;
  /** The expected pattern (hex, `*` nibbles, `$`). */
  readonly expected?: string;
  /** What the switch sent (hex). */
  readonly received?: string;
}

/** A value printed by register_read / counter_read. */
export interface StfReading {
  readonly line: number;
  readonly what: string;
  readonly value: string;
}

export interface StfResult {
  readonly status: StfStatus;
  readonly program: string;
  readonly stf: string;
  /** Errors in the STF file or the inputs (status "error"). */
  readonly errors: readonly StfDiagnostic[];
  /** The front end's diagnostics when the program does not compile. */
  readonly compileDiagnostics: string;
  readonly failures: readonly StfFailure[];
  readonly readings: readonly StfReading[];
  readonly counts: { readonly commands: number; readonly packetsIn: number; readonly packetsOut: number; readonly expects: number; readonly checks: number };
}

interface Expectation {
  readonly line: number;
  readonly pattern: ExpectPattern;
}

/** What the steps share while the test runs. */
interface RunContext {
  readonly device: SwitchDevice;
  readonly schema: P4Schema;
  readonly ports: CapturePort[];
  readonly current: { cause: number };
  readonly failures: StfFailure[];
  readonly readings: StfReading[];
  /** Entries added with `= HANDLE`, by handle. */
  readonly handles: Map<string, TableEntry>;
  /** Every entry the test added, for `remove all`. */
  readonly added: { line: number; entry: TableEntry }[];
  /** BMv2's L1 multicast nodes by handle, and each group's nodes in association order. */
  readonly nodes: Map<number, { rid: number; ports: readonly number[] }>;
  nextNode: number;
  readonly groups: Map<number, number[]>;
}

type Step = (ctx: RunContext) => void;

const FAILED_BEFORE_RUNNING = { commands: 0, packetsIn: 0, packetsOut: 0, expects: 0, checks: 0 };

function errorResult(options: StfOptions, errors: StfDiagnostic[], compileDiagnostics = ''): StfResult {
  return { status: 'error', program: options.program, stf: options.stf, errors, compileDiagnostics, failures: [], readings: [], counts: FAILED_BEFORE_RUNNING };
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e);
    throw new StfError(STF_ERROR_CODES.input, `cannot read the ${what} ${file}: ${why}`);
  }
}

/** Runs one STF test. Never throws for bad input: errors and failures are in the result. */
export function runStf(options: StfOptions): StfResult {
  let stfText: string;
  let programText: string;
  try {
    stfText = options.stfText ?? readText(options.stf, 'STF file');
    programText = options.programText ?? readText(options.program, 'program');
  } catch (e) {
    if (e instanceof StfError) return errorResult(options, [{ line: 0, code: e.code, message: e.message }]);
    throw e;
  }
  const parsed = parseStf(stfText);
  const compiled = compileProgram(options.program, { includeDirs: [...(options.includeDirs ?? [])], defines: [...(options.defines ?? [])], text: programText });
  if (!compiled.p4info || !compiled.ir) {
    const message = `${path.basename(options.program)} does not compile; fix the program first`;
    return errorResult(options, [...parsed.errors, { line: 0, code: STF_ERROR_CODES.input, message }], formatDiagnostics(compiled.diagnostics));
  }
  // The P4Info as the switch receives it over the wire.
  const p4info = decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', encodeMessage('p4.config.v1.P4Info', compiled.p4info));
  const schema = new P4Schema(p4info);
  const errors = [...parsed.errors];
  const steps: { line: number; step: Step }[] = [];
  const expectations = new Map<number, Expectation[]>();
  const anyCount = new Set<number>();
  let packetsIn = 0;
  let checks = 0;
  const handles = new Set<string>();
  for (const command of parsed.commands) {
    try {
      if (command.kind === 'expect') {
        if (command.pattern) {
          const list = expectations.get(command.port) ?? [];
          list.push({ line: command.line, pattern: command.pattern });
          expectations.set(command.port, list);
        } else anyCount.add(command.port);
        continue;
      }
      if (command.kind === 'packet') packetsIn++;
      if (command.kind === 'check_counter' || command.kind === 'check_register') checks++;
      if (command.kind === 'add' && command.handle !== undefined) {
        if (handles.has(command.handle)) throw new StfError(STF_ERROR_CODES.syntax, `entry handle "${command.handle}" is given to two entries; use a new name`, command.line);
        handles.add(command.handle);
      }
      if (command.kind === 'check_counter' && typeof command.cell.index !== 'number' && !handles.has(command.cell.index.handle)) {
        throw new StfError(STF_ERROR_CODES.unknownName, `no entry was added with "= ${command.cell.index.handle}" before this line`, command.line);
      }
      steps.push({ line: command.line, step: prepare(command, schema) });
    } catch (e) {
      if (e instanceof StfError) errors.push({ line: e.line || command.line, code: e.code, message: e.message });
      else if (P4inaError.is(e)) errors.push({ line: command.line, code: STF_ERROR_CODES.badValue, message: e.message });
      else throw e;
    }
  }
  if (errors.length > 0) return errorResult(options, errors.sort((a, b) => a.line - b.line));

  const logger = options.logger ?? moduleLogger('stf');
  const current = { cause: 0 };
  const ports: CapturePort[] = [];
  for (let n = 0; n <= MAX_PORT_NUMBER; n++) ports.push(new CapturePort(n, current));
  const device = new SwitchDevice({ ports: new PortSet(ports), logger });
  try {
    device.loadPipeline(p4info, serializeIr(compiled.ir));
  } catch (e) {
    return errorResult(options, [{ line: 0, code: STF_ERROR_CODES.input, message: `the switch refused the compiled program: ${e instanceof Error ? e.message : String(e)}` }]);
  }
  const ctx: RunContext = { device, schema, ports, current, failures: [], readings: [], handles: new Map(), added: [], nodes: new Map(), nextNode: 0, groups: new Map() };
  for (const { line, step } of steps) {
    current.cause = line;
    try {
      step(ctx);
    } catch (e) {
      // Values were checked before running; whatever is left is reported against its line, not thrown.
      if (!P4inaError.is(e)) throw e;
      ctx.failures.push({ line, kind: 'refused', message: e.message });
    }
  }
  // No listeners, sockets or servers were started: dropping the device is enough.
  const packetsOut = ports.reduce((n, p) => n + p.sent.length, 0);
  checkOutputs(ctx, expectations, anyCount);
  const failures = ctx.failures.sort((a, b) => a.line - b.line);
  const expects = [...expectations.values()].reduce((n, l) => n + l.length, 0);
  return {
    status: failures.length === 0 ? 'passed' : 'failed',
    program: options.program,
    stf: options.stf,
    errors: [],
    compileDiagnostics: '',
    failures,
    readings: ctx.readings,
    counts: { commands: parsed.commands.length, packetsIn, packetsOut, expects, checks },
  };
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();
const patternText = (p: ExpectPattern): string => p.nibbles + (p.exactLength ? '$' : '');

/** Compares what each port sent with its expect lines, in order. */
function checkOutputs(ctx: RunContext, expectations: Map<number, Expectation[]>, anyCount: Set<number>): void {
  for (const port of ctx.ports) {
    const n = port.number;
    if (anyCount.has(n)) continue;
    const want = expectations.get(n) ?? [];
    const got = port.sent;
    for (let i = 0; i < Math.max(want.length, got.length); i++) {
      const w = want[i];
      const g = got[i];
      if (w && g) {
        const m = comparePacket(w.pattern, g.frame);
        if (m) {
          ctx.failures.push({ line: w.line, kind: 'mismatch', port: n, message: `packet #${i + 1} on port ${n} (from the packet at line ${g.cause}) ${describeMismatch(m)}`, expected: patternText(w.pattern), received: hex(g.frame) });
        }
      } else if (w) {
        ctx.failures.push({ line: w.line, kind: 'missing', port: n, message: `expected packet #${i + 1} on port ${n}, but the switch sent only ${got.length} there`, expected: patternText(w.pattern) });
      } else if (g) {
        const why = want.length === 0 ? 'no packet was expected there' : `only ${want.length} were expected there`;
        ctx.failures.push({ line: g.cause, kind: 'unexpected', port: n, message: `unexpected packet #${i + 1} on port ${n}: ${why} (write "expect ${n}" with no data to accept any)`, received: hex(g.frame) });
      }
    }
  }
}

/** Applies one update through the device state, as a P4Runtime Write with one update; a refusal is a failure of `line`. */
function write(ctx: RunContext, line: number, update: p4r.Update, what: string): boolean {
  const decoded = decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', update));
  const result = ctx.device.state.write([decoded], 'CONTINUE_ON_ERROR');
  const s = Array.isArray(result) ? result[0]! : result;
  if (s.code === Code.OK) return true;
  ctx.failures.push({ line, kind: 'refused', message: `the switch refused ${what}: ${codeName(s.code)}: ${s.message}` });
  return false;
}

/** Reads entities through the device state, as a P4Runtime Read; a refusal is a failure of `line`. */
function read(ctx: RunContext, line: number, entity: p4r.Entity, what: string): p4r.Entity[] | undefined {
  const decoded = decodeMessage<p4r.Entity__Output>('p4.v1.Entity', encodeMessage('p4.v1.Entity', entity));
  const result = ctx.device.state.read([decoded]);
  if ('code' in result) {
    ctx.failures.push({ line, kind: 'refused', message: `the switch refused to read ${what}: ${codeName(result.code)}: ${result.message}` });
    return undefined;
  }
  return [...result];
}

function encode(update: Update, schema: P4Schema, line: number): p4r.Update {
  try {
    return encodeUpdate(update, schema);
  } catch (e) {
    if (P4inaError.is(e)) throw new StfError(STF_ERROR_CODES.badValue, e.message, line);
    throw e;
  }
}

function actionOf(schema: P4Schema, table: TableInfo, text: ActionText, line: number): { info: ActionInfo; params: Record<string, bigint> } {
  const info = resolveTableAction(schema, table, text.name, line);
  const params: Record<string, bigint> = {};
  for (const arg of text.args) {
    const p = resolveParam(info, arg.name, line);
    if (p.name in params) throw new StfError(STF_ERROR_CODES.syntax, `parameter ${p.name} of ${info.name} is given twice`, line);
    params[p.name] = parseStfValue(arg.value, line, `parameter ${p.name} of ${info.name}`);
  }
  const missing = info.params.all.filter((p) => !(p.name in params)).map((p) => p.name);
  if (missing.length) throw new StfError(STF_ERROR_CODES.badValue, `${info.name} needs ${missing.length === 1 ? 'parameter' : 'parameters'} ${missing.join(', ')}: write ${info.name}(${info.params.all.map((p) => `${p.name}:VALUE`).join(', ')})`, line);
  return { info, params };
}

function compare(a: bigint, op: Comparison, b: bigint): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function fmt(v: bigint): string {
  return `${v} (0x${v.toString(16)})`;
}

/** The replicas of a multicast group from its BMv2-style nodes. */
function replicasOf(ctx: RunContext, group: number): { port: number; instance: number }[] {
  return (ctx.groups.get(group) ?? []).flatMap((h) => {
    const node = ctx.nodes.get(h)!;
    return node.ports.map((port) => ({ port, instance: node.rid }));
  });
}

function writeGroup(ctx: RunContext, line: number, group: number, type: 'INSERT' | 'MODIFY' | 'DELETE', what: string): boolean {
  const update = encodeUpdate({ type, entity: multicastGroup(group, type === 'DELETE' ? [] : replicasOf(ctx, group)) }, ctx.schema);
  return write(ctx, line, update, what);
}

function cellValue(ctx: RunContext, line: number, cell: CellRef, kind: 'register', schema: P4Schema): bigint | undefined {
  const info = resolveRegister(schema, cell.name, line);
  const got = read(ctx, line, { register_entry: { register_id: info.id, index: { index: cell.index as number } } }, `register ${info.name}[${String(cell.index)}]`);
  const data = got?.[0]?.register_entry?.data;
  if (!data) return undefined;
  if (!data.bitstring) {
    ctx.failures.push({ line, kind: 'check', message: `${kind} ${info.name} does not hold a plain bit<W> value` });
    return undefined;
  }
  return BigInt(`0x${hex(data.bitstring as Uint8Array) || '0'}`);
}

/** The counter data of an indexed counter cell or of a direct counter's entry. */
function counterData(ctx: RunContext, line: number, name: string, index: CellRef['index']): { label: string; packets: bigint; bytes: bigint } | undefined {
  const c = resolveCounter(ctx.schema, name, line);
  let entity: p4r.Entity;
  let label: string;
  if (c.kind === 'indexed' && typeof index === 'number') {
    entity = { counter_entry: { counter_id: c.counter.id, index: { index } } };
    label = `counter ${c.counter.name}[${index}]`;
  } else if (c.kind === 'direct' && typeof index !== 'number') {
    const entry = ctx.handles.get(index.handle);
    if (!entry) {
      ctx.failures.push({ line, kind: 'check', message: `entry $${index.handle} is not installed (its add failed or it was removed)` });
      return undefined;
    }
    entity = { direct_counter_entry: { table_entry: entry.encodeTableEntry(ctx.schema, 'read', true) } };
    label = `direct counter ${c.counter.name} of entry $${index.handle}`;
  } else return undefined; // prepare() checked the index form
  const got = read(ctx, line, entity, label);
  if (!got) return undefined;
  const data = got[0]?.counter_entry?.data ?? got[0]?.direct_counter_entry?.data;
  return { label, packets: BigInt(String(data?.packet_count ?? 0)), bytes: BigInt(String(data?.byte_count ?? 0)) };
}

/** P4Runtime keeps id 0 of multicast groups and clone sessions for wildcard reads. */
function positiveId(id: number, what: string, line: number): void {
  if (id === 0) throw new StfError(STF_ERROR_CODES.badValue, `${what} 0 cannot be programmed over P4Runtime (0 is its wildcard); use an id from 1`, line);
}

/** Checks that a counter is addressed as its kind wants: an indexed one by index, a direct one by entry handle. */
function checkCounterIndex(schema: P4Schema, name: string, index: CellRef['index'], line: number): void {
  const c = resolveCounter(schema, name, line);
  if (c.kind === 'indexed' && typeof index !== 'number') {
    throw new StfError(STF_ERROR_CODES.badValue, `${c.counter.name} is an indexed counter: address it by index, not by entry handle`, line);
  }
  if (c.kind === 'direct' && typeof index === 'number') {
    throw new StfError(STF_ERROR_CODES.badValue, `${c.counter.name} is a direct counter: address it by the handle of an entry (add ... = H, then ${c.counter.name}($H))`, line);
  }
}

/** Resolves one command against the program and returns what running it does. Throws StfError for bad names or values. */
function prepare(command: StfCommand, schema: P4Schema): Step {
  const line = command.line;
  switch (command.kind) {
    case 'add': {
      const table = resolveTable(schema, command.table, line);
      if (table.implementationId !== 0) throw new StfError(STF_ERROR_CODES.badValue, `table ${table.name} takes its actions from an action profile, which STF add cannot fill`, line);
      const match: Record<string, MatchInput | undefined> = {};
      for (const key of command.keys) {
        const field = resolveKeyField(table, key.name, line);
        if (field.name in match) throw new StfError(STF_ERROR_CODES.syntax, `key field ${field.name} is given twice`, line);
        match[field.name] = matchInput(field, key.value, line);
      }
      // As p4c's runner: exact fields left out match 0.
      for (const f of table.matchFields.all) if (f.matchType === 'EXACT' && !(f.name in match)) match[f.name] = 0n;
      if (table.needsPriority && command.priority === undefined) {
        throw new StfError(STF_ERROR_CODES.syntax, `table ${table.name} has ternary, range or optional fields: give a priority after the table name (add ${command.table} 10 ...; higher wins)`, line);
      }
      const { info, params } = actionOf(schema, table, command.action, line);
      // STF priorities may be 0 and higher wins, as in P4Runtime where they must be > 0.
      const priority = table.needsPriority ? command.priority! + 1 : 0;
      const entry = tableEntity(table.name, match, actionSpec(info.name, params), { priority });
      const update = encode({ type: 'INSERT', entity: entry }, schema, line);
      return (ctx) => {
        if (!write(ctx, line, update, `the entry for ${table.name}`)) return;
        ctx.added.push({ line, entry });
        if (command.handle !== undefined) ctx.handles.set(command.handle, entry);
      };
    }
    case 'setdefault': {
      const table = resolveTable(schema, command.table, line);
      const { info, params } = actionOf(schema, table, command.action, line);
      const update = encode({ type: 'MODIFY', entity: defaultEntry(table.name, actionSpec(info.name, params)) }, schema, line);
      return (ctx) => void write(ctx, line, update, `the default action of ${table.name}`);
    }
    case 'remove_all':
      return (ctx) => {
        for (const { entry } of ctx.added.splice(0)) write(ctx, line, encodeUpdate({ type: 'DELETE', entity: entry }, ctx.schema), `deleting an entry of ${entry.table}`);
        ctx.handles.clear();
      };
    case 'packet':
      return (ctx) => ctx.ports[command.port]!.inject(command.data);
    case 'expect':
    case 'wait':
    case 'no_packet':
      // Processing is synchronous: nothing is pending. Expectations are checked at the end.
      return () => undefined;
    case 'mc_mgrp_create':
      positiveId(command.group, 'multicast group', line);
      return (ctx) => {
        if (writeGroup(ctx, line, command.group, 'INSERT', `multicast group ${command.group}`)) ctx.groups.set(command.group, []);
      };
    case 'mc_mgrp_destroy':
      return (ctx) => {
        if (writeGroup(ctx, line, command.group, 'DELETE', `deleting multicast group ${command.group}`)) ctx.groups.delete(command.group);
      };
    case 'mc_node_create':
      // BMv2 numbers nodes from 0 in creation order; the STF refers to them by that handle.
      return (ctx) => void ctx.nodes.set(ctx.nextNode++, { rid: command.rid, ports: [...new Set(command.ports)].sort((a, b) => a - b) });
    case 'mc_node_destroy':
      return (ctx) => {
        if (!ctx.nodes.has(command.handle)) return void ctx.failures.push({ line, kind: 'refused', message: `no multicast node with handle ${command.handle}` });
        for (const [group, handles] of ctx.groups) {
          if (!handles.includes(command.handle)) continue;
          handles.splice(handles.indexOf(command.handle), 1);
          writeGroup(ctx, line, group, 'MODIFY', `multicast group ${group}`);
        }
        ctx.nodes.delete(command.handle);
      };
    case 'mc_node_associate':
    case 'mc_node_dissociate':
      return (ctx) => {
        const handles = ctx.groups.get(command.group);
        if (!handles) return void ctx.failures.push({ line, kind: 'refused', message: `multicast group ${command.group} was not created (mc_mgrp_create ${command.group})` });
        if (!ctx.nodes.has(command.handle)) return void ctx.failures.push({ line, kind: 'refused', message: `no multicast node with handle ${command.handle} (handles count from 0 in mc_node_create order)` });
        const at = handles.indexOf(command.handle);
        if (command.kind === 'mc_node_associate') {
          if (at >= 0) return void ctx.failures.push({ line, kind: 'refused', message: `node ${command.handle} is already in multicast group ${command.group}` });
          handles.push(command.handle);
        } else {
          if (at < 0) return void ctx.failures.push({ line, kind: 'refused', message: `node ${command.handle} is not in multicast group ${command.group}` });
          handles.splice(at, 1);
        }
        if (!writeGroup(ctx, line, command.group, 'MODIFY', `multicast group ${command.group}`)) {
          if (command.kind === 'mc_node_associate') handles.pop();
          else handles.splice(at, 0, command.handle);
        }
      };
    case 'mirroring_add': {
      positiveId(command.session, 'mirroring session', line);
      const session = cloneSession(command.session, [{ port: command.port, instance: 0 }]);
      const insert = encode({ type: 'INSERT', entity: session }, schema, line);
      const modify = encode({ type: 'MODIFY', entity: session }, schema, line);
      return (ctx) => {
        // BMv2 replaces a session that exists; P4Runtime wants MODIFY for that.
        const exists = ctx.device.state.current?.forwarding.pre.cloneSessions.has(command.session) ?? false;
        write(ctx, line, exists ? modify : insert, `mirroring session ${command.session}`);
      };
    }
    case 'mirroring_delete': {
      positiveId(command.session, 'mirroring session', line);
      const update = encode({ type: 'DELETE', entity: cloneSession(command.session) }, schema, line);
      return (ctx) => void write(ctx, line, update, `deleting mirroring session ${command.session}`);
    }
    case 'register_write': {
      const info = resolveRegister(schema, command.register, line);
      const value = parseStfValue(command.value, line, `value for ${info.name}`);
      const update = encode({ type: 'MODIFY', entity: registerEntity(info.name, { index: command.index, value }) }, schema, line);
      return (ctx) => void write(ctx, line, update, `writing register ${info.name}[${command.index}]`);
    }
    case 'register_reset': {
      const info = resolveRegister(schema, command.register, line);
      const update = encode({ type: 'MODIFY', entity: registerEntity(info.name, { value: 0n }) }, schema, line);
      return (ctx) => void write(ctx, line, update, `resetting register ${info.name}`);
    }
    case 'register_read': {
      const info = resolveRegister(schema, command.register, line);
      const cell = { name: info.name, index: command.index };
      return (ctx) => {
        const v = cellValue(ctx, line, cell, 'register', schema);
        if (v !== undefined) ctx.readings.push({ line, what: `${info.name}[${command.index}]`, value: fmt(v) });
      };
    }
    case 'check_register': {
      const info = resolveRegister(schema, command.cell.name, line);
      const want = parseStfValue(command.value, line, `value for ${info.name}`);
      const cell = { name: info.name, index: command.cell.index };
      return (ctx) => {
        const v = cellValue(ctx, line, cell, 'register', schema);
        if (v === undefined || compare(v, command.op, want)) return;
        ctx.failures.push({ line, kind: 'check', message: `register ${info.name}[${String(command.cell.index)}] is ${fmt(v)}, expected ${command.op} ${fmt(want)}` });
      };
    }
    case 'counter_read': {
      checkCounterIndex(schema, command.counter, command.index, line);
      return (ctx) => {
        const d = counterData(ctx, line, command.counter, command.index);
        if (d) ctx.readings.push({ line, what: d.label.replace(/^counter /, ''), value: `packets=${d.packets} bytes=${d.bytes}` });
      };
    }
    case 'counter_write':
    case 'counter_reset': {
      const c = resolveCounter(schema, command.counter, line);
      if (c.kind !== 'indexed') throw new StfError(STF_ERROR_CODES.badValue, `${c.counter.name} is a direct counter; ${command.kind} works on indexed counters`, line);
      const data = command.kind === 'counter_write' ? { packetCount: command.packets, byteCount: command.bytes } : { packetCount: 0, byteCount: 0 };
      const index = command.kind === 'counter_write' ? command.index : undefined;
      const update = encode({ type: 'MODIFY', entity: counterEntity(c.counter.name, { index, data }) }, schema, line);
      return (ctx) => void write(ctx, line, update, `writing counter ${c.counter.name}`);
    }
    case 'check_counter': {
      checkCounterIndex(schema, command.cell.name, command.cell.index, line);
      return (ctx) => {
        const d = counterData(ctx, line, command.cell.name, command.cell.index);
        if (!d) return;
        const v = command.field === 'packets' ? d.packets : d.bytes;
        if (!compare(v, command.op, command.value)) {
          ctx.failures.push({ line, kind: 'check', message: `${d.label}: ${command.field} is ${v}, expected ${command.op} ${command.value}` });
        }
      };
    }
  }
}
