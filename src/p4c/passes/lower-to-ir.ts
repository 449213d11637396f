/**
 * @fileoverview The lower-to-ir pass: turns the checked program and its
 * P4Info into the pipeline IR (side table IR_DOCUMENT). A construct the IR
 * cannot express is reported as "unsupported", never dropped silently.
 */
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
    context.table(IR_DOCUMENT).ir = lowerToIr(program, typerFor(context), p4info, {
      source,
      onUnsupported: (node, what) => context.diagnostics.report('UnsupportedSyntax', node.span, [`${what} (the IR cannot express it yet)`]),
      isLibrary: (node) => library.has(node.span.file),
    });
  },
};
