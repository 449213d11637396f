/**
 * @fileoverview The fold-constants pass: evaluates every `const`
 * declaration (wrapped to its declared width), table sizes and the other
 * values that must be known at compile time, into the CONSTANTS side table.
 * A constant whose value cannot be computed is an error, and so is a table
 * size p4c would not take.
 */
import type { ConstantDeclaration, TableDeclaration } from '../ast/declarations.js';
import { walk } from '../ast/walk.js';
import { DEFAULT_TABLE_SIZE, MAX_TABLE_SIZE } from '../p4info/tables.js';
import { CONSTANTS, TYPES } from '../semantics/side-tables.js';
import { underlying } from '../semantics/p4-types.js';
import type { Pass } from './pass-manager.js';
import { typerFor } from './type-check.js';

export const foldConstantsPass: Pass = {
  name: 'fold-constants',
  run: (program, context) => {
    const typer = typerFor(context);
    const values = context.table(CONSTANTS);
    const types = context.table(TYPES);
    walk(program, (node) => {
      if (node.kind === 'ConstantDeclaration') foldDeclaration(node);
      if (node.kind === 'TableDeclaration') checkTableSize(node);
      if (node.kind === 'ValueSetDeclaration') {
        const size = typer.resolver.constants.evaluate(node.size);
        if (typeof size !== 'bigint' || size < 0n || size > MAX_TABLE_SIZE) {
          context.diagnostics.report('BadValueSetSize', node.size.span, [size === undefined ? 'a value not known at compile time' : String(size)]);
        }
      }
      return undefined;
    });

    /**
     * p4c's rules for `size`: a compile-time integer that fits a 32-bit signed int (larger ones are its
     * "Value too large for int"); 0 gives the default size. Negative sizes p4c passes on, and switches refuse.
     */
    function checkTableSize(table: TableDeclaration): void {
      for (const p of table.properties) {
        if (p.kind !== 'ValueProperty' || p.name.text !== 'size') continue;
        const size = typer.resolver.constants.evaluate(p.value);
        if (typeof size !== 'bigint' || size < 0n) context.diagnostics.report('BadTableSize', p.value.span, [size === undefined ? 'a value not known at compile time' : String(size)]);
        else if (size > MAX_TABLE_SIZE) context.diagnostics.report('TableSizeTooLarge', p.value.span, [String(size), String(MAX_TABLE_SIZE)]);
        else if (size === 0n) context.diagnostics.report('TableSizeZero', p.value.span, [table.name.text, DEFAULT_TABLE_SIZE]);
      }
    }

    function foldDeclaration(decl: ConstantDeclaration): void {
      const type = underlying(types.get(decl) ?? typer.entityType(decl));
      if (type.kind !== 'bits' && type.kind !== 'int' && type.kind !== 'bool') return;
      const value = typer.resolver.constants.evaluate(decl.value);
      if (value === undefined) {
        if (!typer.resolver.constants.isTooLarge(decl.value)) context.diagnostics.report('NotConstant', decl.value.span, [`the value of constant '${decl.name.text}'`]);
        return;
      }
      if (type.kind === 'bits' && typeof value === 'bigint') {
        values.set(decl, type.signed ? BigInt.asIntN(type.width, value) : BigInt.asUintN(type.width, value));
      } else values.set(decl, value);
    }
  },
};
