/**
 * @fileoverview What the lowering classes share: the checker's side tables,
 * the layouts, the storage slots, and the names/ids of control-plane objects.
 */
import type { Expression } from '../ast/expressions.js';
import type { AstNode } from '../ast/walk.js';
import type { Entity } from '../semantics/scope.js';
import type { ExpressionTyper } from '../semantics/expression-typer.js';
import { UNKNOWN, type P4Type } from '../semantics/p4-types.js';
import type { Layouts } from './layouts.js';
import type { IrSlot, IrSlotRole, IrType } from './types.js';

export class LoweringContext {
  readonly slots: IrSlot[] = [];
  private readonly slotOf = new Map<Entity, number>();
  /** Fully qualified names of tables, actions, extern instances and nested blocks, by declaration. */
  readonly names = new Map<Entity, string>();
  /** Constructor parameters of value type with the argument of the instance being lowered (`C(8) c;`). */
  readonly constructorArguments = new Map<Entity, Expression>();
  /** Every `error` member, in declaration order. */
  readonly errors: string[] = [];
  /** Whether a declaration comes from our library (core.p4, v1model.p4): only those externs have an implementation. */
  isLibrary: (decl: AstNode) => boolean = () => true;
  /** Called when lowering meets a construct the IR cannot express (reported as "unsupported"). */
  unsupported: (node: AstNode, what: string) => void = () => {};

  constructor(
    readonly typer: ExpressionTyper,
    readonly layouts: Layouts,
  ) {}

  /**
   * An extern the program declares itself: neither BMv2 nor our switch implements it, so p4c-bm2-ss
   * refuses the program ("not supported", "Unknown extern method") and so do we.
   */
  unsupportedExtern(node: AstNode, name: string): void {
    this.unsupported(node, `'${name}', an extern this program declares: neither BMv2 (p4c-bm2-ss refuses it too) nor p4ina's switch implements it`);
  }

  typeOf(node: AstNode): P4Type {
    return this.typer.types.get(node) ?? UNKNOWN;
  }

  irTypeOf(node: AstNode): IrType {
    return this.layouts.type(this.typeOf(node));
  }

  newSlot(name: string, role: IrSlotRole, type: IrType, decl?: AstNode): number {
    const id = this.slots.length;
    this.slots.push({ id, name, role, type });
    if (decl) this.slotOf.set(decl, id);
    return id;
  }

  bindSlot(decl: AstNode, slot: number): void {
    this.slotOf.set(decl, slot);
  }

  slot(decl: Entity): number | undefined {
    return this.slotOf.get(decl);
  }
}
