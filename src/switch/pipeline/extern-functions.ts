/**
 * The v1model extern functions: mark_to_drop, hash, random, digest, clone*,
 * resubmit/recirculate_preserving_field_list, truncate, verify,
 * verify_checksum/update_checksum (and *_with_payload), log_msg, assert,
 * assume. Enum arguments are constants, resolved at compile time.
 */
import type { Logger } from 'pino';
import type { IrCall, IrExpression, IrProgram, IrType } from '../../p4c/ir/types.js';
import type * as p4r from '../../proto/p4r.js';
import { BitPacker, createHashFunction, hashInRangeBigInt, isHashAlgorithm, type HashFunction } from '../externs/index.js';
import { bitsToBytes, toBigInt, wrap } from './bits.js';
import { ParserStop, type Eval } from './compile-env.js';
import type { Evaluator } from './generate-expression.js';
import { headerWriter } from './header-codec.js';
import { widthOf, type ExpressionCompiler } from './compile-expression.js';
import type { PacketContext } from './packet-context.js';
import type { StandardMetadata } from './standard-metadata.js';
import { HeaderValue, StructValue, type Bits, type Value, type ValueFactory } from './values.js';

export interface ExternServices {
  readonly program: IrProgram;
  readonly values: ValueFactory;
  readonly exprs: ExpressionCompiler;
  /** Evaluates a list of expressions into an array with one generated function. */
  evaluator(list: readonly IrExpression[]): Evaluator;
  readonly sm: StandardMetadata;
  readonly log: Logger;
  /** The P4Info id of the digest named after struct type `typeName`, if any. */
  digestId(typeName: string): number | undefined;
  emitDigest(digestId: number, data: p4r.P4Data): void;
  random(): number;
}

/** Appends a value of `type` to a bit packer: fields of headers/structs in order. */
export function packValue(packer: BitPacker, v: Value, type: IrType, values: ValueFactory): void {
  switch (type.kind) {
    case 'bits':
    case 'varbit':
      packer.push(v as Bits, widthOf(type));
      return;
    case 'bool':
      packer.push(v ? 1 : 0, 1);
      return;
    case 'header':
      values.headerLayout(type.name).fields.forEach((f, i) => packer.push((v as HeaderValue).fields[i]!, f.width));
      return;
    case 'struct':
    case 'union':
      values.structLayout(type.name).fields.forEach((f, i) => packValue(packer, (v as StructValue).fields[i], f.type, values));
      return;
    case 'tuple':
      type.elements.forEach((t, i) => packValue(packer, (v as Value[])[i], t, values));
      return;
    default:
      if (typeof v === 'number' || typeof v === 'bigint') packer.push(v, 32);
  }
}

/** The element types of a field-list expression (a `list`, or a struct). */
function listTypes(e: IrExpression): IrType[] {
  if (e.op === 'list') return e.elements.map((x) => x.type);
  return [e.type];
}

function enumMember(program: IrProgram, e: IrExpression | undefined): string {
  if (!e || e.op !== 'const' || e.type.kind !== 'enum') return '';
  const type = e.type;
  return program.enums.find((x) => x.name === type.name)?.members[Number(e.value)] ?? '';
}

function constNumber(e: IrExpression | undefined): number {
  return e && e.op === 'const' ? Number(e.value) : 0;
}

