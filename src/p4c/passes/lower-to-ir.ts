/**
 * @fileoverview The lower-to-ir pass: turns the checked program and its
 * P4Info into the pipeline IR (side table IR_DOCUMENT). A construct the IR
 * cannot express is reported as "unsupported", never dropped silently.
 */
import { collectControlPlane } from '../control-plane/model.js';
import { tableApplications } from '../ir/applications.js';
import { lowerToIr } from '../ir/lower-program.js';
import type { IrProgram } from '../ir/types.js';
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
    context.table(IR_DOCUMENT).ir = ir;
  },
};
