// The generated per-slot resets and copies against the ValueFactory's
// reference forms: after a reset a value equals a fresh one, after a copy
// it equals copyValue of the source, in place, for every slot type of
// switchml.p4 (headers, structs, a 64-header stack) and a corpus program.
import { describe, expect, it } from 'vitest';
import type { IrProgram } from '../../../src/p4c/ir/types.js';
import { generateCopier, generateResetter } from '../../../src/switch/pipeline/generate-reset.js';
import { copyValue, HeaderValue, StackValue, StructValue, ValueFactory, type Value } from '../../../src/switch/pipeline/values.js';
import { compiled, SWITCHML_P4 } from '../../p4/helpers.js';
import { compileCorpus } from './harness.js';

/** Overwrites every field, validity and stack index of `v` with seeded values; returns what to store. */
function scramble(v: Value, next: () => number): Value {
  if (v instanceof HeaderValue) {
    v.valid = next() > 0.3;
    v.fields.forEach((f, i) => (v.fields[i] = typeof f === 'bigint' ? BigInt(Math.floor(next() * 2 ** 40)) : Math.floor(next() * 256)));
    return v;
  }
  if (v instanceof StackValue) {
    v.elements.forEach((e) => scramble(e, next));
    v.nextIndex = Math.floor(next() * v.elements.length);
    return v;
  }
  if (v instanceof StructValue) {
    v.fields.forEach((f, i) => (v.fields[i] = scramble(f, next)));
    return v;
  }
  if (typeof v === 'number') return Math.floor(next() * 1000);
  if (typeof v === 'bigint') return BigInt(Math.floor(next() * 2 ** 40));
  if (typeof v === 'boolean') return next() > 0.5;
  return v;
}

function counter(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const programs: [string, () => IrProgram][] = [
  ['switchml.p4', () => compiled(SWITCHML_P4).ir],
  ['basic_forward.p4', () => compileCorpus('basic_forward').ir],
];

describe.each(programs)('generated resets and copies of %s', (_name, load) => {
  it('reset every slot to its fresh value and copy every slot in place', () => {
    const ir = load();
    const values = new ValueFactory(ir);
    const next = counter(7);
    expect(ir.slots.length).toBeGreaterThan(0); // else the loop below checks nothing
    for (const slot of ir.slots) {
      const reset = generateResetter(slot.type, values);
      const dirty = scramble(values.make(slot.type), next);
      expect(reset(dirty)).toEqual(values.make(slot.type));

      const copy = generateCopier(slot.type, values);
      const src = scramble(values.make(slot.type), next);
      const dst = scramble(values.make(slot.type), next);
      const out = copy(dst, src);
      expect(out).toEqual(copyValue(src));
      if (typeof dst === 'object' && dst !== null) expect(out).toBe(dst);
    }
  });
});
