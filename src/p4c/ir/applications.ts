/**
 * @fileoverview How many times each table of an IR program can be applied
 * to one packet on one path through the code: a table applied twice in a
 * row, or in a sub-control applied twice, counts 2; applied once in each
 * branch of an `if`, 1. BMv2's JSON gives a table one place in the table
 * graph, so p4c-bm2-ss refuses the first kind ("Program cannot be implemented
 * since it requires a cycle containing ..."), while it compiles the second
 * (p4c's sample issue986-1-bmv2.p4).
 */
import type { IrBlock, IrProgram, IrStatement } from './types.js';

type Counts = Map<string, number>;

/** Table name → the most times one packet can apply it, over the pipeline's blocks. */
export function tableApplications(ir: IrProgram): Counts {
  const blocks = new Map(ir.blocks.map((b) => [b.name, b]));
  const memo = new Map<string, Counts>();
  const ofBlock = (block: IrBlock, depth: number): Counts => {
    const known = memo.get(block.name);
    if (known) return known;
    const counts = depth > 16 ? new Map() : sequence([...block.locals, ...block.apply], (name) => {
      const child = blocks.get(name);
      return child ? ofBlock(child, depth + 1) : new Map();
    });
    memo.set(block.name, counts);
    return counts;
  };
  const total: Counts = new Map();
  for (const name of new Set(Object.values(ir.pipeline))) {
    const block = blocks.get(name);
    if (block) for (const [table, n] of ofBlock(block, 0)) total.set(table, Math.max(total.get(table) ?? 0, n));
  }
  return total;
}

function sequence(statements: readonly IrStatement[], block: (name: string) => Counts): Counts {
  const counts: Counts = new Map();
  for (const s of statements) add(counts, statement(s, block));
  return counts;
}

function statement(s: IrStatement, block: (name: string) => Counts): Counts {
  switch (s.kind) {
    case 'apply-table': return new Map([[s.table, 1]]);
    case 'apply-block': {
      const counts = expressions(s.args);
      add(counts, block(s.block));
      return counts;
    }
    case 'if': {
      const counts = expressions(s.condition);
      add(counts, most(sequence(s.then, block), sequence(s.else, block)));
      return counts;
    }
    case 'block': return sequence(s.body, block);
    case 'switch-action': {
      const counts: Counts = new Map([[s.table, 1]]);
      add(counts, s.cases.map((c) => sequence(c.body, block)).reduce(most, new Map()));
      return counts;
    }
    case 'switch': {
      const counts = expressions(s.subject);
      add(counts, s.cases.map((c) => sequence(c.body, block)).reduce(most, new Map()));
      return counts;
    }
    default: return expressions(s);
  }
}

/** Tables applied inside expressions (`t.apply().hit`), each once. */
function expressions(node: unknown): Counts {
  const counts: Counts = new Map();
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(visit);
    if (x === null || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    if (o['op'] === 'apply-table' && typeof o['table'] === 'string') counts.set(o['table'], (counts.get(o['table']) ?? 0) + 1);
    for (const value of Object.values(o)) if (typeof value === 'object') visit(value);
  };
  visit(node);
  return counts;
}

function add(into: Counts, more: Counts): void {
  for (const [table, n] of more) into.set(table, (into.get(table) ?? 0) + n);
}

function most(a: Counts, b: Counts): Counts {
  const out = new Map(a);
  for (const [table, n] of b) out.set(table, Math.max(out.get(table) ?? 0, n));
  return out;
}
