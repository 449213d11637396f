/**
 * P4Info files in the three formats p4c's `--p4runtime-files` writes, chosen
 * by suffix as p4c chooses: `.txtpb` (and the deprecated `.txt`) for text,
 * `.json` for protobuf JSON, `.bin` (and `.pb`) for binary. All three read
 * into the same decoded P4Info object. Text is strict about unknown fields;
 * JSON and binary skip them, so P4Info from a newer p4c still loads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { P4inaError } from '../errors/p4ina-error.js';
import { decodeMessage, encodeMessage } from '../proto/codec.js';
import type * as p4i from '../proto/p4i.js';
import { formatJsonProto, parseJsonProto } from './json-format.js';
import { P4InfoError, P4InfoErrorCode } from './lookup-error.js';
import { P4Schema } from './schema.js';
import { formatTextProto, parseTextProto } from './text-format/index.js';

export type P4InfoFormat = 'text' | 'json' | 'binary';

const P4INFO = 'p4.config.v1.P4Info';

const FORMAT_BY_SUFFIX: Readonly<Record<string, P4InfoFormat>> = {
  '.txtpb': 'text',
  '.txt': 'text',
  '.json': 'json',
  '.bin': 'binary',
  '.pb': 'binary',
};

/** The format of a P4Info file from its suffix. Throws P4InfoError (P4INFO_MALFORMED) for any other suffix. */
export function p4infoFormatForPath(path: string): P4InfoFormat {
  const format = FORMAT_BY_SUFFIX[extname(path).toLowerCase()];
  if (!format) {
    throw new P4InfoError(
      P4InfoErrorCode.MALFORMED,
      `${path}: cannot tell the P4Info format from the file name; name it .txtpb (text), .json or .bin (binary), as p4c --p4runtime-files does`,
    );
  }
  return format;
}

function asText(data: string | Uint8Array): string {
  const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads a P4Info in the given format. Throws P4InfoError with code
 * P4INFO_MALFORMED, `source:line:col` in the message where the format has
 * lines, and the format-specific error (e.g. a TextFormatError) as its cause.
 */
export function parseP4Info(data: string | Uint8Array, format: P4InfoFormat, sourceName = `<${format} P4Info>`): p4i.P4Info__Output {
  try {
    switch (format) {
      case 'text':
        return parseTextProto<p4i.P4Info__Output>(P4INFO, asText(data), sourceName);
      case 'json':
        return parseJsonProto<p4i.P4Info__Output>(P4INFO, asText(data), sourceName);
      case 'binary':
        return decodeMessage<p4i.P4Info__Output>(P4INFO, typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
    }
  } catch (error) {
    if (error instanceof P4InfoError) throw error;
    const detail = P4inaError.is(error) ? error.message : `${sourceName}: not a binary P4Info: ${(error as Error).message}`;
    throw new P4InfoError(P4InfoErrorCode.MALFORMED, detail, { cause: error });
  }
}

/** A P4Info as p4c writes it: text with p4c's header lines, JSON, or binary bytes. */
export function formatP4Info(p4info: p4i.P4Info | p4i.P4Info__Output, format: 'text' | 'json'): string;
export function formatP4Info(p4info: p4i.P4Info | p4i.P4Info__Output, format: 'binary'): Buffer;
export function formatP4Info(p4info: p4i.P4Info | p4i.P4Info__Output, format: P4InfoFormat): string | Buffer;
export function formatP4Info(p4info: p4i.P4Info | p4i.P4Info__Output, format: P4InfoFormat): string | Buffer {
  switch (format) {
    case 'text':
      return formatTextProto(P4INFO, p4info, { header: true });
    case 'json':
      return formatJsonProto(P4INFO, p4info);
    case 'binary':
      return Buffer.from(encodeMessage(P4INFO, p4info));
  }
}

/** Reads a P4Info file, in the format its suffix names. Throws P4InfoError (P4INFO_MALFORMED) if it cannot. */
export function readP4InfoFile(path: string): p4i.P4Info__Output {
  const format = p4infoFormatForPath(path);
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (error) {
    throw new P4InfoError(P4InfoErrorCode.MALFORMED, `cannot read P4Info file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseP4Info(data, format, path);
}

/** Writes a P4Info file in the format its suffix names. File-system errors propagate as Node's own. */
export function writeP4InfoFile(path: string, p4info: p4i.P4Info | p4i.P4Info__Output): void {
  writeFileSync(path, formatP4Info(p4info, p4infoFormatForPath(path)));
}

/** Reads a P4Info file and indexes it. Throws P4InfoError if the file is unreadable or inconsistent. */
export function loadSchema(path: string): P4Schema {
  return new P4Schema(readP4InfoFile(path));
}
