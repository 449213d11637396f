/**
 * A P4 source compiled into what a P4Runtime controller pushes: the P4Info and
 * the device config (p4ina's IR as JSON, which p4ina's switch runs). The
 * controller does not depend on the front end; whoever composes them (the
 * command line, the demo, the testbed) passes this function in.
 */
import type * as p4i from '../proto/p4i.js';
import { compileProgram } from './compile-program.js';
import { formatDiagnostics } from './diagnostics/render.js';
import { serializeIr } from './ir/serialize.js';

export interface PipelineCompileOptions {
  /** `-D` definitions, e.g. `['SWITCHML_SLOTS=64']`. */
  readonly defines?: readonly string[];
  readonly includeDirs?: readonly string[];
}

export type PipelineCompileResult = { readonly ok: true; readonly p4info: p4i.P4Info; readonly deviceConfig: Buffer } | { readonly ok: false; readonly message: string };

/** Compiles `file`; diagnostics come back as text (file:line:col, the line and a caret), never thrown. */
export function compilePipeline(file: string, options: PipelineCompileOptions = {}): PipelineCompileResult {
  const result = compileProgram(file, { includeDirs: [...(options.includeDirs ?? [])], defines: [...(options.defines ?? [])] });
  if (result.hasErrors || !result.p4info || !result.ir) return { ok: false, message: `${file} did not compile:\n${formatDiagnostics(result.diagnostics)}` };
  return { ok: true, p4info: result.p4info, deviceConfig: Buffer.from(serializeIr(result.ir), 'utf8') };
}
