// A seeded, bounded mutation fuzz of the text-format reader: whatever the
// text, parsing either succeeds (and then formats and reparses to the same
// object) or throws a TextFormatError with a position. Nothing else.
import { expect, test } from 'vitest';
import { formatTextProto, parseTextProto, TextFormatError, TextFormatErrorCode } from '../../src/p4info/text-format/index.js';
import { FIXTURES, fixtureText } from './fixtures.js';
import { mulberry32 } from '../helpers/mulberry32.js';

const P4INFO = 'p4.config.v1.P4Info';
const ITERATIONS = 3000;
const CODES = new Set<string>(Object.values(TextFormatErrorCode));


/** Pieces that tend to hit the reader's corners. */
const SNIPPETS = [
  '{', '}', '<', '>', '[', ']', ':', ';', ',', '"', "'", '\\', '#', '\n', '-', '.', '/', ' ',
  '0x', '08', '1e', '1.5f', '-0', '4294967296', '18446744073709551616', 'nan', 'inf', 'true', 't',
  '\\x', '\\u12', '\\377', '\\400', 'é', '\u0000', '\u{1F600}', 'tables', 'preamble', 'id', 'size',
  'match_type: LPM', 'scope: 9', 'structs { key: "k" }', '[type.googleapis.com/p4.v1.Error] {}',
  'value: "\\000"', 'annotations: ["a", "b"]', 'tables: [{}, {}]', 'type_spec { tuple { members { } } }',
];

function mutate(text: string, random: () => number): string {
  const at = (): number => Math.floor(random() * (text.length + 1));
  const steps = 1 + Math.floor(random() * 4);
  for (let i = 0; i < steps; i++) {
    const start = at();
    switch (Math.floor(random() * 5)) {
      case 0: // delete a short range
        text = text.slice(0, start) + text.slice(start + 1 + Math.floor(random() * 12));
        break;
      case 1: // insert a snippet
        text = text.slice(0, start) + SNIPPETS[Math.floor(random() * SNIPPETS.length)] + text.slice(start);
        break;
      case 2: // replace one character with a random code unit
        text = text.slice(0, start) + String.fromCharCode(Math.floor(random() * 0x110)) + text.slice(start + 1);
        break;
      case 3: // duplicate a slice somewhere else
        text = text.slice(0, at()) + text.slice(start, start + Math.floor(random() * 40)) + text.slice(at());
        break;
      default: // truncate
        text = text.slice(0, start);
    }
  }
  return text;
}

test(`${ITERATIONS} mutated fixtures: parse succeeds and round-trips, or throws a TextFormatError`, () => {
  const random = mulberry32(0x5eed);
  const seeds = FIXTURES.map(fixtureText);
  let refused = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const text = mutate(seeds[i % seeds.length]!, random);
    let parsed: object;
    try {
      parsed = parseTextProto<object>(P4INFO, text, 'fuzz');
    } catch (error) {
      if (!(error instanceof TextFormatError)) throw new Error(`iteration ${i}: unexpected ${String(error)} for ${JSON.stringify(text)}`, { cause: error });
      expect(CODES.has(error.code), `iteration ${i}: code ${error.code}`).toBe(true);
      expect(error.message, `iteration ${i}`).toMatch(/^fuzz:\d+:\d+: \S/);
      refused++;
      continue;
    }
    const again = parseTextProto<object>(P4INFO, formatTextProto(P4INFO, parsed), 'fuzz-again');
    expect(again, `iteration ${i}: round trip of ${JSON.stringify(text)}`).toEqual(parsed);
  }
  // Most mutations break the text; a fuzz that never reaches the reader's errors would test nothing.
  expect(refused).toBeGreaterThan(ITERATIONS / 2);
  expect(refused).toBeLessThan(ITERATIONS);
});

test('random token soup never escapes as anything but a TextFormatError', () => {
  const random = mulberry32(42);
  for (let i = 0; i < 1000; i++) {
    const length = 1 + Math.floor(random() * 30);
    const text = Array.from({ length }, () => SNIPPETS[Math.floor(random() * SNIPPETS.length)]).join(random() < 0.5 ? ' ' : '');
    try {
      parseTextProto(P4INFO, text, 'soup');
    } catch (error) {
      if (!(error instanceof TextFormatError)) throw new Error(`soup ${i}: unexpected ${String(error)} for ${JSON.stringify(text)}`, { cause: error });
    }
  }
});
