/**
 * @fileoverview Macros: the table of `#define`s and their expansion.
 *
 * Object-like macros (`#define N 8`) and function-like ones
 * (`#define MAX(a, b) ((a) > (b) ? (a) : (b))`) are supported; the `#` and
 * `##` operators are not (reported when the macro is defined). As in C, a
 * macro is not expanded again inside its own expansion, arguments are
 * expanded before they are substituted, and the result is rescanned.
 *
 * Expanded tokens take the span of the macro's use, with `expandedFrom`
 * naming the macro and the body token's place in its definition, so a
 * diagnostic inside an expansion points at the line the user wrote.
 */
import type { DiagnosticBag } from '../diagnostics/bag.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import type { SourceSpan } from '../source/span.js';

export interface Macro {
  readonly name: string;
  /** Parameter names of a function-like macro; null for an object-like one. */
  readonly params: readonly string[] | null;
  readonly body: readonly Token[];
  readonly definedAt: SourceSpan;
}

/** Expansions nested deeper than this are reported and left unexpanded. */
const MAX_EXPANSION_DEPTH = 64;

/** Tokens one preprocessing run may create by expansion (guards against `#define A B B` bombs). */
const MAX_EXPANDED_TOKENS = 1_000_000;

/** Appends without spreading, which overflows the stack for very long arrays. */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

export class MacroTable {
  private readonly macros = new Map<string, Macro>();

  get(name: string): Macro | undefined {
    return this.macros.get(name);
  }

  has(name: string): boolean {
    return this.macros.has(name);
  }

  define(macro: Macro): Macro | undefined {
    const previous = this.macros.get(macro.name);
    this.macros.set(macro.name, macro);
    return previous;
  }

  undefine(name: string): void {
    this.macros.delete(name);
  }
}

/** The definition as `#define` would take it: `NAME body` or `NAME(a, b) body`. */
export function macroDefinitionText(macro: Macro): string {
  const params = macro.params === null ? '' : `(${macro.params.join(', ')})`;
  const body = macro.body.map((t, i) => (i > 0 && t.spaceBefore ? ' ' : '') + t.text).join('');
  return body === '' ? `${macro.name}${params}` : `${macro.name}${params} ${body}`;
}

/** True when two definitions are the same, so redefining is harmless (C's rule). */
export function sameDefinition(a: Macro, b: Macro): boolean {
  return macroDefinitionText(a) === macroDefinitionText(b);
}

export class MacroExpander {
  private budget = MAX_EXPANDED_TOKENS;
  private overBudget = false;

  constructor(
    private readonly table: MacroTable,
    private readonly diagnostics: DiagnosticBag,
  ) {}

  /** Expands every macro use in `tokens`. */
  expand(tokens: readonly Token[]): Token[] {
    return this.expandList(tokens, new Set(), 0);
  }

  private expandList(tokens: readonly Token[], hidden: ReadonlySet<string>, depth: number): Token[] {
    const out: Token[] = [];
    let i = 0;
    while (i < tokens.length) {
      const token = tokens[i]!;
      const macro = token.kind === TokenKind.Identifier && !hidden.has(token.text) ? this.table.get(token.text) : undefined;
      if (!macro) {
        out.push(token);
        i++;
        continue;
      }
      if (depth >= MAX_EXPANSION_DEPTH) {
        this.diagnostics.report('MacroExpansionTooDeep', token.span, [macro.name, MAX_EXPANSION_DEPTH]);
        out.push(token);
        i++;
        continue;
      }
      if (!this.spend(macro, token)) {
        out.push(token);
        i++;
        continue;
      }
      const inner = new Set(hidden).add(macro.name);
      if (macro.params === null) {
        appendAll(out, this.expandList(relocate(macro.body, token, macro), inner, depth + 1));
        i++;
        continue;
      }
      if (tokens[i + 1]?.kind !== TokenKind.LeftParen) {
        // A function-like macro's name without arguments is just a name.
        out.push(token);
        i++;
        continue;
      }
      const call = collectArguments(tokens, i + 2);
      if (!call) {
        this.diagnostics.report('UnterminatedMacroCall', token.span, [macro.name]);
        return out;
      }
      i = call.end;
      const args = call.args.length === 1 && call.args[0]!.length === 0 && macro.params.length === 0 ? [] : call.args;
      if (args.length !== macro.params.length) {
        this.diagnostics.report('MacroArgumentCount', token.span, [macro.name, macro.params.length, args.length]);
        continue;
      }
      const expandedArgs = args.map((arg) => this.expandList(arg, hidden, depth + 1));
      const substituted = substitute(macro, token, expandedArgs);
      appendAll(out, this.expandList(substituted, inner, depth + 1));
    }
    return out;
  }

  /** Charges one expansion to the run's budget; false (reported once) when it is spent. */
  private spend(macro: Macro, use: Token): boolean {
    this.budget -= macro.body.length + 1;
    if (this.budget >= 0) return true;
    if (!this.overBudget) {
      this.overBudget = true;
      this.diagnostics.report('MacroExpansionTooLarge', use.span, [macro.name, MAX_EXPANDED_TOKENS]);
    }
    return false;
  }
}

/** Splits `a, (b, c), d)` at top-level commas; `end` is just past the closing parenthesis. */
function collectArguments(tokens: readonly Token[], start: number): { args: Token[][]; end: number } | null {
  const args: Token[][] = [[]];
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === TokenKind.LeftParen) depth++;
    else if (token.kind === TokenKind.RightParen) {
      if (depth === 0) return { args, end: i + 1 };
      depth--;
    } else if (token.kind === TokenKind.Comma && depth === 0) {
      args.push([]);
      continue;
    }
    args[args.length - 1]!.push(token);
  }
  return null;
}

function substitute(macro: Macro, use: Token, args: readonly Token[][]): Token[] {
  const params = macro.params ?? [];
  const out: Token[] = [];
  for (const [index, token] of relocate(macro.body, use, macro).entries()) {
    const param = token.kind === TokenKind.Identifier ? params.indexOf(token.text) : -1;
    if (param < 0) {
      out.push(token);
      continue;
    }
    const arg = args[param]!;
    arg.forEach((t, k) => out.push(k === 0 ? { ...t, spaceBefore: macro.body[index]!.spaceBefore } : t));
  }
  return out;
}

/** Body tokens as if written where the macro was used. */
function relocate(body: readonly Token[], use: Token, macro: Macro): Token[] {
  return body.map((token, index) => ({
    ...token,
    span: {
      file: use.span.file,
      start: use.span.start,
      end: use.span.end,
      expandedFrom: use.span.expandedFrom ?? { macro: macro.name, definedAt: token.span },
    },
    spaceBefore: index === 0 ? use.spaceBefore : token.spaceBefore,
    lineStart: false,
  }));
}
