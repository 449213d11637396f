/**
 * A list of IR statements as one generated JavaScript function (one
 * `new Function` per action body, control apply block, parser state), in
 * place of a tree of closures: assignments to plain locations, `if`,
 * blocks, extern calls, table applications, `exit` and `return` are written
 * inline, expressions through generate-expression.ts; any other statement
 * runs the closure StatementCompiler.compile makes for it. The function
 * returns the Flow as the closures do (0 next, 1 return, 2 exit).
 */
import type { IrCall, IrExpression, IrStatement } from '../../p4c/ir/types.js';
import { ParserStop, type CompileEnv, type Exec } from './compile-env.js';
import { convert, type ExpressionCompiler } from './compile-expression.js';
import { Captures, ExpressionGenerator } from './generate-expression.js';
import { readBits } from './bits.js';
import { readerSource } from './header-codec.js';
import { rerollStatements, type RerolledUnit } from './reroll.js';
import { FLOW_EXIT, FLOW_NEXT, FLOW_RETURN } from './packet-context.js';
import { assignHeader, copyValue, isWide, widthOf, type Value } from './values.js';

export interface StatementClosures {
  /** The closure of one statement (the fallback). */
  compile(s: IrStatement): Exec;
}

type Factory = ($: readonly unknown[]) => Exec;

/** Statements (counting nested ones) above which a list is split into functions of their own. */
const SPLIT_SIZE = 48;

/** Statements in a list, nested ones included. */
function sizeOf(list: readonly IrStatement[]): number {
  let n = 0;
  for (const s of list) {
    n++;
    if (s.kind === 'if') n += sizeOf(s.then) + sizeOf(s.else);
    else if (s.kind === 'block') n += sizeOf(s.body);
  }
  return n;
}

export class StatementGenerator {
  constructor(
    private readonly env: CompileEnv,
    private readonly exprs: ExpressionCompiler,
    private readonly closures: StatementClosures,
  ) {}

  /**
   * The statements as one function. Runs of like statements (a header
   * stack's values one by one) become loops (reroll.ts); a list still long
   * is split into functions of at most SPLIT_SIZE statements called in turn
   * (V8 runs a function of thousands of lines far slower than a few small
   * ones: it compiles them late and keeps huge frames).
   */
  generate(body: readonly IrStatement[]): Exec {
    if (body.length === 0) return () => FLOW_NEXT;
    const captures = new Captures();
    const gen = new ExpressionGenerator(this.env, this.exprs, captures);
    const texts = body.map((s) => {
      const out: string[] = [];
      this.statement(s, gen, out);
      return out.join('\n');
    });
    const units = rerollStatements(
      texts,
      body.map((s) => sizeOf([s])),
    );
    const total = units.reduce((n, u) => n + u.size, 0);
    if (total <= SPLIT_SIZE || units.length === 1) return functionOf(units, captures);
    const chunks: RerolledUnit[][] = [[]];
    let size = 0;
    for (const unit of units) {
      if (size + unit.size > SPLIT_SIZE && chunks[chunks.length - 1]!.length > 0) {
        chunks.push([]);
        size = 0;
      }
      chunks[chunks.length - 1]!.push(unit);
      size += unit.size;
    }
    const calls = chunks.map((chunk) => {
      const ref = captures.add(functionOf(chunk, captures));
      return { text: `fl = ${ref}(ctx);\nif (fl !== ${FLOW_NEXT}) return fl;`, size: 1 };
    });
    return functionOf(calls, captures);
  }

  /** A call of a function returning a Flow, passing on anything but FLOW_NEXT. */
  private call(fn: Exec, gen: ExpressionGenerator, out: string[]): void {
    out.push(`fl = ${gen.captures.add(fn)}(ctx);`, `if (fl !== ${FLOW_NEXT}) return fl;`);
  }

  /** A nested statement list: inline when short, else its own function. */
  private nested(list: readonly IrStatement[], gen: ExpressionGenerator, out: string[]): void {
    if (sizeOf(list) > SPLIT_SIZE) {
      this.call(this.generate(list), gen, out);
      return;
    }
    const texts = list.map((x) => {
      const lines: string[] = [];
      this.statement(x, gen, lines);
      return lines.join('\n');
    });
    for (const unit of rerollStatements(texts, list.map((x) => sizeOf([x])))) out.push(unit.text);
  }

  private statement(s: IrStatement, gen: ExpressionGenerator, out: string[]): void {
    switch (s.kind) {
      case 'assign':
        if (this.assign(s, gen, out)) return;
        break;
      case 'if': {
        out.push(`if (${gen.expr(s.condition)}) {`);
        this.nested(s.then, gen, out);
        if (s.else.length > 0) {
          out.push('} else {');
          this.nested(s.else, gen, out);
        }
        out.push('}');
        return;
      }
      case 'block':
        out.push('{');
        this.nested(s.body, gen, out);
        out.push('}');
        return;
      case 'call':
        if (this.registerAccess(s.call, gen, out) || this.extract(s.call, gen, out)) return;
        out.push(`${gen.captures.add(this.env.compileCall(s.call))}(ctx);`);
        return;
      case 'apply-table':
        out.push(`fl = ${gen.captures.add(this.env.compileApply(s.table))}(ctx).flow;`, `if (fl !== ${FLOW_NEXT}) return fl;`);
        return;
      case 'exit':
        out.push(`return ${FLOW_EXIT};`);
        return;
      case 'return':
        if (!s.value) {
          out.push(`return ${FLOW_RETURN};`);
          return;
        }
        break;
      default:
        break;
    }
    this.call(this.closures.compile(s), gen, out);
  }

