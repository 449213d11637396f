/**
 * @fileoverview Turns type references as written (`bit<W>`, `headers_t`,
 * `register<bit<32>>`, `mpls_t[4]`) into semantic types, following
 * typedefs and substituting generic arguments. Widths and stack sizes are
 * folded to constants here; a non-constant or bad width is reported once.
 */
import type { EnumDeclaration, StructLikeDeclaration, TypedefDeclaration } from '../ast/declarations.js';
import type { Expression, TypeRef } from '../ast/expressions.js';
import type { AstNode } from '../ast/walk.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';
import { IR_MAX_STACK_SIZE } from '../ir/limits.js';
import { ConstEvaluator, MAX_CONSTANT_BITS } from './const-eval.js';
import { bits, BOOL, ERROR_TYPE, INT, STRING, UNKNOWN, VOID, type BitsP4Type, type P4Type } from './p4-types.js';
import type { Entity } from './scope.js';

const MAX_WIDTH = 2048;
type Substitution = ReadonlyMap<string, P4Type>;

export class TypeResolver {
  readonly constants: ConstEvaluator;
  private readonly declared = new Map<AstNode, P4Type>();

  constructor(
    private readonly refs: ReadonlyMap<AstNode, Entity>,
    constants: Map<AstNode, bigint | boolean>,
    private readonly diagnostics: DiagnosticBag,
  ) {
    this.constants = new ConstEvaluator(refs, constants, (cast) => {
      const t = this.resolve(cast.type);
      if (t.kind === 'bits') return { width: t.width, signed: t.signed };
      if (t.kind === 'bool') return 'bool';
      return null;
    });
    this.constants.onTooLarge = (e) => this.reportOnce(e, 'ConstantTooLarge', [String(MAX_CONSTANT_BITS)]);
  }

  resolve(ref: TypeRef, subst: Substitution = new Map()): P4Type {
    switch (ref.kind) {
      case 'BitsType': {
        if (!ref.width) return bits(1, ref.signed);
        if (this.overflowingWidth(ref, ref.width)) return UNKNOWN;
        const width = this.constants.integer(ref.width);
        if (width === undefined) {
          if (!this.constants.isTooLarge(ref.width)) this.reportOnce(ref, 'NotConstant', ['a width']);
          return UNKNOWN;
        }
        const min = ref.signed ? 1n : 0n;
        if (width < min || width > BigInt(MAX_WIDTH)) {
          this.reportOnce(ref, 'InvalidWidth', [String(width), String(min)]);
          return UNKNOWN;
        }
        return bits(Number(width), ref.signed);
      }
      case 'VarbitType': {
        if (this.overflowingWidth(ref, ref.maxWidth)) return UNKNOWN;
        const width = this.constants.integer(ref.maxWidth);
        if (width === undefined) {
          this.reportOnce(ref, 'NotConstant', ['a width']);
          return UNKNOWN;
        }
        if (width < 0n || width > BigInt(MAX_WIDTH)) {
          this.reportOnce(ref, 'InvalidWidth', [String(width), '0']);
          return UNKNOWN;
        }
        return { kind: 'varbit', maxWidth: Number(width) };
      }
      case 'InfIntType': return INT;
      case 'BoolType': return BOOL;
      case 'ErrorType': return ERROR_TYPE;
      case 'StringType': return STRING;
      case 'MatchKindType': return { kind: 'match_kind' };
      case 'VoidType': return VOID;
      case 'DontCareType': return { kind: 'dontcare' };
      case 'TupleType': return { kind: 'tuple', elements: ref.elements.map((e) => this.resolve(e, subst)) };
      case 'StackType': {
        const size = this.constants.integer(ref.size);
        if (size === undefined || size <= 0n) {
          this.reportOnce(ref.size, 'NotConstant', ['a header stack size (a positive integer)']);
          return UNKNOWN;
        }
        if (size > BigInt(IR_MAX_STACK_SIZE)) {
          this.reportOnce(ref.size, 'StackTooLarge', [String(size), String(IR_MAX_STACK_SIZE)]);
          return UNKNOWN;
        }
        return { kind: 'stack', element: this.resolve(ref.element, subst), size: Number(size) };
      }
      case 'NamedType': {
        const entity = this.refs.get(ref);
        if (entity?.kind === 'Name') return subst.get(entity.text) ?? { kind: 'typevar', name: entity.text };
        return entity ? this.ofEntity(entity, []) : UNKNOWN;
      }
      case 'SpecializedType': {
        const entity = this.refs.get(ref.base);
        return entity ? this.ofEntity(entity, ref.args.map((a) => this.resolve(a, subst))) : UNKNOWN;
      }
    }
  }

