/**
 * Reads STF text into commands, one line at a time, as p4c's BMv2 runner
 * reads it: `#` starts a comment, a command is one line, keywords are case
 * insensitive. Every malformed line is reported (with its line number and
 * what to write instead); the good lines are still returned.
 */
import type { ActionText, CellRef, Comparison, CounterField, ExpectPattern, NameValue, StfCommand } from './stf-commands.js';
import { STF_ERROR_CODES, StfError, type StfDiagnostic } from './stf-error.js';

export interface ParsedStf {
  readonly commands: readonly StfCommand[];
  readonly errors: readonly StfDiagnostic[];
}

/** Every command keyword this runner knows, for the "unknown command" message. */
export const STF_KEYWORDS = [
  'add', 'setdefault', 'remove', 'packet', 'expect', 'no_packet', 'wait',
  'mc_mgrp_create', 'mc_mgrp_destroy', 'mc_node_create', 'mc_node_destroy', 'mc_node_associate', 'mc_node_dissociate',
  'mirroring_add', 'mirroring_delete',
  'register_write', 'register_read', 'register_reset', 'check_register',
  'counter_read', 'counter_write', 'counter_reset', 'check_counter',
] as const;

/** Commands of simple_switch_CLI that p4c's runner passes through but this runner does not model. */
const UNSUPPORTED: Record<string, string> = {
  mirroring_add_mc: 'clone sessions to a multicast group are not supported; use mirroring_add SESSION PORT per port',
  mirroring_get: 'mirroring_get only prints in p4c\'s runner; remove the line',
  meter_set_rates: 'meters are not configurable from STF in p4ina yet; remove the line or program the meter over P4Runtime',
  meter_array_set_rates: 'meters are not configurable from STF in p4ina yet; remove the line or program the meter over P4Runtime',
  meter_get_rates: 'meters are not readable from STF in p4ina yet; remove the line',
};

const COMPARISONS: readonly Comparison[] = ['==', '!=', '<=', '>=', '<', '>'];
const IDENT = /^[A-Za-z_$][\w$.[\]]*$/;

function syntax(line: number, message: string): StfError {
  return new StfError(STF_ERROR_CODES.syntax, message, line);
}

/** A non-negative integer in decimal, 0x hex, 0b binary or 0o octal. */
export function parseInteger(text: string): bigint | undefined {
  if (/^\d+$/.test(text)) return BigInt(text);
  if (/^0[xX][0-9a-fA-F]+$/.test(text) || /^0[bB][01]+$/.test(text) || /^0[oO][0-7]+$/.test(text)) return BigInt(text.toLowerCase());
  return undefined;
}

