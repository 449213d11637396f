// The printer puts back exactly the parentheses precedence needs: random
// expression trees (seeded) print to text that parses to the same tree.
import { describe, expect, it } from 'vitest';
import { printNode, withoutSpans, type BinaryOperator, type Expression, type SourceSpan } from '../../src/p4c/index.js';
import { parseText } from './helpers.js';

const SPAN: SourceSpan = { file: 'gen', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };
const BINARY: BinaryOperator[] = ['*', '/', '%', '+', '-', '|+|', '|-|', '++', '<<', '>>', '&', '^', '|', '<', '>', '<=', '>=', '==', '!=', '&&', '||'];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
}

function generate(next: () => number, depth: number): Expression {
  const leaf = (): Expression =>
    next() < 0.5
      ? { kind: 'PathExpression', path: { kind: 'PathName', name: { kind: 'Name', text: `v${Math.floor(next() * 4)}`, span: SPAN }, absolute: false, span: SPAN }, span: SPAN }
      : { kind: 'IntegerLiteral', value: BigInt(Math.floor(next() * 300)), width: next() < 0.5 ? null : 16, signed: false, base: next() < 0.5 ? 10 : 16, span: SPAN };
  if (depth === 0) return leaf();
  const sub = (): Expression => generate(next, depth - 1);
  const choice = Math.floor(next() * 10);
  switch (choice) {
    case 0:
      return { kind: 'UnaryExpression', operator: (['!', '~', '-', '+'] as const)[Math.floor(next() * 4)]!, operand: sub(), span: SPAN };
    case 1:
      return { kind: 'ConditionalExpression', condition: sub(), whenTrue: sub(), whenFalse: sub(), span: SPAN };
    case 2:
      return { kind: 'CastExpression', type: { kind: 'BitsType', signed: false, width: { kind: 'IntegerLiteral', value: 8n, width: null, signed: false, base: 10, span: SPAN }, span: SPAN }, operand: sub(), span: SPAN };
    case 3:
      return { kind: 'SliceExpression', target: sub(), high: leaf(), low: leaf(), span: SPAN };
    case 4:
      return { kind: 'MemberExpression', target: sub(), member: { kind: 'Name', text: 'f', span: SPAN }, span: SPAN };
    case 5:
      return { kind: 'CallExpression', callee: leaf(), typeArgs: [], args: [{ kind: 'Argument', name: null, value: sub(), span: SPAN }], span: SPAN };
    default:
      return { kind: 'BinaryExpression', operator: BINARY[Math.floor(next() * BINARY.length)]!, left: sub(), right: sub(), span: SPAN };
  }
}

describe('printing expressions', () => {
  it('round-trips 300 random expression trees through text', () => {
    const next = random(7);
    for (let i = 0; i < 300; i++) {
      const tree = generate(next, 1 + Math.floor(next() * 4));
      const text = printNode(tree);
      const { ast, diagnostics } = parseText(`const bit<8> X = ${text};`);
      expect(diagnostics.map((d) => d.message), text).toEqual([]);
      const parsed = ast.declarations[0]!;
      expect(parsed.kind).toBe('ConstantDeclaration');
      if (parsed.kind !== 'ConstantDeclaration') return;
      expect(withoutSpans(parsed.value), text).toEqual(withoutSpans(tree));
    }
  });

  it('adds only the parentheses precedence needs', () => {
    const { ast } = parseText('const bit<8> X = ((a + (b * c)) == (d & e)) ? (-(f)) : ((bit<8>)(g[3:0]));');
    const decl = ast.declarations[0]!;
    expect(printNode(decl)).toBe('const bit<8> X = a + b * c == d & e ? -f : (bit<8>)g[3:0];\n');
  });
});
