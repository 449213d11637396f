/**
 * Compiles one of the demo's P4 programs (switchml.p4, atp.p4) into a
 * directory, as `p4ina compile` would: NAME.ir.json (the switch's CONFIG) and
 * NAME.p4info.txtpb beside it (where `p4ina switch` looks for it, and what
 * the controller reads), NAME being the source's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileProgram, formatDiagnostics, serializeIr } from '../p4c/index.js';
import { writeP4InfoFile } from '../p4info/index.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';

export interface CompiledProgram {
  readonly config: string;
  readonly p4info: string;
}

export function compileDemoProgram(source: string, outDir: string, defines: readonly string[] = []): CompiledProgram {
  const result = compileProgram(source, { defines: [...defines] });
  if (result.hasErrors || !result.ir || !result.p4info) {
    throw new DemoError(DEMO_ERROR_CODES.compile, `${source} did not compile:\n${formatDiagnostics(result.diagnostics)}`);
  }
  const name = path.basename(source, '.p4');
  const config = path.join(outDir, `${name}.ir.json`);
  const p4info = path.join(outDir, `${name}.p4info.txtpb`);
  writeFileSync(config, serializeIr(result.ir));
  writeP4InfoFile(p4info, result.p4info);
  return { config, p4info };
}
