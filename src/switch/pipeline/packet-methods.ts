/**
 * packet_in/packet_out methods (extract, lookahead, advance, length, emit)
 * and header/stack built-ins (setValid, setInvalid, push_front, pop_front).
 * Running out of bytes stops the parser with PacketTooShort.
 */
import type { IrCall, IrExpression } from '../../p4c/ir/types.js';
import { wrap } from './bits.js';
import { ParserStop, type CompileEnv, type Eval } from './compile-env.js';
import { widthOf, type ExpressionCompiler } from './compile-expression.js';
import { compileEmitter } from './header-bytes.js';
import { headerReader, headerWriter } from './header-codec.js';
import { PipelineLoadError } from './pipeline-load-error.js';
import { assignHeader, HeaderValue, StackValue, type Bits } from './values.js';

export class PacketCompiler {
  constructor(
    private readonly env: CompileEnv,
    private readonly exprs: ExpressionCompiler,
  ) {}

  packetMethod(method: string, call: IrCall): Eval {
    const args = call.args.map((a) => a.value);
    const tooShort = this.env.errorIndex('PacketTooShort');
    switch (method) {
      case 'extract': {
        if (args.length > 1) throw new PipelineLoadError('extract with a varbit size is not supported by this switch yet');
        const target = args[0]!;
        if (target.type.kind !== 'header') throw new PipelineLoadError(`extract into a ${target.type.kind} is not supported`);
        const layout = this.env.values.headerLayout(target.type.name);
        const read = headerReader(layout);
        if (target.op === 'stack' && target.member === 'next') {
          const stack = this.exprs.compile(target.base);
          return (ctx) => {
            const s = stack(ctx) as StackValue;
            const h = s.elements[s.nextIndex];
            if (!h) throw new ParserStop(this.env.errorIndex('StackOutOfBounds'));
            if (ctx.cursor + layout.bytes > ctx.packet.length) throw new ParserStop(tooShort);
            read(ctx.packet, ctx.cursor, h.fields);
            h.valid = true;
            ctx.cursor += layout.bytes;
            s.nextIndex++;
            return undefined;
          };
        }
        const header = this.exprs.compile(target);
        return (ctx) => {
          if (ctx.cursor + layout.bytes > ctx.packet.length) throw new ParserStop(tooShort);
          const h = header(ctx) as HeaderValue;
          read(ctx.packet, ctx.cursor, h.fields);
          h.valid = true;
          ctx.cursor += layout.bytes;
          return undefined;
        };
      }
      case 'lookahead': {
        const type = call.typeArgs[0];
        if (!type) throw new PipelineLoadError('lookahead without a type');
        if (type.kind === 'header') {
          const layout = this.env.values.headerLayout(type.name);
          return (ctx) => {
            if (ctx.cursor + layout.bytes > ctx.packet.length) throw new ParserStop(tooShort);
            const h = this.env.values.make(type) as HeaderValue;
            headerReader(layout)(ctx.packet, ctx.cursor, h.fields);
            h.valid = true;
            return h;
          };
        }
        const width = widthOf(type);
        return (ctx) => {
          if (ctx.cursor * 8 + width > ctx.packet.length * 8) throw new ParserStop(tooShort);
          let v = 0n;
          for (let i = 0; i < Math.ceil(width / 8); i++) v = (v << 8n) | BigInt(ctx.packet[ctx.cursor + i] ?? 0);
          const pad = Math.ceil(width / 8) * 8 - width;
          return type.kind === 'bool' ? (v >> BigInt(pad)) !== 0n : wrap(v >> BigInt(pad), width);
        };
      }
      case 'advance': {
        const bits = this.exprs.compile(args[0]!);
        return (ctx) => {
          const bytes = Math.ceil(Number(bits(ctx)) / 8);
          if (ctx.cursor + bytes > ctx.packet.length) throw new ParserStop(tooShort);
          ctx.cursor += bytes;
          return undefined;
        };
      }
      case 'length':
        return (ctx) => wrap(ctx.packet.length, 32);
      case 'emit':
        return this.compileEmit(args[0]!);
      default:
        throw new PipelineLoadError(`packet method ${method} is not implemented by this switch`);
    }
  }

  /** packet.emit(x): a header directly (the common case), else every header inside x in order. */
  compileEmit(arg: IrExpression): Eval {
    const value = this.exprs.compile(arg);
    const type = arg.type;
    if (type.kind === 'header') {
      const layout = this.env.values.headerLayout(type.name);
      const write = headerWriter(layout);
      return (ctx) => {
        const h = value(ctx) as HeaderValue;
        if (h.valid) ctx.emit(layout, h, write);
        return undefined;
      };
    }
    const emitter = compileEmitter(type, this.env.values);
    return (ctx) => {
      emitter(value(ctx), ctx);
      return undefined;
    };
  }

  builtin(method: string, call: IrCall): Eval {
    if (call.target.kind !== 'builtin') throw new Error('unreachable');
    const object = this.exprs.compile(call.target.object);
    switch (method) {
      case 'setValid':
        return (ctx) => {
          (object(ctx) as HeaderValue).valid = true;
          return undefined;
        };
      case 'setInvalid':
        return (ctx) => {
          (object(ctx) as HeaderValue).valid = false;
          return undefined;
        };
      case 'push_front':
      case 'pop_front': {
        const count = this.exprs.compile(call.args[0]!.value);
        const type = call.target.object.type;
        const fresh = (): HeaderValue => this.env.values.make(type.kind === 'stack' ? { kind: 'header', name: type.element } : type) as HeaderValue;
        const empty = fresh();
        // Elements move by value, in place: a packed stack's element objects are views of its data.
        return (ctx) => {
          const s = object(ctx) as StackValue;
          const e = s.elements;
          const size = e.length;
          const n = Math.min(Number(count(ctx) as Bits), size);
          if (method === 'push_front') {
            for (let i = size - 1; i >= n; i--) assignHeader(e[i]!, e[i - n]!);
            for (let i = 0; i < n; i++) assignHeader(e[i]!, empty);
          } else {
            for (let i = 0; i < size - n; i++) assignHeader(e[i]!, e[i + n]!);
            for (let i = size - n; i < size; i++) assignHeader(e[i]!, empty);
          }
          s.nextIndex = method === 'push_front' ? Math.min(s.nextIndex + n, s.elements.length) : Math.max(s.nextIndex - n, 0);
          return undefined;
        };
      }
      default:
        throw new PipelineLoadError(`built-in method ${method} is not implemented by this switch`);
    }
  }

}
