/**
 * @fileoverview What every AST node shares: a `kind` naming its type and the
 * span of source it was parsed from. Nodes are plain data: no methods, no
 * parent links, no types (the type checker keeps types in a side table keyed
 * by node, as p4c does), so that passes can build new trees freely and a tree
 * can be compared, printed or dumped as it is.
 */
import type { SourceSpan } from '../source/span.js';

export interface NodeBase {
  readonly span: SourceSpan;
}

/** An identifier where it is declared or used as a plain name. */
export interface Name extends NodeBase {
  readonly kind: 'Name';
  readonly text: string;
}

/** A reference to a declared thing; `absolute` for the `.name` form (top-level scope). */
export interface PathName extends NodeBase {
  readonly kind: 'PathName';
  readonly name: Name;
  readonly absolute: boolean;
}
