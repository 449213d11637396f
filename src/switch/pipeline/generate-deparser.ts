/**
 * A deparser that is nothing but `packet.emit(...)` calls
 * (IrProgram.deparserEmitOrder) as one generated function that sizes the
 * frame, allocates it and writes every valid header into it, with each
 * header type's writer inline and a header stack as one loop. The general
 * path (packet-methods.ts: each emit records a header, then
 * CompiledPipeline.deparse writes the records) costs a closure call, a
 * record and a writer call per header, which a SwitchML packet's stack of
 * hundreds of values pays on every output. Since only emits run, the
 * headers cannot change between sizing and writing: the frame is what the
 * general path makes.
 */
import type { IrExpression, IrType } from '../../p4c/ir/types.js';
import { writeBits } from './bits.js';
import type { CompileEnv } from './compile-env.js';
import type { ExpressionCompiler } from './compile-expression.js';
import { Captures, ExpressionGenerator } from './generate-expression.js';
import { writerSource } from './header-codec.js';
import type { PacketContext } from './packet-context.js';

/** The frame with the emitted headers written and `payloadBytes` more at the end, for the caller to fill. */
export type HeaderDeparser = (ctx: PacketContext, payloadBytes: number) => Buffer;

interface Parts {
  /** Statements adding the emitted bytes to `n`. */
  readonly size: string[];
  /** Statements writing the emitted headers into `b` from offset `o`, advancing `o`. */
  readonly write: string[];
}

/** The deparser of `order` as one function, or undefined when an emitted value is not at a plain location. */
export function generateDeparser(order: readonly IrExpression[], env: CompileEnv, exprs: ExpressionCompiler): HeaderDeparser | undefined {
  const captures = new Captures();
  const gen = new ExpressionGenerator(env, exprs, captures);
  const wb = captures.add(writeBits);
  const parts: Parts = { size: [], write: [] };
  const ids = { next: 0 };
  for (const e of order) {
    const place = gen.place(e);
    if (place === undefined) return undefined;
    emitSource(e.type, place, env, wb, parts, ids);
  }
  const alloc = captures.add((bytes: number) => Buffer.allocUnsafe(bytes));
  const source =
    `return function deparse(ctx, payloadBytes) {\nlet n = 0;\n${parts.size.join('\n')}\n` +
    `const b = ${alloc}(n + payloadBytes);\nlet o = 0, f, v, lo, hi;\n${parts.write.join('\n')}\nreturn b;\n};`;
  // The source is built from the IR's layouts only: numbers, property paths and `$[k]` captures.
  const make = new Function('$', source) as ($: readonly unknown[]) => HeaderDeparser;
  return make(captures.list);
}

/** Sizing and writing of the valid headers in a value of `type` at `at`, in emit order (as compileEmitter). */
function emitSource(type: IrType, at: string, env: CompileEnv, wb: string, parts: Parts, ids: { next: number }): void {
  const id = ids.next++;
  switch (type.kind) {
    case 'header': {
      const layout = env.values.headerLayout(type.name);
      parts.size.push(`if (${at}.valid) n += ${layout.bytes};`);
      parts.write.push(`{ const h${id} = ${at}; if (h${id}.valid) { f = h${id}.fields; ${writerSource(layout, wb)} o += ${layout.bytes}; } }`);
      return;
    }
    case 'stack': {
      const layout = env.values.headerLayout(type.element);
      parts.size.push(`{ const e${id} = ${at}.elements; for (let k = 0; k < e${id}.length; k++) if (e${id}[k].valid) n += ${layout.bytes}; }`);
      if (env.values.packs(type.element)) {
        // Straight from the packed data: element k's fields start at q = k * fields.
        const count = layout.fields.length;
        parts.write.push(
          `{ const e${id} = ${at}.elements; f = ${at}.data; for (let k = 0, q = 0; k < e${id}.length; k++, q += ${count}) { if (e${id}[k].valid) { ${writerSource(layout, wb, (i) => `q + ${i}`)} o += ${layout.bytes}; } } }`,
        );
        return;
      }
      parts.write.push(
        `{ const e${id} = ${at}.elements; for (let k = 0; k < e${id}.length; k++) { const h = e${id}[k]; if (h.valid) { f = h.fields; ${writerSource(layout, wb)} o += ${layout.bytes}; } } }`,
      );
      return;
    }
    case 'struct':
    case 'union':
      env.values.structLayout(type.name).fields.forEach((f, i) => emitSource(f.type, `${at}.fields[${i}]`, env, wb, parts, ids));
      return;
    default:
      // Anything else emits nothing (compileEmitter's rule).
      return;
  }
}
