// Shared by the tests of p4/: where the programs are, and each program
// compiled once per set of -D definitions.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileProgram, formatDiagnostics, type IrProgram } from '../../src/p4c/index.js';
import { formatP4Info, P4Schema, parseP4Info } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const P4_DIR = path.join(ROOT, 'p4');
export const INCLUDE_DIR = path.join(P4_DIR, 'include');
export const FORWARD_P4 = path.join(P4_DIR, 'forward.p4');
export const SWITCHML_P4 = path.join(P4_DIR, 'switchml.p4');
export const ATP_P4 = path.join(P4_DIR, 'atp.p4');

export interface CompiledProgram {
  /** As a controller reads it: printed as text format and parsed back. */
  readonly p4info: p4i.P4Info__Output;
  readonly schema: P4Schema;
  readonly ir: IrProgram;
}

const cache = new Map<string, CompiledProgram>();

/** Compiles `file` with `defines` (NAME=VALUE); throws with the diagnostics if there are any. */
export function compiled(file: string, defines: readonly string[] = []): CompiledProgram {
  const key = `${file}|${defines.join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compileProgram(file, { includeDirs: [INCLUDE_DIR], defines: [...defines] });
  if (result.diagnostics.length > 0 || !result.p4info || !result.ir) {
    throw new Error(`${path.relative(ROOT, file)} did not compile cleanly:\n${formatDiagnostics(result.diagnostics)}`);
  }
  const p4info = parseP4Info(formatP4Info(result.p4info, 'text'), 'text');
  const program = { p4info, schema: new P4Schema(p4info), ir: result.ir };
  cache.set(key, program);
  return program;
}