export function compileExternFunction(name: string, call: IrCall, s: ExternServices): Eval | undefined {
  const args = call.args.map((a) => a.value);
  const ev = (i: number): Eval => s.exprs.compile(args[i]!);
  const lv = (i: number): ReturnType<ExpressionCompiler['lvalue']> => s.exprs.lvalue(args[i]!);
  const packer = new BitPacker();
  const packList = (ctx: PacketContext, value: Value, types: readonly IrType[]): void => {
    packer.reset();
    if (types.length === 1 && !Array.isArray(value)) packValue(packer, value, types[0]!, s.values);
    else types.forEach((t, i) => packValue(packer, (value as Value[])[i], t, s.values));
    void ctx;
  };
  /**
   * Packs a field-list argument. A `{ a, b, … }` list of bit/bool fields (the
   * checksum case) is packed element by element with widths known at load
   * time, without building the list as an array per packet.
   */
  /** What fieldListPacker packed last: bytes[0, length). */
  const packed: { bytes: Uint8Array; length: number } = { bytes: packer.bytes(), length: 0 };
  const fieldListPacker = (e: IrExpression): ((ctx: PacketContext) => void) => {
    if (e.op === 'list' && e.elements.every((x) => x.type.kind === 'bits' || x.type.kind === 'bool')) {
      // Offsets are known at load time: the list is written like a header, by a generated writer.
      let bitOffset = 0;
      const fields = e.elements.map((x) => {
        const width = x.type.kind === 'bool' ? 1 : widthOf(x.type);
        const f = { width, bitOffset };
        bitOffset += width;
        return f;
      });
      const bytes = (bitOffset + 7) >>> 3;
      const write = headerWriter({ fields });
      const out = new Uint8Array(Math.max(1, bytes));
      const values: Value[] = new Array<Value>(e.elements.length).fill(0);
      const hasBool = e.elements.some((x) => x.type.kind === 'bool');
      const evaluate = s.evaluator(e.elements);
      return (ctx) => {
        evaluate(ctx, values);
        if (hasBool) for (let i = 0; i < values.length; i++) if (typeof values[i] === 'boolean') values[i] = values[i] ? 1 : 0;
        write(out, 0, values as Bits[]);
        packed.bytes = out;
        packed.length = bytes;
      };
    }
    const data = s.exprs.compile(e);
    const types = listTypes(e);
    return (ctx) => {
      packList(ctx, data(ctx), types);
      packed.bytes = packer.bytes();
      packed.length = packer.byteLength;
    };
  };
  switch (name) {
    case 'mark_to_drop': {
      const target = call.args.length > 0 ? ev(0) : undefined;
      return (ctx) => {
        const sm = (target ? target(ctx) : ctx.slots[2]) as StructValue;
        s.sm.setIn(sm, 'egress_spec', 511);
        s.sm.setIn(sm, 'mcast_grp', 0);
        return undefined;
      };
    }
    case 'hash': {
      const out = lv(0);
      const algorithm = enumMember(s.program, args[1]);
      const fn: HashFunction = createHashFunction(isHashAlgorithm(algorithm) ? algorithm : 'crc32');
      const base = ev(2);
      const data = ev(3);
      const types = listTypes(args[3]!);
      const max = ev(4);
      const width = widthOf(args[0]!.type);
      return (ctx) => {
        packList(ctx, data(ctx), types);
        const h = fn.hashBigInt(packer.bytes(), packer.byteLength);
        out.set(ctx, wrap(hashInRangeBigInt(h, toBigInt(base(ctx) as Bits), toBigInt(max(ctx) as Bits)), width));
        return undefined;
      };
    }
    case 'random': {
      const out = lv(0);
      const lo = ev(1);
      const hi = ev(2);
      const width = widthOf(args[0]!.type);
      return (ctx) => {
        const l = Number(lo(ctx));
        const h = Number(hi(ctx));
        out.set(ctx, wrap(h <= l ? l : l + Math.floor(s.random() * (h - l + 1)), width));
        return undefined;
      };
    }
    case 'digest': {
      const t = call.typeArgs[0] ?? args[1]!.type;
      const typeName = t.kind === 'struct' || t.kind === 'header' ? t.name : '';
      const id = s.digestId(typeName);
      const data = ev(1);
      const fields = typeName && t.kind === 'struct' ? s.values.structLayout(typeName).fields.map((f) => widthOf(f.type)) : [];
      return (ctx) => {
        if (id === undefined) return undefined;
        const v = data(ctx);
        const items = v instanceof StructValue ? v.fields : Array.isArray(v) ? v : [v];
        // Array.from: a struct's fields may be a Uint32Array (values.ts), whose own map would make numbers of these objects.
        const members = Array.from(items, (x, i): p4r.P4Data => ({ bitstring: canonical(bitsToBytes(typeof x === 'boolean' ? (x ? 1 : 0) : (x as Bits), fields[i] ?? 32)) }));
        s.emitDigest(id, { struct: { members } });
        return undefined;
      };
    }
    case 'clone':
    case 'clone_preserving_field_list':
    case 'clone3': {
      const session = ev(1);
      const fieldList = name === 'clone_preserving_field_list' ? constNumber(args[2]) : -1;
      return (ctx) => {
        ctx.clone = { session: Number(session(ctx)), fieldList };
        return undefined;
      };
    }
    case 'resubmit_preserving_field_list':
    case 'resubmit': {
      const index = name === 'resubmit' ? 0 : constNumber(args[0]);
      return (ctx) => {
        ctx.resubmitFieldList = index;
        return undefined;
      };
    }
    case 'recirculate_preserving_field_list':
    case 'recirculate': {
      const index = name === 'recirculate' ? 0 : constNumber(args[0]);
      return (ctx) => {
        ctx.recirculateFieldList = index;
        return undefined;
      };
    }
    case 'truncate': {
      const length = ev(0);
      return (ctx) => {
        ctx.truncateTo = Number(length(ctx));
        return undefined;
      };
    }
    case 'verify': {
      const cond = ev(0);
      const error = ev(1);
      return (ctx) => {
        if (!cond(ctx)) throw new ParserStop(Number(error(ctx)));
        return undefined;
      };
    }
    case 'verify_checksum':
    case 'verify_checksum_with_payload':
    case 'update_checksum':
    case 'update_checksum_with_payload': {
      const cond = ev(0);
      const pack = fieldListPacker(args[1]!);
      const checksum = lv(2);
      const width = widthOf(args[2]!.type);
      const algorithm = enumMember(s.program, args[3]);
      const fn = createHashFunction(isHashAlgorithm(algorithm) ? algorithm : 'csum16');
      const withPayload = name.endsWith('_with_payload');
      const verifying = name.startsWith('verify');
      return (ctx) => {
        if (!cond(ctx)) return undefined;
        pack(ctx);
        let bytes: Uint8Array = packed.bytes;
        let length = packed.length;
        if (withPayload) {
          bytes = Buffer.concat([bytes.subarray(0, length), ctx.packet.subarray(ctx.cursor)]);
          length = bytes.length;
        }
        const sum = wrap(fn.outputBits <= 32 ? fn.hashNumber(bytes, length) : fn.hashBigInt(bytes, length), width);
        if (verifying) {
          const found = checksum.get(ctx) as Bits;
          // Compare numbers as numbers: bigints only when either side is wide.
          const differs = typeof found === 'number' && typeof sum === 'number' ? found !== sum : toBigInt(found) !== toBigInt(sum);
          if (differs) s.sm.set(ctx, 'checksum_error', 1);
        } else checksum.set(ctx, sum);
        return undefined;
      };
    }
    case 'log_msg': {
      const message = ev(0);
      const data = args.length > 1 ? ev(1) : undefined;
      return (ctx) => {
        if (s.log.isLevelEnabled('trace')) s.log.trace({ data: String(data ? data(ctx) : '') }, String(message(ctx)));
        return undefined;
      };
    }
    case 'assert':
    case 'assume':
      return () => undefined;
    default:
      return undefined;
  }
}

/** The canonical form of a bytestring: no leading zero bytes, at least one byte. */
function canonical(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}