  /** The type a type declaration denotes, applied to `args`. */
  ofEntity(entity: Entity, args: readonly P4Type[]): P4Type {
    switch (entity.kind) {
      case 'HeaderDeclaration':
      case 'HeaderUnionDeclaration':
      case 'StructDeclaration':
        return this.structLike(entity, args);
      case 'EnumDeclaration':
        return this.enumType(entity);
      case 'TypedefDeclaration':
        return this.typedef(entity);
      case 'ExternDeclaration':
        return { kind: 'extern', name: entity.name.text, decl: entity, args };
      case 'ParserDeclaration':
      case 'ParserTypeDeclaration':
        return { kind: 'parser', name: entity.name.text, decl: entity };
      case 'ControlDeclaration':
      case 'ControlTypeDeclaration':
        return { kind: 'control', name: entity.name.text, decl: entity };
      case 'PackageTypeDeclaration':
        return { kind: 'package', name: entity.name.text, decl: entity };
      default:
        return UNKNOWN;
    }
  }

  structLike(decl: StructLikeDeclaration, args: readonly P4Type[] = []): P4Type {
    const key = args.length === 0 ? decl : null;
    const cached = key && this.declared.get(key);
    if (cached) return cached;
    const subst = new Map(decl.typeParams.map((p, i) => [p.text, args[i] ?? UNKNOWN] as const));
    const kind = decl.kind === 'HeaderDeclaration' ? 'header' : decl.kind === 'HeaderUnionDeclaration' ? 'union' : 'struct';
    const fields: { name: string; type: P4Type }[] = [];
    const type: P4Type = { kind, name: decl.name.text, fields, decl };
    if (key) this.declared.set(key, type); // before the fields: a struct may not contain itself, but do not loop if it does
    for (const f of decl.fields) fields.push({ name: f.name.text, type: this.resolve(f.type, subst) });
    return type;
  }

  private enumType(decl: EnumDeclaration): P4Type {
    const cached = this.declared.get(decl);
    if (cached) return cached;
    const base = decl.underlyingType ? this.resolve(decl.underlyingType) : null;
    const type: P4Type = {
      kind: 'enum',
      name: decl.name.text,
      members: decl.members.map((m) => m.name.text),
      underlying: base?.kind === 'bits' ? (base as BitsP4Type) : null,
      decl,
    };
    this.declared.set(decl, type);
    return type;
  }

  private typedef(decl: TypedefDeclaration): P4Type {
    const cached = this.declared.get(decl);
    if (cached) return cached;
    this.declared.set(decl, UNKNOWN); // a typedef cycle resolves to unknown
    const t = decl.type;
    let base: P4Type;
    if (t.kind === 'HeaderDeclaration' || t.kind === 'HeaderUnionDeclaration' || t.kind === 'StructDeclaration') base = this.structLike(t);
    else if (t.kind === 'EnumDeclaration') base = this.enumType(t);
    else base = this.resolve(t as TypeRef);
    const type: P4Type = decl.isNewType ? { kind: 'newtype', name: decl.name.text, base, decl } : base;
    this.declared.set(decl, type);
    return type;
  }

  /**
   * Whether the width is a sized literal too big for its own size (`bit<8w256>`): it would
   * wrap (to 0 there) without a word, so it is refused, saying how to write it. Reported once.
   */
  private overflowingWidth(ref: TypeRef, width: Expression): boolean {
    if (width.kind !== 'IntegerLiteral' || width.width === null) return false;
    const wrapped = width.signed ? BigInt.asIntN(width.width, width.value) : BigInt.asUintN(width.width, width.value);
    if (wrapped === width.value) return false;
    const written = `${width.width}${width.signed ? 's' : 'w'}${width.value}`;
    const suggestion = ref.kind === 'VarbitType' ? `varbit<${width.value}>` : `${ref.kind === 'BitsType' && ref.signed ? 'int' : 'bit'}<${width.value}>`;
    this.reportOnce(ref, 'WidthDoesNotFit', [written, String(width.width), String(wrapped), suggestion]);
    return true;
  }

  private readonly reported = new Set<AstNode>();
  private reportOnce(node: AstNode, id: 'NotConstant' | 'InvalidWidth' | 'WidthDoesNotFit' | 'StackTooLarge' | 'ConstantTooLarge', args: string[]): void {
    if (this.reported.has(node)) return;
    this.reported.add(node);
    this.diagnostics.report(id, node.span, args);
  }
}
