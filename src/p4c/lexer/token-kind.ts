/**
 * @fileoverview The kinds of P4-16 tokens, the keyword table and the
 * spellings used in messages ("expected ';'").
 */

export const enum TokenKind {
  EndOfFile,
  Identifier,
  IntegerLiteral,
  StringLiteral,
  /** Text the lexer could not make sense of; carries a problem the preprocessor reports. */
  Invalid,
  /** `#`: only the preprocessor uses it. */
  Hash,

  // Keywords
  Abstract,
  Action,
  Actions,
  Apply,
  Bool,
  Bit,
  Const,
  Control,
  Default,
  Else,
  Entries,
  Enum,
  Error,
  Exit,
  Extern,
  False,
  Header,
  HeaderUnion,
  If,
  In,
  InOut,
  Int,
  Key,
  MatchKind,
  Out,
  Package,
  Parser,
  Return,
  Select,
  State,
  String,
  Struct,
  Switch,
  Table,
  This,
  Transition,
  True,
  Tuple,
  Type,
  Typedef,
  Varbit,
  ValueSet,
  Void,
  /** `_`, the don't-care. */
  Underscore,

  // Punctuation and operators
  At,
  LeftParen,
  RightParen,
  LeftBrace,
  RightBrace,
  LeftBracket,
  RightBracket,
  Semicolon,
  Comma,
  Dot,
  DotDot,
  Colon,
  Question,
  Assign,
  Less,
  Greater,
  LessEqual,
  GreaterEqual,
  EqualEqual,
  NotEqual,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  PlusPlus,
  PlusSaturating,
  MinusSaturating,
  ShiftLeft,
  Ampersand,
  AmpersandAmpersand,
  Mask,
  Pipe,
  PipePipe,
  Caret,
  Tilde,
  Bang,
}

/** Reserved words and the token kind each lexes to. */
export const KEYWORDS: ReadonlyMap<string, TokenKind> = new Map([
  ['abstract', TokenKind.Abstract],
  ['action', TokenKind.Action],
  ['actions', TokenKind.Actions],
  ['apply', TokenKind.Apply],
  ['bool', TokenKind.Bool],
  ['bit', TokenKind.Bit],
  ['const', TokenKind.Const],
  ['control', TokenKind.Control],
  ['default', TokenKind.Default],
  ['else', TokenKind.Else],
  ['entries', TokenKind.Entries],
  ['enum', TokenKind.Enum],
  ['error', TokenKind.Error],
  ['exit', TokenKind.Exit],
  ['extern', TokenKind.Extern],
  ['false', TokenKind.False],
  ['header', TokenKind.Header],
  ['header_union', TokenKind.HeaderUnion],
  ['if', TokenKind.If],
  ['in', TokenKind.In],
  ['inout', TokenKind.InOut],
  ['int', TokenKind.Int],
  ['key', TokenKind.Key],
  ['match_kind', TokenKind.MatchKind],
  ['out', TokenKind.Out],
  ['package', TokenKind.Package],
  ['parser', TokenKind.Parser],
  ['return', TokenKind.Return],
  ['select', TokenKind.Select],
  ['state', TokenKind.State],
  ['string', TokenKind.String],
  ['struct', TokenKind.Struct],
  ['switch', TokenKind.Switch],
  ['table', TokenKind.Table],
  ['this', TokenKind.This],
  ['transition', TokenKind.Transition],
  ['true', TokenKind.True],
  ['tuple', TokenKind.Tuple],
  ['type', TokenKind.Type],
  ['typedef', TokenKind.Typedef],
  ['varbit', TokenKind.Varbit],
  ['value_set', TokenKind.ValueSet],
  ['void', TokenKind.Void],
  ['_', TokenKind.Underscore],
]);

/** Operators and punctuation, longest first so the lexer can match greedily. */
export const PUNCTUATION: readonly (readonly [string, TokenKind])[] = [
  ['&&&', TokenKind.Mask],
  ['|+|', TokenKind.PlusSaturating],
  ['|-|', TokenKind.MinusSaturating],
  ['&&', TokenKind.AmpersandAmpersand],
  ['||', TokenKind.PipePipe],
  ['==', TokenKind.EqualEqual],
  ['!=', TokenKind.NotEqual],
  ['<=', TokenKind.LessEqual],
  ['>=', TokenKind.GreaterEqual],
  ['<<', TokenKind.ShiftLeft],
  ['++', TokenKind.PlusPlus],
  ['..', TokenKind.DotDot],
  // No '>>' token: `bit<8>>` must close two angle brackets. The parser reads a
  // shift as two '>' with nothing between them.
  ['@', TokenKind.At],
  ['(', TokenKind.LeftParen],
  [')', TokenKind.RightParen],
  ['{', TokenKind.LeftBrace],
  ['}', TokenKind.RightBrace],
  ['[', TokenKind.LeftBracket],
  [']', TokenKind.RightBracket],
  [';', TokenKind.Semicolon],
  [',', TokenKind.Comma],
  ['.', TokenKind.Dot],
  [':', TokenKind.Colon],
  ['?', TokenKind.Question],
  ['=', TokenKind.Assign],
  ['<', TokenKind.Less],
  ['>', TokenKind.Greater],
  ['+', TokenKind.Plus],
  ['-', TokenKind.Minus],
  ['*', TokenKind.Star],
  ['/', TokenKind.Slash],
  ['%', TokenKind.Percent],
  ['&', TokenKind.Ampersand],
  ['|', TokenKind.Pipe],
  ['^', TokenKind.Caret],
  ['~', TokenKind.Tilde],
  ['!', TokenKind.Bang],
  ['#', TokenKind.Hash],
];

const SPELLING = new Map<TokenKind, string>([
  ...[...KEYWORDS].map(([text, kind]) => [kind, text] as const),
  ...PUNCTUATION.map(([text, kind]) => [kind, text] as const),
]);

/** How a kind is named in messages: `';'`, `'table'`, `a name`, `end of file`. */
export function tokenKindName(kind: TokenKind): string {
  switch (kind) {
    case TokenKind.EndOfFile:
      return 'end of file';
    case TokenKind.Identifier:
      return 'a name';
    case TokenKind.IntegerLiteral:
      return 'an integer';
    case TokenKind.StringLiteral:
      return 'a string';
    case TokenKind.Invalid:
      return 'invalid text';
    default:
      return `'${SPELLING.get(kind) ?? '?'}'`;
  }
}

/** The keywords that may also be used as names (p4c's nonTypeName). */
export function isContextualKeyword(kind: TokenKind): boolean {
  return (
    kind === TokenKind.Apply ||
    kind === TokenKind.Key ||
    kind === TokenKind.Actions ||
    kind === TokenKind.State ||
    kind === TokenKind.Entries ||
    kind === TokenKind.Type
  );
}
