/**
 * @fileoverview Reading a `#define` line into a macro: its name, its
 * parameters when `(` follows the name with no space between, and its body.
 */
import type { DiagnosticBag } from '../diagnostics/bag.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { sameDefinition, type Macro, type MacroTable } from './macros.js';

const isName = (token: Token | undefined): token is Token => token !== undefined && /^[A-Za-z_]\w*$/.test(token.text);

/** Defines the macro written by `args` (the tokens after `#define`). */
export function defineMacro(args: readonly Token[], directive: Token, table: MacroTable, bag: DiagnosticBag): void {
  const nameToken = args[0];
  if (!isName(nameToken)) {
    bag.report('MalformedDefine', directive.span, ['define']);
    return;
  }
  let params: string[] | null = null;
  let bodyStart = 1;
  if (args[1]?.kind === TokenKind.LeftParen && !args[1].spaceBefore) {
    params = [];
    let i = 2;
    let ok = false;
    while (i < args.length) {
      if (args[i]!.kind === TokenKind.RightParen && params.length === 0) {
        ok = true;
        break;
      }
      if (!isName(args[i])) break;
      params.push(args[i]!.text);
      i++;
      if (args[i]?.kind === TokenKind.RightParen) {
        ok = true;
        break;
      }
      if (args[i]?.kind !== TokenKind.Comma) break;
      i++;
    }
    if (!ok) {
      bag.report('MalformedMacroParameters', nameToken.span, [nameToken.text]);
      return;
    }
    bodyStart = i + 1;
  }
  const body = args.slice(bodyStart).map((t) => ({ ...t, lineStart: false }));
  const hash = body.findIndex((t) => t.kind === TokenKind.Hash);
  if (hash >= 0) {
    const pasted = body[hash + 1]?.kind === TokenKind.Hash && !body[hash + 1]!.spaceBefore;
    bag.report('UnsupportedMacroOperator', body[hash]!.span, [pasted ? '##' : '#']);
    return;
  }
  const macro: Macro = { name: nameToken.text, params, body, definedAt: nameToken.span };
  const previous = table.define(macro);
  if (previous && !sameDefinition(previous, macro)) {
    bag.report('MacroRedefined', nameToken.span, [macro.name], [{ message: 'previous definition', span: previous.definedAt }]);
  }
}

/** The text of a directive's arguments, single-spaced as written (for #error and #warning). */
export function directiveText(args: readonly Token[]): string {
  return args.map((t, i) => (i > 0 && t.spaceBefore ? ' ' : '') + t.text).join('');
}