  /**
   * register.read/write on a Uint32Array register with number operands, inline (as extern-methods.ts
   * does them: an index out of range reads 0 and writes nothing; a read wraps to the destination's width).
   */
  private registerAccess(call: IrCall, gen: ExpressionGenerator, out: string[]): boolean {
    const t = call.target;
    if (t.kind !== 'method' || (t.method !== 'read' && t.method !== 'write') || call.args.length !== 2) return false;
    const cells = this.env.registerCells?.(t.instance);
    if (!cells) return false;
    const [first, second] = [call.args[0]!.value, call.args[1]!.value];
    const narrow = (e: IrExpression): boolean => e.type.kind === 'bits' && !isWide(e.type.width) && !e.type.signed;
    const c = gen.captures.add(cells);
    if (t.method === 'read') {
      const target = gen.place(first);
      if (!target || !narrow(first) || !narrow(second)) return false;
      const width = widthOf(first.type);
      const read = width >= 32 ? `${c}[i]` : `(${c}[i] & ${(1 << width) - 1})`;
      out.push(`{ const i = ${gen.expr(second)}; ${target} = i < ${cells.length} ? ${read} : 0; }`);
      return true;
    }
    if (!narrow(first) || !narrow(second)) return false;
    out.push(`{ const i = ${gen.expr(first)}; if (i < ${cells.length}) ${c}[i] = ${gen.expr(second)}; }`);
    return true;
  }

  /** packet.extract of a header at a plain location, inline (as packet-methods.ts does it). */
  private extract(call: IrCall, gen: ExpressionGenerator, out: string[]): boolean {
    const t = call.target;
    if (t.kind !== 'packet' || t.method !== 'extract' || call.args.length !== 1) return false;
    const target = call.args[0]!.value;
    if (target.type.kind !== 'header') return false;
    const place = gen.place(target);
    if (!place) return false;
    const layout = this.env.values.headerLayout(target.type.name);
    const stop = gen.captures.add(ParserStop);
    const bytes = layout.bytes;
    const packed = gen.packedElement(target);
    if (packed) {
      // Into a packed stack's data (values.ts), the element's fields from packed.first on.
      out.push(
        `{ const b = ctx.packet; const o = ctx.cursor; if (o + ${bytes} > b.length) throw new ${stop}(${this.env.errorIndex('PacketTooShort')});`,
        `const f = ${packed.stack}.data; ${readerSource(layout, gen.captures.add(readBits), (i) => String(packed.first + i))} ${place}.valid = true; ctx.cursor = o + ${bytes}; }`,
      );
      return true;
    }
    out.push(
      `{ const h = ${place}; const b = ctx.packet; const o = ctx.cursor; if (o + ${bytes} > b.length) throw new ${stop}(${this.env.errorIndex('PacketTooShort')});`,
      `const f = h.fields; ${readerSource(layout, gen.captures.add(readBits))} h.valid = true; ctx.cursor = o + ${bytes}; }`,
    );
    return true;
  }

  /** An assignment to a plain location; false when the closure must do it (slices, union members, …). */
  private assign(s: Extract<IrStatement, { kind: 'assign' }>, gen: ExpressionGenerator, out: string[]): boolean {
    const target = gen.place(s.target);
    if (!target) return false;
    const from = s.value.type;
    const to = s.target.type;
    let value: string;
    if (from.kind === 'int' || (from.kind !== to.kind && (to.kind === 'bits' || to.kind === 'bool'))) {
      const k = gen.constant(s.value, to);
      value = k !== undefined ? literalOf(k, gen) : `${gen.captures.add((v: Value) => convert(v, from, to))}(${gen.expr(s.value)})`;
    } else if (to.kind !== 'header' && to.kind !== 'struct' && to.kind !== 'union' && to.kind !== 'stack' && to.kind !== 'tuple') value = gen.expr(s.value);
    else if (to.kind === 'header' && s.target.op === 'index') {
      // A stack element is written in place (values.ts: a packed stack's elements are views).
      out.push(`${gen.captures.add(assignHeader)}(${target}, ${gen.expr(s.value)});`);
      return true;
    } else value = `${gen.captures.add(copyValue)}(${gen.expr(s.value)})`;
    out.push(`${target} = ${value};`);
    return true;
  }
}

/** One generated function over the units' texts; the captures are shared with the functions it calls. */
function functionOf(units: readonly RerolledUnit[], captures: Captures): Exec {
  const source = `return function generated(ctx) {\nlet fl;\n${units.map((u) => u.text).join('\n')}\nreturn ${FLOW_NEXT};\n};`;
  // The source is built from the IR only: numbers, property paths and `$[k]` captures, no program text
  const make = new Function('$', source) as Factory;
  return make(captures.list);
}

function literalOf(v: Value, gen: ExpressionGenerator): string {
  if (typeof v === 'number') return v < 0 ? `(${v})` : String(v);
  if (typeof v === 'boolean') return String(v);
  return gen.captures.add(v);
}
