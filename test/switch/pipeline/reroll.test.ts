import { describe, expect, it } from 'vitest';
import { rerollStatements } from '../../../src/switch/pipeline/reroll.js';

/** Runs statement texts as a function body over a state object, recording every write in order. */
function run(texts: readonly string[]): unknown[] {
  const trace: unknown[] = [];
  const cells = new Uint32Array(64).map((_, i) => i * 7 + 1);
  const captures = Array.from({ length: 64 }, () => cells);
  const ctx = { values: new Array<number>(64).fill(0), cursor: 0, trace, sum: 0 };
  const fn = new Function('$', 'ctx', `let fl;\n${texts.join('\n')}\nreturn ctx;`) as (c: unknown[], x: typeof ctx) => typeof ctx;
  fn(captures, ctx);
  return [...trace, ctx.values, ctx.cursor, ctx.sum];
}

const unrolled = (n: number, body: (i: number) => string[]): string[] => Array.from({ length: n }, (_, i) => body(i)).flat();

describe('loop rerolling of generated statements', () => {
  it('turns a run of like statements into one loop that does the same, in the same order', () => {
    const texts = unrolled(16, (i) => [
      `{ const i = ((ctx.cursor + ${i}) >>> 0); ctx.sum = ((ctx.sum + $[${2 * i}][i]) >>> 0); }`,
      `ctx.values[${i + 3}] = ctx.sum; ctx.trace.push(${5 * i + 1});`,
    ]);
    const units = rerollStatements(texts, texts.map(() => 1));
    expect(units).toHaveLength(1);
    expect(units[0]!.text).toMatch(/^for \(let \$k = 0; \$k < 16; \$k\+\+\)/);
    expect(units[0]!.size).toBe(2);
    expect(run(units.map((u) => u.text))).toEqual(run(texts));
  });

  it('keeps statements before and after a run, and a run too short to pay, as they are', () => {
    const head = ['ctx.cursor = 9;'];
    const run3 = unrolled(3, (i) => [`ctx.values[${i}] = ${i};`]);
    const run6 = unrolled(6, (i) => [`ctx.values[${10 + i}] = ctx.cursor + ${i * 3};`]);
    const texts = [...head, ...run3, ...run6, 'ctx.sum = 1;'];
    const units = rerollStatements(texts, texts.map(() => 1));
    expect(units.map((u) => u.text.startsWith('for ('))).toEqual([false, false, false, false, true, false]);
    expect(run(units.map((u) => u.text))).toEqual(run(texts));
  });

  it('does not reroll when a literal does not move by a fixed step', () => {
    const texts = [0, 1, 2, 4, 5].map((i) => `ctx.values[${i}] = 1;`);
    const units = rerollStatements(texts, texts.map(() => 1));
    expect(units[0]!.text.startsWith('for (')).toBe(false);
    expect(run(units.map((u) => u.text))).toEqual(run(texts));
  });

  it('never rerolls texts whose meaning a loop body would change', () => {
    const withBreak = unrolled(6, (i) => [`switch (${i}) { case ${i}: ctx.values[${i}] = 1; break; }`]);
    const declaring = unrolled(6, (i) => [`var z = ${i}; ctx.values[${i}] = z;`]);
    const topLevelConst = unrolled(6, (i) => [`const y = ${i}; ctx.values[${i}] = y;`]);
    for (const texts of [withBreak, declaring, topLevelConst]) {
      const units = rerollStatements(texts, texts.map(() => 1));
      expect(units.some((u) => u.text.startsWith('for ('))).toBe(false);
    }
  });

  it('leaves literals that are parts of names, decimals, hex and bigints alone', () => {
    const texts = unrolled(5, (i) => [`ctx.values[${i}] = 0x10 + 1.5 + Number(7n) + ctx.trace.length;`, `ctx.trace.push(${i});`]);
    const units = rerollStatements(texts, texts.map(() => 1));
    expect(units).toHaveLength(1);
    expect(units[0]!.text).toContain('0x10 + 1.5 + Number(7n)');
    expect(run(units.map((u) => u.text))).toEqual(run(texts));
  });

  it('counts a loop as one group of its statements for splitting', () => {
    const texts = unrolled(10, (i) => [`ctx.values[${i}] = 1;`, `ctx.values[${i + 20}] = 2;`]);
    const units = rerollStatements(texts, texts.map((_, k) => (k % 2 === 0 ? 3 : 1)));
    expect(units).toEqual([expect.objectContaining({ size: 4 })]);
  });

  describe('reads of field and stack element arrays by literal paths', () => {
    /** A context shaped as the executor's: slots of structs (`fields`) holding a stack (`elements` of headers). */
    function slotsRun(texts: readonly string[]): unknown {
      const header = (v: number): { valid: boolean; fields: number[] } => ({ valid: false, fields: [v] });
      const struct = (base: number): { fields: unknown[] } => ({ fields: [base, base + 1, { nextIndex: 0, elements: Array.from({ length: 8 }, (_, i) => header(base + i)) }] });
      const ctx = { slots: Array.from({ length: 12 }, (_, i) => struct(100 * i)), trace: [] as unknown[] };
      const replace = (c: typeof ctx, slot: number, base: number): void => void (c.slots[slot] = struct(base));
      new Function('$', 'ctx', `let fl;\n${texts.join('\n')}`)([replace, struct(7000)], ctx);
      return JSON.parse(JSON.stringify(ctx)) as unknown;
    }

    it('are made once before the loop when nothing in it can replace those arrays', () => {
      const texts = unrolled(8, (i) => [
        `ctx.slots[1].fields[0] = ((ctx.slots[1].fields[0] + ctx.slots[2].fields[2].elements[${i}].fields[0]) >>> 0);`,
        `ctx.slots[2].fields[2].elements[${i}].fields[0] = ctx.slots[1].fields[0]; ctx.slots[2].fields[2].elements[${i}].valid = true;`,
      ]);
      const units = rerollStatements(texts, texts.map(() => 1));
      expect(units).toHaveLength(1);
      expect(units[0]!.text).toMatch(/^\{ const \$h0 = ctx\.slots\[1\]\.fields, \$h1 = ctx\.slots\[2\]\.fields\[2\]\.elements;/);
      // Below the first line (the reads before the loop), no path from the context is left.
      expect(units[0]!.text.split('\n').slice(1).join('\n')).not.toContain('ctx.slots');
      expect(slotsRun(units.map((u) => u.text))).toEqual(slotsRun(texts));
    });

    it('are left in the loop when it replaces a slot, even by an index that moves', () => {
      // Iteration 0 replaces slot 1; later iterations must read the new one's fields.
      const texts = unrolled(6, (i) => [`ctx.slots[${i + 1}] = $[1]; ctx.trace.push(ctx.slots[1].fields[0] + ${i});`]);
      const units = rerollStatements(texts, texts.map(() => 1));
      expect(units[0]!.text.startsWith('for (')).toBe(true);
      expect(slotsRun(units.map((u) => u.text))).toEqual(slotsRun(texts));
    });

    it('are left in the loop when it replaces the stack, or passes the context to a call', () => {
      const replacesStack = unrolled(6, (i) => [`ctx.slots[3].fields[2] = ctx.slots[${i + 4}].fields[2]; ctx.trace.push(ctx.slots[3].fields[2].elements[${i}].fields[0]);`]);
      const calls = unrolled(6, (i) => [`$[0](ctx, 1, ${i}); ctx.trace.push(ctx.slots[1].fields[0]);`]);
      for (const texts of [replacesStack, calls]) {
        const units = rerollStatements(texts, texts.map(() => 1));
        expect(units).toHaveLength(1);
        expect(units[0]!.text).not.toMatch(/\$h\d+ = [^,;]*\.elements/);
        if (texts === calls) expect(units[0]!.text).not.toContain('$h');
        expect(slotsRun(units.map((u) => u.text))).toEqual(slotsRun(texts));
      }
    });
  });
});