function number(text: string | undefined, what: string, line: number, max: number): number {
  if (text === undefined || text === '') throw syntax(line, `missing ${what}`);
  const v = parseInteger(text);
  if (v === undefined) throw syntax(line, `${what} "${text}" is not a number (write decimal or 0x-hex)`);
  if (v > BigInt(max)) throw syntax(line, `${what} ${text} is above ${max}`);
  return Number(v);
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

function expectArgs(args: string[], count: number, usage: string, line: number): void {
  if (args.length !== count) throw syntax(line, `expected ${usage}`);
}

/** `name:value`, with the value kept as text. */
function nameValue(word: string, what: string, line: number): NameValue {
  const at = word.indexOf(':');
  if (at <= 0 || at === word.length - 1) throw syntax(line, `${what} "${word}" must be written NAME:VALUE`);
  return { name: word.slice(0, at), value: word.slice(at + 1) };
}

/** Joins the pieces that belong together in a key or argument (`a : 1`, `10.0.0.0 / 8`, `1 -> 5`). */
function tightenOperators(text: string): string {
  return text.replace(/\s*(->|&&&|\/|:)\s*/g, '$1');
}

/** `NAME(ARG:VALUE, ...)` with the text starting at the name. */
function actionCall(text: string, line: number): ActionText {
  const open = text.indexOf('(');
  const name = text.slice(0, open).trim();
  if (!IDENT.test(name)) throw syntax(line, `"${name}" is not an action name; write ACTION(PARAM:VALUE, ...)`);
  const close = text.lastIndexOf(')');
  if (close < open) throw syntax(line, `the call of ${name} has no closing ")"`);
  if (text.slice(close + 1).trim() !== '') throw syntax(line, `unexpected "${text.slice(close + 1).trim()}" after the call of ${name}`);
  const inner = tightenOperators(text.slice(open + 1, close)).trim();
  const args = inner === '' ? [] : inner.split(',').map((a) => {
    const arg = a.trim();
    if (arg === '') throw syntax(line, `empty argument in the call of ${name}`);
    if (/\s/.test(arg)) throw syntax(line, `argument "${arg}" of ${name} must be written PARAM:VALUE, separated by commas`);
    return nameValue(arg, `argument of ${name}`, line);
  });
  return { name, args };
}

function parseAdd(rest: string, line: number): StfCommand {
  let text = rest;
  let handle: string | undefined;
  const withHandle = /\)\s*=\s*([A-Za-z_$][\w$]*)\s*$/.exec(text);
  if (withHandle) {
    handle = withHandle[1];
    text = text.slice(0, withHandle.index + 1);
  }
  const open = text.indexOf('(');
  if (open < 0) throw syntax(line, 'add needs an action: add TABLE [PRIORITY] FIELD:VALUE ... ACTION(PARAM:VALUE, ...)');
  const before = words(tightenOperators(text.slice(0, open)));
  // The action name is the last word before "(".
  const actionName = before.pop();
  if (actionName === undefined || actionName.includes(':')) throw syntax(line, 'add needs an action name before "(": add TABLE [PRIORITY] FIELD:VALUE ... ACTION(PARAM:VALUE, ...)');
  const table = before.shift();
  if (table === undefined) throw syntax(line, 'add needs a table: add TABLE [PRIORITY] FIELD:VALUE ... ACTION(PARAM:VALUE, ...)');
  if (!IDENT.test(table)) throw syntax(line, `"${table}" is not a table name`);
  let priority: number | undefined;
  if (before[0] !== undefined && /^\d/.test(before[0])) priority = number(before.shift(), 'priority', line, 0x7ffffffe);
  const keys = before.map((w) => nameValue(w, 'key', line));
  const action = actionCall(actionName + text.slice(open), line);
  return { kind: 'add', line, table, priority, keys, action, handle };
}

function parseSetDefault(rest: string, line: number): StfCommand {
  const m = /^(\S+)\s+(.*)$/s.exec(rest);
  if (!m || !m[2]!.includes('(')) throw syntax(line, 'expected setdefault TABLE ACTION(PARAM:VALUE, ...)');
  if (!IDENT.test(m[1]!)) throw syntax(line, `"${m[1]}" is not a table name`);
  return { kind: 'setdefault', line, table: m[1]!, action: actionCall(m[2]!, line) };
}

function parsePacket(rest: string, line: number): StfCommand {
  const [portText, ...data] = words(rest);
  const port = number(portText, 'port', line, 510);
  const hex = data.join('');
  if (hex === '') throw syntax(line, 'packet needs its bytes in hex: packet PORT HEX');
  const bad = /[^0-9a-fA-F]/.exec(hex);
  if (bad) throw syntax(line, `packet data may hold only hex digits and spaces, not "${bad[0]}"`);
  if (hex.length % 2 !== 0) throw syntax(line, `packet data has an odd number of hex digits (${hex.length}): a byte is two digits`);
  return { kind: 'packet', line, port, data: Buffer.from(hex, 'hex') };
}

/** The pattern of an expect line: hex digits, `*` for any nibble, an optional `$` at the end. */
export function parseExpectPattern(text: string, line = 0): ExpectPattern {
  let nibbles = text.replace(/\s+/g, '');
  let exactLength = false;
  if (nibbles.endsWith('$')) {
    exactLength = true;
    nibbles = nibbles.slice(0, -1);
  }
  const bad = /[^0-9a-fA-F*]/.exec(nibbles);
  if (bad) {
    const why = bad[0] === '$' ? '"$" may only end the data' : `"${bad[0]}" is neither a hex digit nor "*"`;
    throw syntax(line, `expect data: ${why}`);
  }
  return { nibbles: nibbles.toUpperCase(), exactLength };
}

