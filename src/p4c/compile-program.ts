/**
 * @fileoverview The whole front end in one call: source to P4Info and IR.
 *
 *   const { p4info, ir, diagnostics } = compileProgram('p4/ina.p4', { includeDirs: ['p4/include'] });
 */
import type * as p4i from '../proto/p4i.js';
import type { IrProgram } from './ir/types.js';
import type { ParseOptions } from './parse-program.js';
import { P4INFO } from './passes/emit-p4info.js';
import { runFrontEnd, type FrontEndResult } from './passes/front-end.js';
import { IR_DOCUMENT } from './passes/lower-to-ir.js';
import type { RunOptions } from './passes/pass-manager.js';

export interface CompileResult extends FrontEndResult {
  /** Null when the program has errors. */
  readonly p4info: p4i.P4Info | null;
  /** Null when the program has errors. */
  readonly ir: IrProgram | null;
}

/** Compiles the program at `path` (or `text` named `path`). Never throws for bad input. */
export function compileProgram(path: string, options: ParseOptions & RunOptions & { readonly text?: string } = {}): CompileResult {
  const result = runFrontEnd(path, options);
  const ok = !result.hasErrors;
  return {
    ...result,
    p4info: ok ? result.context.table(P4INFO).p4info : null,
    ir: ok ? result.context.table(IR_DOCUMENT).ir : null,
  };
}
