/**
 * A protobuf text-format reader driven by protobufjs reflection (protobufjs
 * has none of its own). It accepts what protoc, p4c and people write:
 * `field: value` and `field { … }` or `field < … >` (the colon before a
 * message is optional), repeated fields as repeated lines or `[a, b]` lists,
 * map fields as repeated `{ key: … value: … }` entries, `;` or `,` after a
 * field, `#` comments and the expanded google.protobuf.Any form
 * `[type.googleapis.com/pkg.Msg] { … }`.
 *
 * Unknown field names are an error, unlike in p4ina's binary and JSON
 * readers. Text is what people write and edit by hand: a misspelt field that
 * was silently skipped would change what a table or a P4Info means without a
 * word. Files that must survive P4Info version skew (a newer p4c adding
 * fields) should be exchanged as .bin or .json, whose readers skip what they
 * do not know, as protobuf intends for forward compatibility.
 */
import protobuf from 'protobufjs';
import { CONVERSION, messageType } from '../../proto/load.js';
import { TextFormatError, TextFormatErrorCode, type SourcePosition } from './errors.js';
import { describeToken, readScalar } from './scalar-values.js';
import { Tokenizer, type Token } from './tokenizer.js';

/** protobuf's own nesting limit; deeper text is refused instead of exhausting the stack. */
const MAX_DEPTH = 100;

/** A field as the reader sees it: a protobufjs field, or the key/value of a map entry. */
interface FieldShape {
  readonly name: string;
  readonly type: string;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly keyType: string | undefined;
  /** The message type or enum the field refers to, if any. */
  readonly resolvedType: protobuf.Type | protobuf.Enum | null;
  /** The oneof the field belongs to, if any. */
  readonly oneof: string | undefined;
}

interface MessageShape {
  /** For messages: `p4.config.v1.Table`. */
  readonly name: string;
  readonly fields: ReadonlyMap<string, FieldShape>;
  readonly isAny: boolean;
}

type Fields = Record<string, unknown>;

const shapes = new WeakMap<protobuf.Type, MessageShape>();

function shapeOf(type: protobuf.Type): MessageShape {
  let shape = shapes.get(type);
  if (!shape) {
    const fields = new Map<string, FieldShape>();
    for (const f of type.fieldsArray) {
      fields.set(f.name, {
        name: f.name,
        type: f.type,
        repeated: f.repeated,
        map: f.map,
        keyType: f instanceof protobuf.MapField ? f.keyType : undefined,
        resolvedType: f.resolvedType,
        oneof: f.partOf?.name,
      });
    }
    shape = { name: type.fullName.slice(1), fields, isAny: type.fullName === '.google.protobuf.Any' };
    shapes.set(type, shape);
  }
  return shape;
}

/** The implicit `{ key, value }` message of one map entry. */
function mapEntryShape(owner: string, field: FieldShape): MessageShape {
  const base = { repeated: false, map: false, keyType: undefined, oneof: undefined };
  const fields = new Map<string, FieldShape>([
    ['key', { ...base, name: 'key', type: field.keyType!, resolvedType: null }],
    ['value', { ...base, name: 'value', type: field.type, resolvedType: field.resolvedType }],
  ]);
  return { name: `${owner}.${field.name} (map entry)`, fields, isAny: false };
}

const isMessage = (field: FieldShape): boolean => field.map || field.resolvedType instanceof protobuf.Type;
const isSymbol = (token: Token, ...symbols: string[]): boolean => token.kind === 'symbol' && symbols.includes(token.text);

/** A field name that differs only in case or underscores, to suggest for a typo. */
function nearName(shape: MessageShape, name: string): string | undefined {
  const norm = (s: string): string => s.replace(/_/g, '').toLowerCase();
  return [...shape.fields.keys()].find((f) => norm(f) === norm(name));
}

class TextReader {
  constructor(private readonly tokens: Tokenizer) {}

  private fail(code: TextFormatErrorCode, at: SourcePosition, detail: string): TextFormatError {
    return this.tokens.error(code, at, detail);
  }

  private skipSymbol(symbol: string): boolean {
    if (!isSymbol(this.tokens.peek(), symbol)) return false;
    this.tokens.next();
    return true;
  }

