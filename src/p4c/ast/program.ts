/**
 * @fileoverview The root of the tree: the program after preprocessing, every
 * top-level declaration in source order, those of included files included.
 */
import type { Declaration } from './declarations.js';
import type { NodeBase } from './node.js';

export interface Program extends NodeBase {
  readonly kind: 'Program';
  readonly declarations: readonly Declaration[];
}
