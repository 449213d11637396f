/**
 * @fileoverview Tables and their properties. `key`, `actions` and
 * `entries` have their own shapes; every other property (`size`,
 * `default_action`, `counters`, `meters`, `implementation`,
 * `support_timeout`, and target-specific ones) is a name and an expression,
 * as in p4c, and later passes check which names and values are allowed.
 */
import type { Annotation } from './annotations.js';
import type { Argument, Expression, PathExpression } from './expressions.js';
import type { Name, NodeBase } from './node.js';

/** `hdr.ipv4.dstAddr: lpm @name("dst");` */
export interface KeyElement extends NodeBase {
  readonly kind: 'KeyElement';
  readonly expression: Expression;
  readonly matchKind: Name;
  readonly annotations: readonly Annotation[];
}

/** An action named in `actions`, `default_action` or an entry, with arguments when given. */
export interface ActionReference extends NodeBase {
  readonly kind: 'ActionReference';
  readonly annotations: readonly Annotation[];
  readonly action: PathExpression;
  /** Null for the bare-name form `NoAction;`, a list (maybe empty) for `NoAction();`. */
  readonly args: readonly Argument[] | null;
}

/** One entry of `entries`: `priority = 10: (0x0800, _): forward(1) @name("e");`. */
export interface TableEntry extends NodeBase {
  readonly kind: 'TableEntry';
  readonly isConst: boolean;
  /** From the `priority = N:` prefix; an `@priority(N)` annotation stays an annotation. */
  readonly priority: Expression | null;
  /** One expression per key field: `(a, b)` gives two, a lone `a` gives a list of one. */
  readonly keyset: readonly Expression[];
  readonly action: ActionReference;
  readonly annotations: readonly Annotation[];
}

/**
 * The keysets of an entry, one per key field. A braced list `{ a, b }` (or
 * `{ a }` for a one-field key) is an expression in p4c's grammar, a tuple
 * matched component by component against the key, as `(a, b)` is.
 */
export function entryKeysets(entry: TableEntry): readonly Expression[] {
  const only = entry.keyset.length === 1 ? entry.keyset[0]! : null;
  return only?.kind === 'ListExpression' ? only.elements : entry.keyset;
}

export interface KeyProperty extends NodeBase {
  readonly kind: 'KeyProperty';
  readonly elements: readonly KeyElement[];
}

export interface ActionsProperty extends NodeBase {
  readonly kind: 'ActionsProperty';
  readonly actions: readonly ActionReference[];
}

export interface EntriesProperty extends NodeBase {
  readonly kind: 'EntriesProperty';
  readonly annotations: readonly Annotation[];
  readonly isConst: boolean;
  readonly entries: readonly TableEntry[];
}

/** `[const] name = value;` for every other property. */
export interface ValueProperty extends NodeBase {
  readonly kind: 'ValueProperty';
  readonly annotations: readonly Annotation[];
  readonly isConst: boolean;
  readonly name: Name;
  readonly value: Expression;
}

export type TableProperty = KeyProperty | ActionsProperty | EntriesProperty | ValueProperty;
