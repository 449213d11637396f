// Mutations of P4 source text for the programs fuzz: token edits that break
// the syntax (delete, duplicate, swap, insert), edits that keep it (a name or
// number replaced by another, an @id added), values at the compiler's limits
// (sizes, widths, ids), and nesting past them (parentheses, operator chains,
// nested ifs and ?:). Each takes the text and a seeded random source.
import { lex, TokenKind, type Token } from '../../src/p4c/index.js';

export type Rng = () => number;
export type Mutation = (text: string, rng: Rng) => string;

const pick = <T>(rng: Rng, items: readonly T[]): T | undefined => items[Math.floor(rng() * items.length)];

const INSERTS = ['{', '}', '(', ')', '[', ']', ';', ',', ':', '<', '>', '.', '@', '#', '"', '=', '&&&', '..', '?', 'table', 'state', 'apply',
  'action', 'select', 'transition', 'switch', 'default', '_', 'const', 'bit<8>', 'x', '8w1', 'if', 'else', 'return', 'exit', '#endif', '#if 1'];

/** Numbers at and past the limits: sizes, widths, counts, ids. */
const LIMIT_NUMBERS = ['0', '1', '255', '256', '4096', '65536', '2147483647', '2147483648', '4294967296', '9007199254740993', '8w256', '4s8', '0xffffffff', '0x01000001'];

const ID_VALUES = ['0', '5', '0x01000001', '0x02000001', '0x11000001', '4294967296', '-1', '"x"'];

function tokensOf(text: string): Token[] {
  return lex(text, 'mutant.p4').filter((t) => t.kind !== TokenKind.EndOfFile);
}

function replace(text: string, token: Token, by: string): string {
  return text.slice(0, token.span.start.offset) + by + text.slice(token.span.end.offset);
}

/** Deletes, duplicates or swaps a token, or inserts one from INSERTS before it. */
const tokenEdit: Mutation = (text, rng) => {
  const tokens = tokensOf(text);
  if (tokens.length < 2) return text;
  const index = Math.floor(rng() * (tokens.length - 1));
  const token = tokens[index]!;
  const next = tokens[index + 1]!;
  const choice = rng();
  if (choice < 0.3) return replace(text, token, '');
  if (choice < 0.5) return replace(text, token, `${token.text} ${token.text}`);
  if (choice < 0.7) return text.slice(0, token.span.start.offset) + `${next.text} ${token.text}` + text.slice(next.span.end.offset);
  return text.slice(0, token.span.start.offset) + `${pick(rng, INSERTS)!} ` + text.slice(token.span.start.offset);
};

/** A name replaced by another name of the file, or a number by a number at the limits: the syntax stays valid. */
const valueEdit: Mutation = (text, rng) => {
  const tokens = tokensOf(text);
  const names = tokens.filter((t) => t.kind === TokenKind.Identifier);
  const numbers = tokens.filter((t) => t.kind === TokenKind.IntegerLiteral);
  if (rng() < 0.5 && names.length > 1) return replace(text, pick(rng, names)!, pick(rng, names)!.text);
  if (numbers.length > 0) return replace(text, pick(rng, numbers)!, pick(rng, LIMIT_NUMBERS)!);
  return text;
};

/** `@id(N)` with N at or past p4c's rules, before a table, action or extern instance. */
const idEdit: Mutation = (text, rng) => {
  const tokens = tokensOf(text);
  const targets = tokens.filter((t) => t.text === 'table' || t.text === 'action' || t.text === 'register' || t.text === 'counter');
  const target = pick(rng, targets);
  return target ? text.slice(0, target.span.start.offset) + `@id(${pick(rng, ID_VALUES)!}) ` + text.slice(target.span.start.offset) : text;
};

/** An operand nested 100 to 5,000 levels: in parentheses, negations, a `+` chain or `?:` in then-branches. */
const deepNesting: Mutation = (text, rng) => {
  const tokens = tokensOf(text);
  const operands = tokens.filter((t, i) => (t.kind === TokenKind.IntegerLiteral || t.kind === TokenKind.Identifier) && tokens[i - 1]?.text === '=');
  const target = pick(rng, operands);
  if (!target) return text;
  const n = pick(rng, [100, 250, 300, 1000, 5000])!;
  const x = target.text;
  const forms = [
    `${'('.repeat(n)}${x}${')'.repeat(n)}`,
    `${'-'.repeat(n)}${x}`,
    `(${Array<string>(n).fill(x).join(' + ')})`,
    `(${'true ? '.repeat(n)}${x}${` : ${x}`.repeat(n)})`,
  ];
  return replace(text, target, pick(rng, forms)!);
};

/** A statement nested in 100 to 2,000 ifs. */
const deepStatements: Mutation = (text, rng) => {
  const tokens = tokensOf(text);
  const applies = tokens.filter((t, i) => t.text === 'apply' && tokens[i + 1]?.text === '{');
  const target = pick(rng, applies);
  if (!target) return text;
  const n = pick(rng, [100, 300, 2000])!;
  const at = target.span.end.offset + text.slice(target.span.end.offset).indexOf('{') + 1;
  return `${text.slice(0, at)} ${'if (true) { '.repeat(n)}${' }'.repeat(n)} ${text.slice(at)}`;
};

/** The mutations with their weights; one or two are applied per mutant. */
export const MUTATIONS: readonly (readonly [Mutation, number])[] = [
  [tokenEdit, 0.35],
  [valueEdit, 0.4],
  [idEdit, 0.1],
  [deepNesting, 0.1],
  [deepStatements, 0.05],
];

export function mutate(text: string, rng: Rng): string {
  let out = text;
  for (let rounds = 1 + Math.floor(rng() * 2); rounds > 0; rounds--) {
    let r = rng();
    const [mutation] = MUTATIONS.find(([, weight]) => (r -= weight) < 0) ?? MUTATIONS[0]!;
    out = mutation(out, rng);
  }
  return out;
}
