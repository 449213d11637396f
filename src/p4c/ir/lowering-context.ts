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
  /** Called when lowering meets a construct the IR cannot express (reported as "unsupported"). */
  unsupported: (node: AstNode, what: string) => void = () => {};

  constructor(
    readonly typer: ExpressionTyper,
    readonly layouts: Layouts,
  ) {}

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
