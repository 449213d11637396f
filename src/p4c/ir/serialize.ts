/**
 * @fileoverview The IR as text and back. Keys are written in a stable
 * order (the order the lowering builds them, which the types fix) and
 * pretty-printed so goldens and diffs stay readable.
 */
import { IR_FORMAT, IR_VERSION, type IrProgram } from './types.js';

export function serializeIr(ir: IrProgram): string {
  return `${JSON.stringify(ir, null, 2)}\n`;
}

/** Parses an IR document; throws a TypeError naming what is wrong when it is not one this version reads. */
export function parseIr(text: string): IrProgram {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) throw new TypeError('an IR document must be a JSON object');
  const doc = value as { format?: unknown; version?: unknown };
  if (doc.format !== IR_FORMAT) throw new TypeError(`not a p4ina IR document (format is ${JSON.stringify(doc.format)}, expected "${IR_FORMAT}")`);
  if (doc.version !== IR_VERSION) throw new TypeError(`IR version ${JSON.stringify(doc.version)} is not supported (this build reads version ${IR_VERSION})`);
  return value as IrProgram;
}
