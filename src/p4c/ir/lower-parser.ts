/**
 * @fileoverview Parser states to IR: the body's statements and the
 * transition, a `select` becoming keys and cases of keysets (values, masks,
 * ranges, value sets, default).
 */
import type { ParserDeclaration } from '../ast/declarations.js';
import type { ExpressionLowering } from './lower-expressions.js';
import type { StatementLowering } from './lower-statements.js';
import type { IrParserState } from './types.js';

export function lowerParserStates(decl: ParserDeclaration, statements: StatementLowering, expressions: ExpressionLowering): IrParserState[] {
  return decl.states.map((state) => {
    const t = state.transition;
    const body = statements.block(state.body);
    if (!t) return { name: state.name.text, body, transition: null };
    if (t.kind === 'PathExpression') return { name: state.name.text, body, transition: { kind: 'goto', state: t.path.name.text } };
    return {
      name: state.name.text,
      body,
      transition: {
        kind: 'select',
        keys: t.selectors.map((s) => expressions.expression(s)),
        cases: t.cases.map((c) => ({
          keysets: c.keyset.kind === 'ListExpression' ? c.keyset.elements.map((k) => expressions.keyset(k)) : [expressions.keyset(c.keyset)],
          state: c.state.path.name.text,
        })),
      },
    };
  });
}
