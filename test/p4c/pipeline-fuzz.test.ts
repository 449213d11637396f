// Seeded, bounded mutation fuzzing of the whole pipeline (not just the
// parser): mutations that keep the syntax valid (a name swapped for another
// name of the program, a number or width changed, a statement dropped) so
// that the semantic passes, P4Info and the IR see them. Only diagnostics,
// never an exception or an internal error.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProgram, lex, memoryFileSystem, nodeFileSystem, serializeIr, TokenKind, type Token } from '../../src/p4c/index.js';
import { CORPUS_DIR, corpusPrograms } from './helpers.js';
import { mulberry32 } from '../helpers/mulberry32.js';


const NUMBERS = ['0', '1', '7', '8', '9', '16', '32', '48', '255', '65536', '8w300', '4w1', '16s5', '0x0800'];

function mutate(text: string, next: () => number): string {
  const tokens = lex(text, 'm.p4').filter((t) => t.kind !== TokenKind.EndOfFile);
  const names = tokens.filter((t) => t.kind === TokenKind.Identifier);
  const numbers = tokens.filter((t) => t.kind === TokenKind.IntegerLiteral);
  const semicolons = tokens.filter((t) => t.text === ';');
  const replace = (token: Token, by: string): string => text.slice(0, token.span.start.offset) + by + text.slice(token.span.end.offset);
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)];
  const choice = next();
  if (choice < 0.5 && names.length > 1) return replace(pick(names)!, pick(names)!.text);
  if (choice < 0.8 && numbers.length > 0) return replace(pick(numbers)!, pick(NUMBERS)!);
  if (semicolons.length > 1) {
    // Drop one statement: from after the previous ';' to this one.
    const index = 1 + Math.floor(next() * (semicolons.length - 1));
    return text.slice(0, semicolons[index - 1]!.span.end.offset) + text.slice(semicolons[index]!.span.end.offset);
  }
  return text;
}

const SEED = 20261122;
const MUTANTS_PER_PROGRAM = 25;

describe('whole-pipeline mutation fuzzing', () => {
  it.each(corpusPrograms())('%s: mutants produce diagnostics or a valid IR, never exceptions', (name) => {
    const file = path.join(CORPUS_DIR, name);
    const original = readFileSync(file, 'utf8');
    const next = mulberry32(SEED + name.length * 104729);
    let rejected = 0;
    for (let i = 0; i < MUTANTS_PER_PROGRAM; i++) {
      let mutant = original;
      const rounds = 1 + Math.floor(next() * 2);
      for (let r = 0; r < rounds; r++) mutant = mutate(mutant, next);
      let result;
      try {
        result = compileProgram(file, { text: mutant, maxErrors: 50, fileSystem: memoryFileSystem({ [file]: mutant }, nodeFileSystem) });
      } catch (error) {
        throw new Error(`${name} mutant ${i} (seed ${SEED}) threw: ${String(error)}\n---\n${mutant}`, { cause: error });
      }
      const internal = result.diagnostics.filter((d) => d.id === 'InternalError');
      expect(internal, `${name} mutant ${i}:\n${internal.map((d) => d.message).join('\n')}\n---\n${mutant}`).toEqual([]);
      if (result.hasErrors) rejected++;
      else expect(() => serializeIr(result.ir!)).not.toThrow();
    }
    console.log(`compiler fuzz ${name} (seed ${SEED}): ${MUTANTS_PER_PROGRAM} mutated programs: 0 crashes, ${rejected} refused with diagnostics, ${MUTANTS_PER_PROGRAM - rejected} compiled`);
    // Many mutants must reach the semantic passes and be rejected there, or the test checks little.
    expect(rejected).toBeGreaterThan(0);
  });
});
