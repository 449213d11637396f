/**
 * @fileoverview How deeply types may nest through their declarations:
 * `struct s1 { s0 f; } struct s2 { s1 f; } …` is a shallow tree but a deep
 * type, and the type checker, the P4Info and IR builders and the switch all
 * walk types by recursion. Checked after names are resolved, before anything
 * walks a type: a struct, header, union, stack, tuple or typedef whose type
 * nests more than MAX_NESTING levels is refused at its name.
 *
 * Declarations come before their uses in P4, so one pass in source order
 * finds every type a declaration names already measured: no recursion
 * beyond the (already bounded) nesting of one type as written.
 */
import type { Declaration, StructLikeDeclaration, TypedefDeclaration } from '../ast/declarations.js';
import type { TypeRef } from '../ast/expressions.js';
import type { Program } from '../ast/program.js';
import type { AstNode } from '../ast/walk.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';
import { MAX_NESTING } from '../parser/nesting-limit.js';
import type { Entity } from './scope.js';

type TypeDeclaration = StructLikeDeclaration | TypedefDeclaration;

function isTypeDeclaration(d: Declaration | TypedefDeclaration['type']): d is TypeDeclaration {
  return d.kind === 'StructDeclaration' || d.kind === 'HeaderDeclaration' || d.kind === 'HeaderUnionDeclaration' || d.kind === 'TypedefDeclaration';
}

/** Reports the first type declaration nested more than MAX_NESTING levels deep (P4C3023). */
export function checkTypeNesting(program: Program, refs: ReadonlyMap<AstNode, Entity>, diagnostics: DiagnosticBag): void {
  const depths = new Map<Entity, number>();
  const ofRef = (ref: TypeRef): number => {
    switch (ref.kind) {
      case 'NamedType':
        return depths.get(refs.get(ref) as Entity) ?? 0;
      case 'SpecializedType':
        return (depths.get(refs.get(ref.base) as Entity) ?? 0) + Math.max(0, ...ref.args.map(ofRef));
      case 'StackType':
        return 1 + ofRef(ref.element);
      case 'TupleType':
        return 1 + Math.max(0, ...ref.elements.map(ofRef));
      default:
        return 0;
    }
  };
  const ofDeclaration = (d: TypeDeclaration): number => {
    if (d.kind !== 'TypedefDeclaration') return 1 + Math.max(0, ...d.fields.map((f) => ofRef(f.type)));
    if (isTypeDeclaration(d.type)) return ofDeclaration(d.type);
    return d.type.kind === 'EnumDeclaration' ? 1 : ofRef(d.type);
  };
  for (const d of program.declarations) {
    if (!isTypeDeclaration(d)) continue;
    const depth = ofDeclaration(d);
    if (depth > MAX_NESTING) {
      diagnostics.report('TypeNestingTooDeep', d.name.span, [d.name.text, MAX_NESTING]);
      return;
    }
    depths.set(d, depth);
    if (d.kind === 'TypedefDeclaration' && isTypeDeclaration(d.type)) depths.set(d.type, depth);
  }
}
