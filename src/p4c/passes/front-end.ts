/**
 * @fileoverview The front end's pass list: parse → resolve-names →
 * type-check → fold-constants → check-control-plane → emit-p4info →
 * lower-to-ir. Each pass may assume what the earlier ones checked.
 */
import type { Program } from '../ast/program.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { parseInto, type ParseOptions } from '../parse-program.js';
import type { SourceRegistry } from '../source/source-registry.js';
import { syntheticSpan } from '../source/span.js';
import { CompileContext } from './context.js';
import { PassManager, type Pass, type PassDump, type RunOptions } from './pass-manager.js';
import { resolveNamesPass } from './resolve-names.js';
import { typeCheckPass } from './type-check.js';
import { foldConstantsPass } from './fold-constants.js';
import { checkControlPlanePass } from './check-control-plane.js';
import { emitP4InfoPass } from './emit-p4info.js';
import { lowerToIrPass } from './lower-to-ir.js';

/** Preprocesses and parses the input named by the context; the incoming program is ignored. */
export const parsePass: Pass = {
  name: 'parse',
  run: (_program, context) => parseInto(context, context.input.path, context.input.text, context.input.options),
};

/** The front end's passes, in order. */
export function frontEndPasses(): Pass[] {
  return [parsePass, resolveNamesPass, typeCheckPass, foldConstantsPass, checkControlPlanePass, emitP4InfoPass, lowerToIrPass];
}

export interface FrontEndResult {
  readonly program: Program;
  readonly diagnostics: readonly Diagnostic[];
  readonly sources: SourceRegistry;
  readonly hasErrors: boolean;
  readonly context: CompileContext;
  readonly dumps: readonly PassDump[];
  readonly stoppedAfter: string | null;
}

/** Runs the front end's passes on the file at `path` (or on `text` named `path`). */
export function runFrontEnd(path: string, options: ParseOptions & RunOptions & { readonly text?: string } = {}): FrontEndResult {
  const context = new CompileContext({ path, ...(options.text !== undefined ? { text: options.text } : {}), options });
  const empty: Program = { kind: 'Program', declarations: [], span: syntheticSpan(path) };
  const result = new PassManager(frontEndPasses()).run(empty, context, options);
  return {
    program: result.program,
    diagnostics: context.diagnostics.all(),
    sources: context.sources,
    hasErrors: context.diagnostics.hasErrors(),
    context,
    dumps: result.dumps,
    stoppedAfter: result.stoppedAfter,
  };
}
