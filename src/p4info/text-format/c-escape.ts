/**
 * C-style string escapes as protobuf text format uses them. Writing follows
 * absl::CEscape byte for byte (named escapes for \n \r \t \" \' \\, 3-digit
 * octal for every other byte outside printable ASCII), because p4c's golden
 * files are made with it. Reading accepts everything protobuf's tokenizer does.
 */

const NAMED_OUT: Readonly<Record<number, string>> = {
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x22: '\\"',
  0x27: "\\'",
  0x5c: '\\\\',
};

/** The bytes as they appear between the quotes of a text-format string. */
export function cEscape(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const named = NAMED_OUT[b];
    if (named !== undefined) out += named;
    else if (b < 0x20 || b >= 0x7f) out += '\\' + b.toString(8).padStart(3, '0');
    else out += String.fromCharCode(b);
  }
  return out;
}

const NAMED_IN: Readonly<Record<string, number>> = {
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
  '\\': 0x5c,
  '?': 0x3f,
  "'": 0x27,
  '"': 0x22,
};

/** Unescaped bytes, or what is wrong and at which offset of the body. */
export type UnescapeResult = { ok: true; bytes: Buffer } | { ok: false; offset: number; message: string };

const OCTAL = /^[0-7]{1,3}/;
const HEX2 = /^[0-9a-fA-F]{1,2}/;

function utf8(codePoint: number): number[] {
  return [...Buffer.from(String.fromCodePoint(codePoint), 'utf8')];
}

/**
 * The bytes of a string literal's body (the text between its quotes). Plain
 * characters become their UTF-8 bytes; escapes become the bytes they name.
 */
export function cUnescape(body: string): UnescapeResult {
  const out: number[] = [];
  let i = 0;
  while (i < body.length) {
    const ch = body[i]!;
    if (ch !== '\\') {
      const cp = body.codePointAt(i)!;
      out.push(...utf8(cp));
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    const next = body[i + 1];
    if (next === undefined) return { ok: false, offset: start, message: 'a string cannot end with a lone backslash' };
    const named = NAMED_IN[next];
    if (named !== undefined) {
      out.push(named);
      i += 2;
      continue;
    }
    const rest = body.slice(i + 1);
    const octal = OCTAL.exec(rest);
    if (octal) {
      const value = parseInt(octal[0], 8);
      if (value > 0xff) return { ok: false, offset: start, message: `octal escape \\${octal[0]} is above \\377` };
      out.push(value);
      i += 1 + octal[0].length;
      continue;
    }
    if (next === 'x' || next === 'X') {
      const hex = HEX2.exec(body.slice(i + 2));
      if (!hex) return { ok: false, offset: start, message: '\\x must be followed by hex digits' };
      out.push(parseInt(hex[0], 16));
      i += 2 + hex[0].length;
      continue;
    }
    if (next === 'u' || next === 'U') {
      const digits = next === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + digits);
      if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) {
        return { ok: false, offset: start, message: `\\${next} must be followed by ${digits} hex digits` };
      }
      let cp = parseInt(hex, 16);
      i += 2 + digits;
      if (cp >= 0xd800 && cp <= 0xdbff) {
        // A high surrogate must be followed by an escaped low one; together they are one code point.
        const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(body.slice(i));
        if (!low) return { ok: false, offset: start, message: `\\u${hex} is half of a surrogate pair` };
        cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
        i += 6;
      } else if (cp >= 0xdc00 && cp <= 0xdfff) {
        return { ok: false, offset: start, message: `\\u${hex} is half of a surrogate pair` };
      }
      if (cp > 0x10ffff) return { ok: false, offset: start, message: `\\U${hex} is beyond the last Unicode code point` };
      out.push(...utf8(cp));
      continue;
    }
    return { ok: false, offset: start, message: `unknown escape sequence \\${next}` };
  }
  return { ok: true, bytes: Buffer.from(out) };
}
