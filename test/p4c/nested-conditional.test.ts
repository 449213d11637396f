// `a ? b : c ? d : e` groups as `(a ? b : c) ? d : e`, as p4c's grammar does
// (p4parser.ypp: `%precedence QUESTION` below `%precedence COLON`, so bison
// reduces the first `?:` before shifting the second `?`). A chain written as
// in C therefore fails type checking, as it does in p4c, and the error says
// how to write it; the parenthesized chain compiles.
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, memoryFileSystem, nodeFileSystem, printNode, walk, type Expression } from '../../src/p4c/index.js';
import { codesAt, parseText, V1MODEL } from './helpers.js';

/** A v1model program whose ingress runs `statement` (on line 9 of the file). */
const PROGRAM = (statement: string): string =>
  `${V1MODEL}header h_t { bit<8> a; }
struct hs_t { h_t h; }
struct m_t { bit<8> x; }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { state start { pk.extract(hdr.h); transition accept; } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    apply {
        ${statement}
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;

const C_STYLE = 'm.x = hdr.h.a == 1 ? 8w2 : hdr.h.a == 2 ? 8w4 : 8w5;';
const PARENTHESIZED = 'm.x = hdr.h.a == 1 ? 8w2 : (hdr.h.a == 2 ? 8w4 : 8w5);';

function compile(statement: string): ReturnType<typeof compileProgram> {
  const text = PROGRAM(statement);
  return compileProgram('test.p4', { text, fileSystem: memoryFileSystem({ 'test.p4': text }, nodeFileSystem) });
}

/** The outermost conditional expression in the program. */
function outerConditional(statement: string): Expression {
  const { ast } = parseText(PROGRAM(statement));
  let found: Expression | undefined;
  walk(ast, (node) => {
    if (!found && node.kind === 'ConditionalExpression') found = node;
  });
  if (!found) throw new Error('no conditional expression');
  return found;
}

describe('nested conditional expressions', () => {
  it('groups an unparenthesized chain to the left, as p4c does', () => {
    const outer = outerConditional(C_STYLE);
    expect(outer.kind === 'ConditionalExpression' && outer.condition.kind).toBe('ConditionalExpression');
    expect(printNode(outer)).toBe('(hdr.h.a == 1 ? 8w2 : hdr.h.a == 2) ? 8w4 : 8w5');
  });

  it('keeps a parenthesized conditional in the else branch', () => {
    const outer = outerConditional(PARENTHESIZED);
    expect(outer.kind === 'ConditionalExpression' && outer.whenFalse.kind).toBe('ConditionalExpression');
    expect(printNode(outer)).toBe('hdr.h.a == 1 ? 8w2 : (hdr.h.a == 2 ? 8w4 : 8w5)');
  });

  it('rejects the C-style chain with advice to parenthesize', () => {
    const result = compile(C_STYLE);
    expect(result.p4info).toBeNull();
    expect(codesAt(result.diagnostics)).toEqual(['P4C3016@9:15']);
    const message = result.diagnostics[0]!.message;
    expect(message).toContain('a condition must be bool, not bit<8>');
    expect(message).toContain('a ? b : (c ? d : e)');
    expect(formatDiagnostics(result.diagnostics)).toContain('test.p4:9:15: error P4C3016');
  });

  it('compiles the parenthesized chain', () => {
    const result = compile(PARENTHESIZED);
    expect(codesAt(result.diagnostics)).toEqual([]);
    expect(result.ir).not.toBeNull();
  });

  it('still reports a plain non-bool condition as P4C3004', () => {
    expect(codesAt(compile('m.x = m.x ? 8w1 : 8w2;').diagnostics)).toEqual(['P4C3004@9:15']);
  });
});
