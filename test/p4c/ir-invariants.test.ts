// Invariants the emulator relies on, checked on the IR of every corpus
// program and fixture: every slot, table, action, block, extern instance,
// value set, header and struct an IR node names exists, and every
// expression has a type.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, type IrProgram } from '../../src/p4c/index.js';
import { CORPUS_DIR, corpusPrograms, TEST_DIR } from './helpers.js';

const FIXTURE_DIR = path.join(TEST_DIR, '..', 'fixtures', 'p4info');
const PROGRAMS = [
  ...corpusPrograms().map((f) => path.join(CORPUS_DIR, f)),
  ...readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.p4')).map((f) => path.join(FIXTURE_DIR, f)),
];

/** Every problem found, as "where: what". */
function problems(ir: IrProgram): string[] {
  const found: string[] = [];
  const tables = new Set(ir.tables.map((t) => t.name));
  const actions = new Set(ir.actions.map((a) => a.name));
  const blocks = new Set(ir.blocks.map((b) => b.name));
  const externs = new Set(ir.externs.map((e) => e.name));
  const valueSets = new Set(ir.blocks.flatMap((b) => b.valueSets.map((v) => v.name)));
  const headers = new Set(ir.headers.map((h) => h.name));
  const structs = new Set(ir.structs.map((s) => s.name));
  const enums = new Set(ir.enums.map((e) => e.name));
  const visit = (value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${where}[${i}]`));
    if (typeof value !== 'object' || value === null) return;
    const node = value as Record<string, unknown>;
    if (typeof node.op === 'string' && (typeof node.type !== 'object' || node.type === null)) found.push(`${where}: expression without a type`);
    if (node.op === 'slot' && !(typeof node.slot === 'number' && node.slot >= 0 && node.slot < ir.slots.length)) found.push(`${where}: slot ${String(node.slot)}`);
    if ((node.op === 'apply-table' || node.kind === 'apply-table' || node.kind === 'switch-action') && !tables.has(String(node.table))) found.push(`${where}: table ${String(node.table)}`);
    if (node.kind === 'call-action' && !actions.has(String(node.action))) found.push(`${where}: action ${String(node.action)}`);
    if (node.kind === 'apply-block' && !blocks.has(String(node.block))) found.push(`${where}: block ${String(node.block)}`);
    if (node.kind === 'method' && !externs.has(String(node.instance))) found.push(`${where}: extern ${String(node.instance)}`);
    if (node.kind === 'value-set' && !valueSets.has(String(node.valueSet))) found.push(`${where}: value set ${String(node.valueSet)}`);
    if (node.kind === 'header' && typeof node.name === 'string' && !headers.has(node.name)) found.push(`${where}: header type ${node.name}`);
    if ((node.kind === 'struct' || node.kind === 'union') && typeof node.name === 'string' && !structs.has(node.name)) found.push(`${where}: struct type ${node.name}`);
    if (node.kind === 'enum' && typeof node.name === 'string' && !enums.has(node.name) && !('members' in node)) found.push(`${where}: enum type ${node.name}`);
    for (const [key, child] of Object.entries(node)) visit(child, `${where}.${key}`);
  };
  visit(ir.blocks, 'blocks');
  visit(ir.actions, 'actions');
  visit(ir.functions, 'functions');
  visit(ir.slots, 'slots');
  for (const t of ir.tables) {
    for (const a of [...t.actions.map((x) => x.action), t.defaultAction.action, ...t.entries.map((e) => e.action.action)]) {
      if (!actions.has(a)) found.push(`table ${t.name}: action ${a}`);
    }
    for (const r of [t.directCounter, t.directMeter, t.implementation]) if (r !== null && !externs.has(r)) found.push(`table ${t.name}: extern ${r}`);
    if (t.id === 0) found.push(`table ${t.name}: no P4Info id`);
    for (const e of t.entries) if (e.keys.length !== t.keys.length && !(e.keys.length === 1 && e.keys[0]!.kind === 'default')) found.push(`table ${t.name}: entry keys`);
    visit(t.keys, `table ${t.name}.keys`);
  }
  for (const role of Object.values(ir.pipeline)) if (!blocks.has(role)) found.push(`pipeline: block ${role}`);
  return found;
}

describe('IR invariants', () => {
  it.each(PROGRAMS.map((p) => [path.basename(p), p]))('%s', (_name, file) => {
    const result = compileProgram(file);
    if (!result.ir) throw new Error(formatDiagnostics(result.diagnostics));
    expect(problems(result.ir)).toEqual([]);
  });
});
