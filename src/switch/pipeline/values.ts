/**
 * Run-time values of the executor. Bit strings up to 32 bits are numbers
 * holding the unsigned pattern (int<W> too: signedness is applied by the
 * operations that need it); wider ones are bigints, also unsigned. Headers,
 * structs and stacks are small mutable objects whose field order is the
 * IR's, so a field access compiles to an array index.
 */
import type { IrProgram, IrType } from '../../p4c/ir/types.js';

export type Bits = number | bigint;

export class HeaderValue {
  valid = false;
  constructor(readonly fields: Bits[]) {}
}

export class StackValue {
  nextIndex = 0;
  /**
   * @param data For a packed stack (elements whose fields are all ≤ 32 bits:
   * `ValueFactory.packs`), every element's fields one after the other; each
   * element's `fields` is then a view of its part, so that reset, copy and
   * generated code reach the values as one typed array. Elements of a packed
   * stack are never replaced, only written in place (`assignHeader`).
   */
  constructor(
    readonly elements: HeaderValue[],
    readonly data: Uint32Array | undefined = undefined,
  ) {}
}

/**
 * A packed stack of `size` invalid, zeroed headers of `fieldCount` fields.
 * The fields are Uint32Array views: they hold the same unsigned ≤ 32-bit
 * patterns a plain array of numbers would, and read back as numbers.
 */
function packedStack(size: number, fieldCount: number, from?: Uint32Array): StackValue {
  const data = from ? from.slice() : new Uint32Array(size * fieldCount);
  const elements: HeaderValue[] = [];
  for (let k = 0; k < size; k++) elements.push(new HeaderValue(data.subarray(k * fieldCount, (k + 1) * fieldCount) as unknown as Bits[]));
  return new StackValue(elements, data);
}

/** Makes `dst` a copy of `src` (headers of the same type) in place: how a stack element is assigned. */
export function assignHeader(dst: HeaderValue, src: HeaderValue): void {
  dst.valid = src.valid;
  const to = dst.fields;
  const from = src.fields;
  for (let i = 0; i < to.length; i++) to[i] = from[i]!;
}

/**
 * A struct or header union: field values in declaration order. A struct of
 * bit strings of ≤ 32 bits only (most metadata) holds them in a Uint32Array
 * (`ValueFactory.make`): values with the top bit set, which a plain array
 * would box one by one as they are stored, stay unboxed.
 */
export class StructValue {
  constructor(readonly fields: Value[]) {}
}

export type Value = Bits | boolean | HeaderValue | StackValue | StructValue | string | Value[] | undefined;

/** Whether a width is held as a bigint. */
export function isWide(width: number): boolean {
  return width > 32;
}

/** The width in bits of a value of `type` (bool: 1; error, enum and `int`: held as 32-bit numbers). */
export function widthOf(type: IrType): number {
  if (type.kind === 'bits') return type.width;
  if (type.kind === 'varbit') return type.maxWidth;
  if (type.kind === 'bool') return 1;
  return 32;
}

export function zeroOf(width: number): Bits {
  return isWide(width) ? 0n : 0;
}

/** Makes fresh-value factories per type, resolved once against the program's layouts. */
export class ValueFactory {
  private readonly headers = new Map<string, IrProgram['headers'][number]>();
  private readonly structs = new Map<string, IrProgram['structs'][number]>();

  constructor(program: IrProgram) {
    for (const h of program.headers) this.headers.set(h.name, h);
    for (const s of program.structs) this.structs.set(s.name, s);
  }

  headerLayout(name: string): IrProgram['headers'][number] {
    const h = this.headers.get(name);
    if (!h) throw new Error(`IR: unknown header type ${name}`);
    return h;
  }

  /** Whether a stack of `element` headers is packed (StackValue.data): every field ≤ 32 bits, at least one. */
  packs(element: string): boolean {
    const fields = this.headerLayout(element).fields;
    return fields.length > 0 && fields.every((f) => !isWide(f.width));
  }

  structLayout(name: string): IrProgram['structs'][number] {
    const s = this.structs.get(name);
    if (!s) throw new Error(`IR: unknown struct type ${name}`);
    return s;
  }

