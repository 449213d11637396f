// Seeded, bounded mutation fuzzing: valid programs with tokens deleted,
// duplicated, swapped or inserted, and characters garbled, must never make
// the front end throw or report an internal error, only diagnostics (a
// crash fails the test at once; the counts go to the output).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lex, parseSource, TokenKind } from '../../src/p4c/index.js';
import { CORPUS_DIR, corpusPrograms } from './helpers.js';
import { mulberry32 } from '../helpers/mulberry32.js';


const INSERTS = ['{', '}', '(', ')', '[', ']', ';', ',', ':', '<', '>', '>>', '.', '@', '#', '"', '/*', '\\', '=', '&&&', '..',
  'table', 'state', 'apply', 'control', 'parser', 'action', 'select', 'transition', 'switch', 'default', '_', 'const', 'extern',
  'bit<8>', 'x', '8w1', '0x', '#include "x.p4"', '#if', '#endif', '#define A(', 'header', 'return', 'else', 'if', '?', 'priority ='];

type Mutation = (text: string, next: () => number) => string;

const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)]!;

/** Token-level mutations keep most of the program intact, so the parser goes deep before it fails. */
const tokenMutation: Mutation = (text, next) => {
  const tokens = lex(text, 'm.p4').filter((t) => t.kind !== TokenKind.EndOfFile);
  if (tokens.length < 2) return text;
  const index = Math.floor(next() * (tokens.length - 1));
  const token = tokens[index]!;
  const { offset: start } = token.span.start;
  const { offset: end } = token.span.end;
  const following = tokens[index + 1]!;
  switch (Math.floor(next() * 4)) {
    case 0:
      return text.slice(0, start) + text.slice(end);
    case 1:
      return text.slice(0, end) + ' ' + token.text + text.slice(end);
    case 2:
      return text.slice(0, start) + following.text + ' ' + token.text + text.slice(following.span.end.offset);
    default:
      return text.slice(0, start) + pick(INSERTS, next) + ' ' + text.slice(start);
  }
};

const characterMutation: Mutation = (text, next) => {
  const at = Math.floor(next() * text.length);
  if (next() < 0.5) return text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 20));
  return text.slice(0, at) + String.fromCharCode(32 + Math.floor(next() * 95)) + text.slice(at);
};

const SEED = 20240611;
const MUTANTS_PER_PROGRAM = 40;

describe('mutation fuzzing', () => {
  it.each(corpusPrograms())('%s: mutants produce diagnostics, never exceptions', (name) => {
    const file = path.join(CORPUS_DIR, name);
    const original = readFileSync(file, 'utf8');
    const next = mulberry32(SEED + name.length * 7919);
    let withErrors = 0;
    for (let i = 0; i < MUTANTS_PER_PROGRAM; i++) {
      let mutant = original;
      const rounds = 1 + Math.floor(next() * 3);
      for (let r = 0; r < rounds; r++) mutant = (next() < 0.75 ? tokenMutation : characterMutation)(mutant, next);
      let result;
      try {
        result = parseSource(mutant, file, { maxErrors: 50 });
      } catch (error) {
        throw new Error(`${name} mutant ${i} (seed ${SEED}) threw: ${String(error)}\n---\n${mutant}`, { cause: error });
      }
      const internal = result.diagnostics.filter((d) => d.id === 'InternalError');
      expect(internal, `${name} mutant ${i}:\n${mutant}`).toEqual([]);
      expect(result.diagnostics.length).toBeLessThanOrEqual(51 + result.diagnostics.filter((d) => d.severity !== 'error').length);
      if (result.hasErrors) withErrors++;
    }
    console.log(`parser fuzz ${name} (seed ${SEED}): ${MUTANTS_PER_PROGRAM} mutated programs: 0 crashes, ${withErrors} with errors, ${MUTANTS_PER_PROGRAM - withErrors} without`);
    // Most mutants are broken; the test is only meaningful if the parser saw errors.
    expect(withErrors).toBeGreaterThan(MUTANTS_PER_PROGRAM / 2);
  });
});
