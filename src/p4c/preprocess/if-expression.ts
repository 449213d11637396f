/**
 * @fileoverview The integer expressions of `#if` and `#elif`, with C
 * preprocessor rules: `defined(X)` and `defined X` test the macro table,
 * remaining macros are expanded, names left over count as 0, and the usual
 * C operators apply with C's precedence (this is the preprocessor's language,
 * not P4's). Arithmetic is on BigInt, so nothing overflows.
 */
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { MAX_NESTING } from '../parser/nesting-limit.js';

export type IfValue = { ok: true; value: bigint } | { ok: false; reason: string };

/** Replaces `defined X` / `defined(X)` by 1 or 0; null when malformed. */
export function replaceDefined(tokens: readonly Token[], isDefined: (name: string) => boolean): Token[] | null {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== TokenKind.Identifier || token.text !== 'defined') {
      out.push(token);
      continue;
    }
    const parenthesised = tokens[i + 1]?.kind === TokenKind.LeftParen;
    const name = tokens[i + (parenthesised ? 2 : 1)];
    if (!name || !/^[A-Za-z_]\w*$/.test(name.text)) return null;
    if (parenthesised && tokens[i + 3]?.kind !== TokenKind.RightParen) return null;
    const value = isDefined(name.text) ? 1n : 0n;
    out.push({ ...token, kind: TokenKind.IntegerLiteral, text: String(value), integer: { value, width: null, signed: false, base: 10 } });
    i += parenthesised ? 3 : 1;
  }
  return out;
}

/** Binary operators by C precedence, lowest first. */
const LEVELS: readonly (readonly string[])[] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<', '>', '<=', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

class Failure {
  constructor(readonly reason: string) {}
}

/** Evaluates the (already expanded) tokens of an #if line. */
export function evaluateIfExpression(tokens: readonly Token[]): IfValue {
  if (tokens.length === 0) return { ok: false, reason: 'the expression is empty' };
  const evaluator = new Evaluator(tokens);
  const result = evaluator.run();
  return result instanceof Failure ? { ok: false, reason: result.reason } : { ok: true, value: result };
}

class Evaluator {
  private pos = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  run(): bigint | Failure {
    const value = this.conditional();
    if (value instanceof Failure) return value;
    if (this.pos < this.tokens.length) return new Failure(`unexpected '${this.tokens[this.pos]!.text}'`);
    return value;
  }

  /** The operator at the cursor; `>>` is two adjacent '>' tokens. */
  private operator(): string | undefined {
    const token = this.tokens[this.pos];
    if (!token) return undefined;
    const next = this.tokens[this.pos + 1];
    if (token.kind === TokenKind.Greater && next?.kind === TokenKind.Greater && !next.spaceBefore) return '>>';
    return token.text;
  }

  /** One level of a recursive rule; parentheses, `?:` and unary operators nest, and the stack must not run out. */
  private nested(rule: () => bigint | Failure): bigint | Failure {
    if (this.depth >= MAX_NESTING) return new Failure(`nested more than ${MAX_NESTING} levels deep`);
    this.depth++;
    try {
      return rule();
    } finally {
      this.depth--;
    }
  }

  private conditional(): bigint | Failure {
    const condition = this.binary(0);
    if (condition instanceof Failure || this.operator() !== '?') return condition;
    this.pos++;
    const whenTrue = this.nested(() => this.conditional());
    if (whenTrue instanceof Failure) return whenTrue;
    if (this.operator() !== ':') return new Failure("expected ':'");
    this.pos++;
    const whenFalse = this.nested(() => this.conditional());
    if (whenFalse instanceof Failure) return whenFalse;
    return condition !== 0n ? whenTrue : whenFalse;
  }

  private binary(level: number): bigint | Failure {
    if (level >= LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    while (!(left instanceof Failure)) {
      const op = this.operator();
      if (op === undefined || !LEVELS[level]!.includes(op)) break;
      this.pos += op === '>>' ? 2 : 1;
      const right = this.binary(level + 1);
      if (right instanceof Failure) return right;
      left = apply(op, left, right);
    }
    return left;
  }

  private unary(): bigint | Failure {
    return this.nested(() => this.unaryLevel());
  }

  private unaryLevel(): bigint | Failure {
    const token = this.tokens[this.pos];
    if (!token) return new Failure('the expression ends too early');
    this.pos++;
    switch (token.kind) {
      case TokenKind.Bang: {
        const v = this.unary();
        return v instanceof Failure ? v : v === 0n ? 1n : 0n;
      }
      case TokenKind.Tilde: {
        const v = this.unary();
        return v instanceof Failure ? v : ~v;
      }
      case TokenKind.Minus: {
        const v = this.unary();
        return v instanceof Failure ? v : -v;
      }
      case TokenKind.Plus:
        return this.unary();
      case TokenKind.LeftParen: {
        const v = this.conditional();
        if (v instanceof Failure) return v;
        if (this.tokens[this.pos]?.kind !== TokenKind.RightParen) return new Failure("expected ')'");
        this.pos++;
        return v;
      }
      case TokenKind.IntegerLiteral:
        return token.problem ? new Failure(`bad number '${token.text}'`) : token.integer!.value;
      case TokenKind.True:
        return 1n;
      case TokenKind.False:
        return 0n;
      default:
        // Names that are not macros are 0 in #if, as in C.
        if (/^[A-Za-z_]\w*$/.test(token.text)) return 0n;
        return new Failure(`unexpected '${token.text}'`);
    }
  }
}

function apply(op: string, a: bigint, b: bigint): bigint | Failure {
  const bool = (x: boolean): bigint => (x ? 1n : 0n);
  switch (op) {
    case '||':
      return bool(a !== 0n || b !== 0n);
    case '&&':
      return bool(a !== 0n && b !== 0n);
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '&':
      return a & b;
    case '==':
      return bool(a === b);
    case '!=':
      return bool(a !== b);
    case '<':
      return bool(a < b);
    case '>':
      return bool(a > b);
    case '<=':
      return bool(a <= b);
    case '>=':
      return bool(a >= b);
    case '<<':
      return b < 0n || b > 4096n ? new Failure('shift amount out of range') : a << b;
    case '>>':
      return b < 0n || b > 4096n ? new Failure('shift amount out of range') : a >> b;
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    default:
      if (b === 0n) return new Failure('division by zero');
      return op === '/' ? a / b : a % b;
  }
}