function parseExpect(rest: string, line: number): StfCommand {
  const m = /^(\S+)\s*(.*)$/s.exec(rest);
  const port = number(m?.[1], 'port', line, 510);
  const data = (m?.[2] ?? '').trim();
  if (data === '') return { kind: 'expect', line, port, pattern: undefined };
  const pattern = parseExpectPattern(data, line);
  if (pattern.nibbles === '') throw syntax(line, 'expect data holds no nibbles before "$"');
  return { kind: 'expect', line, port, pattern };
}

/** `NAME(INDEX)` or `NAME($HANDLE)`, then the rest of the line. */
function cellRef(text: string, usage: string, line: number): { cell: CellRef; rest: string } {
  const m = /^([A-Za-z_$][\w$.[\]]*)\s*\(\s*([^)\s]+)\s*\)\s*(.*)$/s.exec(text);
  if (!m) throw syntax(line, `expected ${usage}`);
  const indexText = m[2]!;
  const index = indexText.startsWith('$') && indexText.length > 1 ? { handle: indexText.slice(1) } : number(indexText, 'index', line, 0xffffffff);
  return { cell: { name: m[1]!, index }, rest: m[3]!.trim() };
}

function comparison(text: string, usage: string, line: number): { op: Comparison; value: string } {
  const op = COMPARISONS.find((c) => text.startsWith(c));
  if (!op) throw syntax(line, `expected ${usage}`);
  const value = text.slice(op.length).trim();
  if (value === '' || /\s/.test(value)) throw syntax(line, `expected one value after ${op}: ${usage}`);
  return { op, value };
}

function parseCheckCounter(rest: string, line: number): StfCommand {
  const usage = 'check_counter COUNTER(INDEX) [packets|bytes] OP VALUE, e.g. check_counter c(3) packets == 2';
  const { cell, rest: tail } = cellRef(rest, usage, line);
  if (tail === '') throw syntax(line, `check_counter needs a condition: ${usage}`);
  const m = /^(packets|bytes)\b\s*(.*)$/is.exec(tail);
  const field = (m ? m[1]!.toLowerCase() : 'packets') as CounterField;
  const { op, value } = comparison(m ? m[2]! : tail, usage, line);
  const v = parseInteger(value);
  if (v === undefined) throw syntax(line, `counter value "${value}" is not a number`);
  return { kind: 'check_counter', line, cell, field, op, value: v };
}

function parseCheckRegister(rest: string, line: number): StfCommand {
  const usage = 'check_register REGISTER(INDEX) OP VALUE, e.g. check_register r(0) == 0x2a';
  const { cell, rest: tail } = cellRef(rest, usage, line);
  if (typeof cell.index !== 'number') throw syntax(line, `a register cell is addressed by its index: ${usage}`);
  const { op, value } = comparison(tail, usage, line);
  return { kind: 'check_register', line, cell, op, value };
}

