// Reading a compiled program's parser in the layout tests: its states by
// name, and lowered expressions as text (`hdr.a.b[i]`) to compare.
import type { IrExpression, IrProgram } from '../../../src/p4c/index.js';

/** `hdr.a.b[i]` as text, for comparing lowered expressions. */
export function text(e: IrExpression): string {
  switch (e.op) {
    case 'slot': return `slot${e.slot}`;
    case 'field': return `${text(e.base)}.${e.field}`;
    case 'index': return `${text(e.base)}[${text(e.index)}]`;
    case 'const': return e.value;
    default: return `<${e.op}>`;
  }
}

export function parserState(ir: IrProgram, name: string) {
  const parser = ir.blocks.find((b) => b.name === ir.pipeline.parser)!;
  const state = parser.states.find((s) => s.name === name);
  if (!state) throw new Error(`no parser state ${name}`);
  return state;
}
