/**
 * A protobuf text-format writer that prints as protobuf C++'s
 * TextFormat::Printer does with p4c's settings (expanded Any), so that a
 * P4Info we write is byte for byte what p4c writes: two-space indentation,
 * fields in field-number order (not declaration order: ActionRef prints
 * `annotations` = 2 before `scope` = 3), only fields that are set (proto3
 * defaults left out, but message fields that are present printed even when
 * empty), map entries sorted by key, strings and bytes C-escaped with octal
 * for non-printable bytes, enums by name, 64-bit integers as plain numbers.
 */
import { relative, sep } from 'node:path';
import protobuf from 'protobufjs';
import { CONVERSION, PROTO_DIR, messageType } from '../../proto/load.js';
import { cEscape } from './c-escape.js';
import { expandAny, fieldsByNumber, isAnyType, isSet, type Fields } from './reflection.js';

export interface TextFormatOptions {
  /**
   * Start with the two comment lines p4c writes (`# proto-file: …`,
   * `# proto-message: …`) and a blank line, as in p4c's .txtpb files.
   */
  readonly header?: boolean;
}

/** %g with `precision` significant digits, as C's printf writes it. */
function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const strip = (s: string): string => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
  const [mantissa, expText] = value.toExponential(precision - 1).split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= precision) return `${strip(mantissa)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return strip(value.toFixed(precision - 1 - exp));
}

/** Floats as protobuf's SimpleFtoa/SimpleDtoa write them: the shortest of two precisions that reads back exactly. */
function formatFloat(value: number, type: string): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (type === 'float') {
    const short = formatG(value, 6);
    return Math.fround(Number(short)) === value ? short : formatG(value, 9);
  }
  const short = formatG(value, 15);
  return Number(short) === value ? short : formatG(value, 17);
}

function scalarText(field: protobuf.FieldBase, value: unknown): string {
  if (field.resolvedType instanceof protobuf.Enum) return String(value);
  switch (field.type) {
    case 'string':
      return `"${cEscape(Buffer.from(String(value), 'utf8'))}"`;
    case 'bytes':
      return `"${cEscape(value instanceof Uint8Array ? value : Buffer.alloc(0))}"`;
    case 'float':
    case 'double':
      return formatFloat(Number(value), field.type);
    default:
      return String(value);
  }
}

/** Map keys in protobuf's printing order: numbers by value, strings by bytes. */
function compareKeys(keyType: string, a: string, b: string): number {
  if (keyType === 'string' || keyType === 'bool') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

class TextWriter {
  readonly out: string[] = [];

  message(type: protobuf.Type, message: Fields, indent: string): void {
    if (isAnyType(type)) {
      // An Any of a type p4ina does not know prints as its type_url and value fields, as protobuf does.
      const expanded = expandAny(message);
      if (expanded) {
        this.out.push(`${indent}[${expanded.url}] {\n`);
        this.message(expanded.type, expanded.fields, indent + '  ');
        this.out.push(`${indent}}\n`);
        return;
      }
    }
    for (const field of fieldsByNumber(type)) {
      const value = message[field.name];
      if (field instanceof protobuf.MapField) this.map(field, (value ?? {}) as Fields, indent);
      else if (field.repeated) for (const item of (value ?? []) as unknown[]) this.value(field, field.name, item, indent);
      else if (isSet(field, message)) this.value(field, field.name, value, indent);
    }
  }

  private value(field: protobuf.FieldBase, name: string, value: unknown, indent: string): void {
    if (field.resolvedType instanceof protobuf.Type) {
      this.out.push(`${indent}${name} {\n`);
      this.message(field.resolvedType, (value ?? {}) as Fields, indent + '  ');
      this.out.push(`${indent}}\n`);
    } else {
      this.out.push(`${indent}${name}: ${scalarText(field, value)}\n`);
    }
  }

  private map(field: protobuf.MapField, entries: Fields, indent: string): void {
    const keys = Object.keys(entries).sort((a, b) => compareKeys(field.keyType, a, b));
    const inner = indent + '  ';
    for (const key of keys) {
      this.out.push(`${indent}${field.name} {\n`);
      this.out.push(`${inner}key: ${field.keyType === 'string' ? `"${cEscape(Buffer.from(key, 'utf8'))}"` : key}\n`);
      // Map entries always carry both key and value, so the value prints even when it is a default.
      if (field.resolvedType instanceof protobuf.Type) this.value(field, 'value', entries[key], inner);
      else this.out.push(`${inner}value: ${scalarText(field, entries[key])}\n`);
      this.out.push(`${indent}}\n`);
    }
  }
}

/** The .proto file that declares `type`, relative to the proto root, as p4c names it in its header. */
function protoFile(type: protobuf.Type): string | undefined {
  return type.filename ? relative(PROTO_DIR, type.filename).split(sep).join('/') : undefined;
}

/**
 * Prints a message as protobuf text format. `value` is a message-shaped
 * plain object: the decoded shape p4ina uses everywhere, or the looser input
 * shape (numbers or strings for 64-bit integers, enum names or numbers).
 */
export function formatTextProto(typeName: string, value: object, options: TextFormatOptions = {}): string {
  const type = messageType(typeName);
  const message = type.toObject(type.fromObject(value as Fields), CONVERSION);
  const writer = new TextWriter();
  if (options.header) {
    const file = protoFile(type);
    writer.out.push(`${file ? `# proto-file: ${file}\n` : ''}# proto-message: ${type.fullName.slice(1)}\n\n`);
  }
  writer.message(type, message, '');
  return writer.out.join('');
}