  /** The fields of one message up to `close` (or the end of the text at the top level). */
  readFields(shape: MessageShape, close: string | null, opened: SourcePosition, depth: number): Fields {
    const out: Fields = {};
    const seen = new Map<string, Token>();
    for (;;) {
      const token = this.tokens.peek();
      if (close !== null && isSymbol(token, close)) {
        this.tokens.next();
        return out;
      }
      if (token.kind === 'end') {
        if (close === null) return out;
        throw this.fail(TextFormatErrorCode.SYNTAX, token, `missing "${close}" to close the message opened at ${opened.line}:${opened.column}`);
      }
      if (isSymbol(token, '[')) this.readExpandedAny(shape, out, seen, depth);
      else if (token.kind === 'identifier') this.readField(shape, out, seen, depth);
      else throw this.fail(TextFormatErrorCode.SYNTAX, token, `expected a field name of ${shape.name}, found ${describeToken(token)}`);
      if (!this.skipSymbol(';')) this.skipSymbol(',');
    }
  }

  private checkOnce(shape: MessageShape, field: FieldShape, name: Token, seen: Map<string, Token>): void {
    if (field.repeated || field.map) return;
    const earlier = seen.get(field.name);
    if (earlier) {
      throw this.fail(TextFormatErrorCode.DUPLICATE_FIELD, name, `${shape.name}.${field.name} is not repeated but is also set at ${earlier.line}:${earlier.column}`);
    }
    if (field.oneof) {
      const other = [...seen.keys()].find((n) => shape.fields.get(n)?.oneof === field.oneof);
      if (other) {
        throw this.fail(TextFormatErrorCode.DUPLICATE_FIELD, name, `${shape.name}.${field.name} and ${other} are both members of oneof ${field.oneof}; set only one`);
      }
    }
    seen.set(field.name, name);
  }

  private readField(shape: MessageShape, out: Fields, seen: Map<string, Token>, depth: number): void {
    const name = this.tokens.next();
    const field = shape.fields.get(name.text);
    if (!field) {
      const near = nearName(shape, name.text);
      throw this.fail(TextFormatErrorCode.UNKNOWN_FIELD, name, `message ${shape.name} has no field "${name.text}"${near ? ` (did you mean "${near}"?)` : ''}`);
    }
    this.checkOnce(shape, field, name, seen);
    const label = `${shape.name}.${field.name}`;
    const read = isMessage(field) ? (): unknown => this.readMessageValue(shape, field, depth) : (): unknown => this.readScalarValue(field, label);
    if (isMessage(field)) {
      this.skipSymbol(':');
    } else if (!this.skipSymbol(':')) {
      const next = this.tokens.peek();
      if (isSymbol(next, '{', '<')) throw this.fail(TextFormatErrorCode.WRONG_TYPE, next, `${label} is ${field.type}, not a message: write ${field.name}: value`);
      throw this.fail(TextFormatErrorCode.SYNTAX, next, `expected ":" after ${field.name}, found ${describeToken(next)}`);
    }
    if (isSymbol(this.tokens.peek(), '[')) {
      const open = this.tokens.next();
      if (!field.repeated && !field.map) throw this.fail(TextFormatErrorCode.WRONG_TYPE, open, `${label} is not repeated, so it cannot take a [list]`);
      if (this.skipSymbol(']')) return;
      do this.store(out, field, read());
      while (this.skipSymbol(','));
      const end = this.tokens.next();
      if (!isSymbol(end, ']')) throw this.fail(TextFormatErrorCode.SYNTAX, end, `expected "," or "]" in the list of ${field.name}, found ${describeToken(end)}`);
      return;
    }
    this.store(out, field, read());
  }

  private readScalarValue(field: FieldShape, label: string): unknown {
    const enumType = field.resolvedType instanceof protobuf.Enum ? field.resolvedType : null;
    return readScalar(this.tokens, { type: field.type, enumType, label });
  }

  private readMessageValue(owner: MessageShape, field: FieldShape, depth: number): unknown {
    const open = this.tokens.next();
    if (!isSymbol(open, '{', '<')) {
      const what = field.map ? 'a map' : `a message (${(field.resolvedType as protobuf.Type).fullName.slice(1)})`;
      throw this.fail(TextFormatErrorCode.WRONG_TYPE, open, `${owner.name}.${field.name} is ${what}: write ${field.name} { ... }, found ${describeToken(open)}`);
    }
    if (depth + 1 > MAX_DEPTH) throw this.fail(TextFormatErrorCode.TOO_DEEP, open, `messages are nested more than ${MAX_DEPTH} deep`);
    const close = open.text === '{' ? '}' : '>';
    const shape = field.map ? mapEntryShape(owner.name, field) : shapeOf(field.resolvedType as protobuf.Type);
    return this.readFields(shape, close, open, depth + 1);
  }

