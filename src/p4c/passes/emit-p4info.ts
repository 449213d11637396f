/**
 * @fileoverview The emit-p4info pass: builds the program's P4Info (as p4c
 * would write it) into the P4INFO side table. A bad or clashing `@id` is a
 * diagnostic at the annotation, not a crash.
 */
import type * as p4i from '../../proto/p4i.js';
import { buildP4Info } from '../p4info/build-p4info.js';
import { IdAnnotationError } from '../p4info/id-annotations.js';
import { SideTableKey } from './context.js';
import type { Pass } from './pass-manager.js';
import { typerFor } from './type-check.js';

export const P4INFO = new SideTableKey<{ p4info: p4i.P4Info | null }>('p4info', () => ({ p4info: null }));

export const emitP4InfoPass: Pass = {
  name: 'emit-p4info',
  run: (program, context) => {
    try {
      context.table(P4INFO).p4info = buildP4Info(program, typerFor(context));
    } catch (error) {
      if (error instanceof IdAnnotationError) for (const p of error.problems) context.diagnostics.report(p.id, p.span, p.args);
      else if (error instanceof RangeError) context.diagnostics.report('BadId', null, [error.message]);
      else throw error;
    }
  },
};
