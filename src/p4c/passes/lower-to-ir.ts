/**
 * @fileoverview The lower-to-ir pass: turns the checked program and its
 * P4Info into the pipeline IR (side table IR_DOCUMENT). A construct the IR
 * cannot express is reported as "unsupported", never dropped silently, and
 * an IR nested deeper than the switch loads is refused here, with the place.
 */
import type { Declaration } from '../ast/declarations.js';
import type { Program } from '../ast/program.js';
import { walk, type AstNode } from '../ast/walk.js';
import { collectControlPlane } from '../control-plane/model.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';
import { IR_MAX_DEPTH, irDepth } from '../ir/limits.js';
import { tableApplications } from '../ir/applications.js';
import { lowerToIr } from '../ir/lower-program.js';
import type { IrProgram } from '../ir/types.js';
import { deepestNode } from '../parser/nesting-limit.js';
import { SideTableKey } from './context.js';
import { P4INFO } from './emit-p4info.js';
import type { Pass } from './pass-manager.js';
import { typerFor } from './type-check.js';

export const IR_DOCUMENT = new SideTableKey<{ ir: IrProgram | null }>('ir', () => ({ ir: null }));

export const lowerToIrPass: Pass = {
  name: 'lower-to-ir',
  run: (program, context) => {
    const p4info = context.table(P4INFO).p4info;
    if (!p4info) return;
    const library = context.sources.libraryFiles();
    const source = context.input.path.split(/[\\/]/).pop() ?? context.input.path;
    const typer = typerFor(context);
    const ir = lowerToIr(program, typer, p4info, {
      source,
      onUnsupported: (node, what) => context.diagnostics.report('UnsupportedSyntax', node.span, [`${what} (the IR cannot express it yet)`]),
      isLibrary: (node) => library.has(node.span.file),
    });
    // BMv2 gives each table one place in its control's table graph: p4c-bm2-ss refuses a table applied twice
    // ("Program cannot be implemented since it requires a cycle containing ..."), and so do we.
    const tables = collectControlPlane(program, typer.refs).tables;
    for (const [table, count] of tableApplications(ir)) {
      if (count < 2) continue;
      const decl = tables.find((t) => t.name === table)?.decl;
      context.diagnostics.report('TableAppliedTwice', decl?.name.span ?? program.span, [table, String(count)]);
    }
    if (checkIrDepth(ir, program, context.diagnostics)) context.table(IR_DOCUMENT).ir = ir;
  },
};

/** The lists of named things an IR document holds, where deep code lives. */
const NAMED_LISTS = ['blocks', 'actions', 'functions', 'tables'] as const;

/**
 * Whether the switch will load `ir` as deep as it is (ir/depth.ts); if not, reports each
 * block, action, function or table that is too deep, at the deepest place of its declaration.
 */
function checkIrDepth(ir: IrProgram, program: Program, diagnostics: DiagnosticBag): boolean {
  if (irDepth(ir) <= IR_MAX_DEPTH) return true;
  let reported = false;
  for (const list of NAMED_LISTS) {
    for (const item of ir[list]) {
      // The document, the list and the item itself are three levels: `blocks[0]` is at depth 2.
      const depth = 2 + irDepth(item);
      if (depth <= IR_MAX_DEPTH) continue;
      const decl = declarationNamed(program, item.name.split('.').pop()!);
      diagnostics.report('IrNestingTooDeep', deepestNode(decl ?? program).node.span, [item.name, depth, IR_MAX_DEPTH]);
      reported = true;
    }
  }
  // Anything else (types nested in tuples, say) is placed at the deepest part of the program.
  if (!reported) diagnostics.report('IrNestingTooDeep', deepestNode(program).node.span, ['the program', irDepth(ir), IR_MAX_DEPTH]);
  return false;
}

function declarationNamed(program: Program, name: string): Declaration | undefined {
  let found: Declaration | undefined;
  walk(program, (node: AstNode) => {
    if (found) return false;
    const isNamed = node.kind === 'ControlDeclaration' || node.kind === 'ParserDeclaration' || node.kind === 'ActionDeclaration' || node.kind === 'FunctionDeclaration' || node.kind === 'TableDeclaration';
    if (isNamed && node.name.text === name) found = node;
    return undefined;
  });
  return found;
}