  private store(out: Fields, field: FieldShape, value: unknown): void {
    if (field.map) {
      const entry = value as Fields;
      const key = entry.key === undefined ? defaultMapKey(field.keyType!) : String(entry.key);
      const map = (out[field.name] ??= {}) as Fields;
      map[key] = entry.value ?? defaultMapValue(field);
    } else if (field.repeated) {
      ((out[field.name] ??= []) as unknown[]).push(value);
    } else {
      out[field.name] = value;
    }
  }

  /** `[type.googleapis.com/pkg.Msg] { … }` inside a google.protobuf.Any. */
  private readExpandedAny(shape: MessageShape, out: Fields, seen: Map<string, Token>, depth: number): void {
    const open = this.tokens.next();
    let url = '';
    for (;;) {
      const token = this.tokens.next();
      if (isSymbol(token, ']')) break;
      if (token.kind !== 'identifier' && !isSymbol(token, '.', '/', '-')) {
        throw this.fail(TextFormatErrorCode.SYNTAX, token, `expected a type URL and "]", found ${describeToken(token)}`);
      }
      url += token.text;
    }
    if (!shape.isAny || !url.includes('/')) {
      throw this.fail(TextFormatErrorCode.UNKNOWN_FIELD, open, `[${url}]: extensions are not supported; only a google.protobuf.Any may hold [type URL] { ... }`);
    }
    for (const name of ['type_url', 'value']) {
      const earlier = seen.get(name);
      if (earlier) throw this.fail(TextFormatErrorCode.DUPLICATE_FIELD, open, `this Any already has ${name} at ${earlier.line}:${earlier.column}`);
      seen.set(name, open);
    }
    const typeName = url.slice(url.lastIndexOf('/') + 1);
    let inner: protobuf.Type;
    try {
      inner = messageType(typeName);
    } catch {
      throw this.fail(TextFormatErrorCode.UNKNOWN_TYPE, open, `[${url}]: p4ina knows no message type ${typeName}`);
    }
    this.skipSymbol(':');
    const brace = this.tokens.next();
    if (!isSymbol(brace, '{', '<')) throw this.fail(TextFormatErrorCode.SYNTAX, brace, `expected "{" after [${url}], found ${describeToken(brace)}`);
    if (depth + 1 > MAX_DEPTH) throw this.fail(TextFormatErrorCode.TOO_DEEP, brace, `messages are nested more than ${MAX_DEPTH} deep`);
    const fields = this.readFields(shapeOf(inner), brace.text === '{' ? '}' : '>', brace, depth + 1);
    out.type_url = url;
    out.value = Buffer.from(inner.encode(inner.fromObject(fields)).finish());
  }
}

function defaultMapKey(keyType: string): string {
  if (keyType === 'string') return '';
  return keyType === 'bool' ? 'false' : '0';
}

/** The value of a map entry written without one: protobuf's default for the value type. */
function defaultMapValue(field: FieldShape): unknown {
  if (field.resolvedType instanceof protobuf.Type) return {};
  if (field.resolvedType instanceof protobuf.Enum) return 0;
  switch (field.type) {
    case 'string':
      return '';
    case 'bytes':
      return Buffer.alloc(0);
    case 'bool':
      return false;
    default:
      return 0;
  }
}

/**
 * Parses protobuf text format into the plain-object shape every decoded
 * message has in p4ina (`toObject` with `CONVERSION`: snake_case fields,
 * 64-bit integers as strings, enums by name, unset messages null).
 * Throws TextFormatError, with `source:line:col` in the message, on any text
 * that is not a valid `typeName`; never any other error for bad text.
 */
export function parseTextProto<T>(typeName: string, text: string, sourceName = '<text>'): T {
  const type = messageType(typeName);
  const tokens = new Tokenizer(text, sourceName);
  const fields = new TextReader(tokens).readFields(shapeOf(type), null, { line: 1, column: 1 }, 0);
  return type.toObject(type.fromObject(fields), CONVERSION) as T;
}
