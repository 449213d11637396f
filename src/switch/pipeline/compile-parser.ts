/**
 * Parser blocks: the state machine as an array of compiled states. A parser
 * error (PacketTooShort, NoMatch, verify's error, StackOutOfBounds) stops the
 * parser; as in BMv2 the packet is not dropped: ingress runs with
 * standard_metadata.parser_error set, the headers extracted so far stay valid,
 * and the unparsed bytes from the cursor on are the payload.
 */
import type { IrBlock, IrKeyset, IrTransition } from '../../p4c/ir/types.js';
import type { FieldValue } from '../state/match-key.js';
import type { ValueSet } from '../state/value-sets.js';
import { bytesToBits, parseConst, toBigInt } from './bits.js';
import { ParserStop, type CompileEnv, type Exec } from './compile-env.js';
import { widthOf } from './compile-expression.js';
import type { StatementCompiler } from './compile-statement.js';
import { FLOW_NEXT, type PacketContext } from './packet-context.js';
import type { Bits } from './values.js';

const ACCEPT = -1;
const REJECT = -2;

type Matcher = (v: Bits, ctx: PacketContext) => boolean;

export interface ParserServices {
  /** The value set of the realized pipeline, by P4Info id or name. */
  valueSet(id: number, name: string): ValueSet | undefined;
  /** Sets standard_metadata.parser_error. */
  setParserError(ctx: PacketContext, error: number): void;
  /**
   * A sub-parser, applied from a state of another parser: p4c inlines it, so
   * its `reject` or error ends the whole parse (with that error) instead of
   * returning to the caller.
   */
  readonly nested?: boolean;
}

function fieldMatches(f: FieldValue | undefined, v: Bits, width: number): boolean {
  if (!f) return true;
  switch (f.kind) {
    case 'exact':
    case 'optional':
      return toBigInt(bytesToBits(f.value, width)) === toBigInt(v);
    case 'ternary':
    case 'lpm': {
      const m = toBigInt(bytesToBits(f.mask, width));
      return (toBigInt(v) & m) === (toBigInt(bytesToBits(f.value, width)) & m);
    }
    case 'range': {
      const x = toBigInt(v);
      return x >= toBigInt(bytesToBits(f.low, width)) && x <= toBigInt(bytesToBits(f.high, width));
    }
  }
}

function keysetMatcher(k: IrKeyset, width: number, block: IrBlock, services: ParserServices): Matcher {
  switch (k.kind) {
    case 'default':
      return () => true;
    case 'value': {
      const want = parseConst(k.value, width);
      return (v) => v === want;
    }
    case 'mask': {
      const mask = toBigInt(parseConst(k.mask, width));
      const want = toBigInt(parseConst(k.value, width)) & mask;
      return (v) => (toBigInt(v) & mask) === want;
    }
    case 'range': {
      const low = toBigInt(parseConst(k.low, width));
      const high = toBigInt(parseConst(k.high, width));
      return (v) => {
        const x = toBigInt(v);
        return x >= low && x <= high;
      };
    }
    case 'value-set': {
      const info = block.valueSets.find((s) => s.name === k.valueSet);
      return (v) => {
        const set = info ? services.valueSet(info.id, info.name) : undefined;
        if (!set) return false;
        for (const member of set.members.values()) if (member.fields.every((f) => fieldMatches(f, v, width))) return true;
        return false;
      };
    }
  }
}

function tupleValueSetMatcher(name: string, widths: readonly number[], block: IrBlock, services: ParserServices): (values: readonly Bits[]) => boolean {
  const info = block.valueSets.find((s) => s.name === name);
  return (values) => {
    const set = info ? services.valueSet(info.id, info.name) : undefined;
    if (!set) return false;
    for (const member of set.members.values()) if (widths.every((w, i) => fieldMatches(member.fields[i], values[i]!, w))) return true;
    return false;
  };
}

export function compileParser(block: IrBlock, env: CompileEnv, statements: StatementCompiler, services: ParserServices): Exec {
  const index = new Map(block.states.map((s, i) => [s.name, i]));
  const target = (name: string): number => (name === 'accept' ? ACCEPT : name === 'reject' ? REJECT : (index.get(name) ?? REJECT));
  const noMatch = env.errorIndex('NoMatch');
  const locals = statements.compileAll(block.locals);
  const states = block.states.map((s) => ({ body: statements.compileAll(s.body), next: compileTransition(s.transition) }));

  function compileTransition(t: IrTransition | null): (ctx: PacketContext) => number {
    if (!t) return () => REJECT;
    if (t.kind === 'goto') {
      const n = target(t.state);
      return () => n;
    }
    const keys = t.keys.map((k) => ({ value: statements.exprs.compile(k), width: widthOf(k.type) }));
    const widths = keys.map((k) => k.width);
    const cases = t.cases.map((c) => {
      const only = c.keysets.length === 1 ? c.keysets[0]! : null;
      return {
        matchers: only?.kind === 'default' || (only?.kind === 'value-set' && keys.length > 1) ? [] : c.keysets.map((k, i) => keysetMatcher(k, keys[i]?.width ?? 32, block, services)),
        // A struct value set matches the whole tuple of keys: one member field per key.
        whole: only?.kind === 'value-set' && keys.length > 1 ? tupleValueSetMatcher(only.valueSet, widths, block, services) : null,
        next: target(c.state),
      };
    });
    const values: Bits[] = new Array<Bits>(keys.length).fill(0);
    return (ctx) => {
      for (let i = 0; i < keys.length; i++) values[i] = keys[i]!.value(ctx) as Bits;
      for (const c of cases) {
        let ok = c.whole ? c.whole(values) : true;
        for (let i = 0; i < c.matchers.length && ok; i++) ok = c.matchers[i]!(values[i]!, ctx);
        if (ok) return c.next;
      }
      throw new ParserStop(noMatch);
    };
  }

  // A bound on transitions: a parser loop that never consumes bytes must not hang the switch.
  const maxSteps = 1024;
  return (ctx) => {
    try {
      locals(ctx);
      let state = block.states.length > 0 ? 0 : ACCEPT;
      let steps = 0;
      while (state >= 0) {
        if (++steps > maxSteps) throw new ParserStop(env.errorIndex('ParserTimeout'));
        const s = states[state]!;
        s.body(ctx);
        state = s.next(ctx);
      }
      // An explicit `reject` without an error leaves parser_error as NoError, as in BMv2.
      if (state === REJECT && services.nested) throw new ParserStop(env.errorIndex('NoError'));
    } catch (e) {
      if (!(e instanceof ParserStop) || services.nested) throw e;
      services.setParserError(ctx, e.error);
    }
    return FLOW_NEXT;
  };
}