function parseCommand(keyword: string, rest: string, line: number): StfCommand {
  const args = words(rest);
  const name = (i: number, what: string): string => {
    const n = args[i];
    if (n === undefined || !IDENT.test(n)) throw syntax(line, `missing or malformed ${what}`);
    return n;
  };
  switch (keyword) {
    case 'add':
      return parseAdd(rest, line);
    case 'setdefault':
      return parseSetDefault(rest, line);
    case 'remove':
      if (args.length !== 1 || args[0]!.toLowerCase() !== 'all') throw syntax(line, 'only "remove all" is supported (it deletes every table entry the test added)');
      return { kind: 'remove_all', line };
    case 'packet':
      return parsePacket(rest, line);
    case 'expect':
      return parseExpect(rest, line);
    case 'no_packet':
    case 'wait':
      if (args.length) throw syntax(line, `${keyword} takes no arguments`);
      return { kind: keyword, line };
    case 'mc_mgrp_create':
    case 'mc_mgrp_destroy':
      expectArgs(args, 1, `${keyword} GROUP`, line);
      return { kind: keyword, line, group: number(args[0], 'multicast group', line, 0xffff) };
    case 'mc_node_create': {
      if (args.includes('|')) throw syntax(line, 'LAGs are not supported: mc_node_create RID PORT...');
      if (args.length < 1) throw syntax(line, 'expected mc_node_create RID PORT...');
      const rid = number(args[0], 'replication id (rid)', line, 0xffff);
      return { kind: keyword, line, rid, ports: args.slice(1).map((p) => number(p, 'port', line, 510)) };
    }
    case 'mc_node_destroy':
      expectArgs(args, 1, 'mc_node_destroy HANDLE', line);
      return { kind: keyword, line, handle: number(args[0], 'node handle', line, 0xffffffff) };
    case 'mc_node_associate':
    case 'mc_node_dissociate':
      expectArgs(args, 2, `${keyword} GROUP HANDLE`, line);
      return { kind: keyword, line, group: number(args[0], 'multicast group', line, 0xffff), handle: number(args[1], 'node handle', line, 0xffffffff) };
    case 'mirroring_add':
      expectArgs(args, 2, 'mirroring_add SESSION PORT', line);
      return { kind: keyword, line, session: number(args[0], 'mirroring session', line, 0xffffffff), port: number(args[1], 'port', line, 510) };
    case 'mirroring_delete':
      expectArgs(args, 1, 'mirroring_delete SESSION', line);
      return { kind: keyword, line, session: number(args[0], 'mirroring session', line, 0xffffffff) };
    case 'register_write':
      expectArgs(args, 3, 'register_write REGISTER INDEX VALUE', line);
      return { kind: keyword, line, register: name(0, 'register name'), index: number(args[1], 'index', line, 0xffffffff), value: args[2]! };
    case 'register_read':
      expectArgs(args, 2, 'register_read REGISTER INDEX', line);
      return { kind: keyword, line, register: name(0, 'register name'), index: number(args[1], 'index', line, 0xffffffff) };
    case 'register_reset':
      expectArgs(args, 1, 'register_reset REGISTER', line);
      return { kind: keyword, line, register: name(0, 'register name') };
    case 'check_register':
      return parseCheckRegister(rest, line);
    case 'counter_read':
      expectArgs(args, 2, 'counter_read COUNTER INDEX', line);
      return { kind: keyword, line, counter: name(0, 'counter name'), index: number(args[1], 'index', line, 0xffffffff) };
    case 'counter_write': {
      expectArgs(args, 4, 'counter_write COUNTER INDEX PACKETS BYTES', line);
      const [packets, bytes] = [parseInteger(args[2]!), parseInteger(args[3]!)];
      if (packets === undefined || bytes === undefined) throw syntax(line, 'counter_write PACKETS and BYTES must be numbers');
      return { kind: keyword, line, counter: name(0, 'counter name'), index: number(args[1], 'index', line, 0xffffffff), packets, bytes };
    }
    case 'counter_reset':
      expectArgs(args, 1, 'counter_reset COUNTER', line);
      return { kind: keyword, line, counter: name(0, 'counter name') };
    case 'check_counter':
      return parseCheckCounter(rest, line);
    default: {
      const why = UNSUPPORTED[keyword];
      if (why) throw syntax(line, `${keyword}: ${why}`);
      throw syntax(line, `unknown command "${keyword}"; STF commands are ${STF_KEYWORDS.join(', ')}`);
    }
  }
}

/** Parses a whole STF file. Never throws for bad input: errors come back with their lines. */
export function parseStf(text: string): ParsedStf {
  const commands: StfCommand[] = [];
  const errors: StfDiagnostic[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const hash = raw.indexOf('#');
    const content = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (content === '') return;
    const m = /^(\S+)\s*(.*)$/s.exec(content)!;
    try {
      commands.push(parseCommand(m[1]!.toLowerCase(), m[2]!.trim(), line));
    } catch (e) {
      if (!(e instanceof StfError)) throw e;
      errors.push({ line, code: e.code, message: e.message });
    }
  });
  return { commands, errors };
}
