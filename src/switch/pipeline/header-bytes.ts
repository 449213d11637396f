/** Headers to and from wire bytes, by their IR layout (fields MSB first, no alignment). */
import type { IrHeaderType, IrType } from '../../p4c/ir/types.js';
import { headerWriter, type HeaderWriter } from './header-codec.js';
import type { HeaderValue, StackValue, StructValue, Value, ValueFactory } from './values.js';

/** The wire bytes of one header (a PacketOut's packet_out header). Parsing and deparsing use header-codec.ts directly. */
export function writeHeader(layout: IrHeaderType, h: HeaderValue): Buffer {
  const out = Buffer.alloc(layout.bytes);
  headerWriter(layout)(out, 0, h.fields);
  return out;
}

/** Where emitted headers go (the packet context): each valid header with its layout and writer, in order. */
export interface EmitSink {
  emit(layout: IrHeaderType, h: HeaderValue, write: HeaderWriter): void;
}

/** Emits the valid headers of a value: compiled once per emitted type into a tree of closures. */
export type Emitter = (v: Value, out: EmitSink) => void;

/** The emitter of a value of `type` (a header, stack, or struct/union of them; anything else emits nothing). */
export function compileEmitter(type: IrType, values: ValueFactory): Emitter {
  switch (type.kind) {
    case 'header': {
      const layout = values.headerLayout(type.name);
      const write = headerWriter(layout);
      return (v, out) => {
        const h = v as HeaderValue;
        if (h.valid) out.emit(layout, h, write);
      };
    }
    case 'stack': {
      const element = compileEmitter({ kind: 'header', name: type.element }, values);
      return (v, out) => {
        const elements = (v as StackValue).elements;
        for (let i = 0; i < elements.length; i++) element(elements[i], out);
      };
    }
    case 'struct':
    case 'union': {
      const parts = values.structLayout(type.name).fields.map((f) => compileEmitter(f.type, values));
      return (v, out) => {
        const fields = (v as StructValue).fields;
        for (let i = 0; i < parts.length; i++) parts[i]!(fields[i], out);
      };
    }
    default:
      return () => undefined;
  }
}