  /**
   * A function that brings a value of `type` back to its fresh state in
   * place (headers invalid and zeroed, numbers 0) and returns what to store:
   * lets the executor reuse one packet context rather than build a new tree
   * per packet. Assignments replace sub-objects with copies of the same
   * shape, so the shape is always the type's.
   */
  resetter(type: IrType): (v: Value) => Value {
    switch (type.kind) {
      case 'header': {
        const zeros = this.headerLayout(type.name).fields.map((f) => zeroOf(f.width));
        return (v) => {
          const h = v as HeaderValue;
          h.valid = false;
          for (let i = 0; i < zeros.length; i++) h.fields[i] = zeros[i]!;
          return h;
        };
      }
      case 'union':
      case 'struct': {
        // Scalar fields are stored directly; only headers, structs and stacks need a resetter call.
        const fields = this.structLayout(type.name).fields;
        const scalars: { i: number; zero: Value }[] = [];
        const nested: { i: number; reset: (v: Value) => Value }[] = [];
        fields.forEach((f, i) => {
          const k = f.type.kind;
          if (k === 'header' || k === 'struct' || k === 'union' || k === 'stack' || k === 'tuple') nested.push({ i, reset: this.resetter(f.type) });
          else scalars.push({ i, zero: this.make(f.type) });
        });
        return (v) => {
          const s = v as StructValue;
          const out = s.fields;
          for (let k = 0; k < scalars.length; k++) out[scalars[k]!.i] = scalars[k]!.zero;
          for (let k = 0; k < nested.length; k++) {
            const n = nested[k]!;
            out[n.i] = n.reset(out[n.i]);
          }
          return s;
        };
      }
      case 'stack': {
        const zeros = this.headerLayout(type.element).fields.map((f) => zeroOf(f.width));
        return (v) => {
          const s = v as StackValue;
          const elements = s.elements;
          if (s.data) {
            s.data.fill(0);
            for (let i = 0; i < elements.length; i++) elements[i]!.valid = false;
            s.nextIndex = 0;
            return s;
          }
          for (let i = 0; i < elements.length; i++) {
            const h = elements[i]!;
            h.valid = false;
            const f = h.fields;
            for (let j = 0; j < zeros.length; j++) f[j] = zeros[j]!;
          }
          s.nextIndex = 0;
          return s;
        };
      }
      case 'bits':
      case 'varbit':
      case 'bool':
      case 'int':
      case 'error':
      case 'enum':
      case 'string':
      case 'void': {
        const fresh = this.make(type);
        return () => fresh;
      }
      case 'tuple':
        return () => this.make(type);
    }
  }

  /** A fresh value of `type`: headers invalid, numbers 0. */
  make(type: IrType): Value {
    switch (type.kind) {
      case 'bits':
        return zeroOf(type.width);
      case 'varbit':
        return zeroOf(type.maxWidth);
      case 'bool':
        return false;
      case 'int':
      case 'error':
      case 'enum':
        return 0;
      case 'header': {
        const layout = this.headerLayout(type.name);
        return new HeaderValue(layout.fields.map((f) => zeroOf(f.width)));
      }
      case 'union':
      case 'struct': {
        const layout = this.structLayout(type.name);
        const narrow = type.kind === 'struct' && layout.fields.length > 0 && layout.fields.every((f) => f.type.kind === 'bits' && !isWide(f.type.width));
        if (narrow) return new StructValue(new Uint32Array(layout.fields.length) as unknown as Value[]);
        return new StructValue(layout.fields.map((f) => this.make(f.type)));
      }
      case 'stack': {
        if (this.packs(type.element)) return packedStack(type.size, this.headerLayout(type.element).fields.length);
        const elements: HeaderValue[] = [];
        for (let i = 0; i < type.size; i++) elements.push(this.make({ kind: 'header', name: type.element }) as HeaderValue);
        return new StackValue(elements);
      }
      case 'tuple':
        return type.elements.map((t) => this.make(t));
      case 'string':
        return '';
      case 'void':
        return undefined;
    }
  }
}

/** A deep copy: assignment of headers, structs and stacks copies them. */
export function copyValue(v: Value): Value {
  if (v instanceof HeaderValue) {
    const h = new HeaderValue(v.fields.slice());
    h.valid = v.valid;
    return h;
  }
  if (v instanceof StructValue) return new StructValue(v.fields.map(copyValue));
  if (v instanceof StackValue) {
    let s: StackValue;
    if (v.data) {
      s = packedStack(v.elements.length, v.data.length / v.elements.length, v.data);
      for (let k = 0; k < v.elements.length; k++) s.elements[k]!.valid = v.elements[k]!.valid;
    } else s = new StackValue(v.elements.map((e) => copyValue(e) as HeaderValue));
    s.nextIndex = v.nextIndex;
    return s;
  }
  if (Array.isArray(v)) return v.map(copyValue);
  return v;
}
