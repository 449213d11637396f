import { describe, expect, it } from 'vitest';
import { PipelineLoadError } from '../../../src/switch/pipeline/pipeline-load-error.js';
import { checkIrNumbers } from '../../../src/switch/pipeline/ir-numbers.js';
import { compileCorpus } from './harness.js';

// A device config comes over P4Runtime and the executor writes IR numbers into generated code:
// a string where a number belongs must be refused before anything is generated.
type Json = Record<string, unknown>;

function corpusIr(): Json {
  return JSON.parse(compileCorpus('basic_forward').irText) as Json;
}

function firstField(ir: Json): Json {
  const headers = ir.headers as { fields: Json[] }[];
  return headers[0]!.fields[0]!;
}

describe('checkIrNumbers', () => {
  it('accepts the IR that p4ina compile writes, range-key bounds (decimal strings) included', () => {
    expect(() => checkIrNumbers(corpusIr())).not.toThrow();
    for (const name of ['acl_clone', 'calc', 'multicast', 'registers_counters', 'source_routing', 'syntax_tour']) {
      expect(() => checkIrNumbers(JSON.parse(compileCorpus(name).irText))).not.toThrow();
    }
  });

  it.each([
    ['a string', '8; globalThis.p4inaInjected = 1; //'],
    ['an array', ['0]; globalThis.p4inaInjected = 1; [']],
    ['a fraction', 2.5],
    ['a huge number', 2 ** 60],
  ])('refuses a header field width that is %s, naming where it is', (_what, bad) => {
    const ir = corpusIr();
    firstField(ir).width = bad;
    let caught: unknown;
    try {
      checkIrNumbers(ir);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PipelineLoadError);
    expect((caught as PipelineLoadError).code).toBe('PIPELINE_LOAD');
    expect((caught as Error).message).toMatch(/\$\.headers\[0\]\.fields\[0\]\.width/);
    expect((globalThis as Record<string, unknown>).p4inaInjected).toBeUndefined();
  });

  it('refuses a slice bound that is not a number but leaves other string-valued low/high alone', () => {
    const sliceIr = { op: 'slice', high: '7', low: 0 };
    expect(() => checkIrNumbers({ expressions: [sliceIr] })).toThrow(PipelineLoadError);
    expect(() => checkIrNumbers({ keys: [{ kind: 'range', low: '10', high: '20' }] })).not.toThrow();
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    let deep: Json = {};
    for (let i = 0; i < 2000; i++) deep = { next: deep };
    expect(() => checkIrNumbers(deep)).toThrow(/nests deeper/);
  });
});
