/**
 * `p4ina compile`: the P4-16 front end as a command, shaped like p4c's:
 * writes the pipeline IR (`OUTDIR/PROGRAM.ir.json`) and the P4Info (text,
 * JSON or binary by suffix, as `--p4runtime-files`). Exit 0 on success,
 * 1 with the diagnostics on stderr when the program is wrong, 2 on bad flags.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatDiagnostics, frontEndPasses, runFrontEnd } from '../p4c/index.js';
import { serializeIr } from '../p4c/ir/serialize.js';
import { P4INFO } from '../p4c/passes/emit-p4info.js';
import { IR_DOCUMENT } from '../p4c/passes/lower-to-ir.js';
import { writeP4InfoFile } from '../p4info/index.js';

const USAGE = `usage: p4ina compile PROGRAM.p4 [options]

Compiles a P4-16 v1model program into the pipeline IR and its P4Info.

options:
  -I DIR                     search DIR for #include <...> (repeatable; before p4ina's own library)
  -D NAME[=VALUE]            define a macro (repeatable)
  -o OUTDIR                  where to write the outputs (default: the current directory)
  --p4runtime-files LIST     comma-separated P4Info files to write, format by suffix
                             (.txtpb/.txt text, .json JSON, .bin/.pb binary);
                             default OUTDIR/PROGRAM.p4info.txtpb
  --dump-after PASS          print the program as P4 after PASS (or "all") to stdout
  -h, --help                 show this help
`;

export interface CompileOptions {
  program: string;
  includeDirs: string[];
  defines: string[];
  outDir: string;
  p4runtimeFiles: string[] | null;
  dumpAfter: string[];
}

class FlagError extends Error {}

export function parseCompileArgs(argv: readonly string[]): CompileOptions | 'help' {
  const options: CompileOptions = { program: '', includeDirs: [], defines: [], outDir: '.', p4runtimeFiles: null, dumpAfter: [] };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v === '') throw new FlagError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '-I') options.includeDirs.push(value(i++, arg));
    else if (arg.startsWith('-I') && arg.length > 2) options.includeDirs.push(arg.slice(2));
    else if (arg === '-D') options.defines.push(value(i++, arg));
    else if (arg.startsWith('-D') && arg.length > 2) options.defines.push(arg.slice(2));
    else if (arg === '-o') options.outDir = value(i++, arg);
    else if (arg === '--p4runtime-files') options.p4runtimeFiles = value(i++, arg).split(',').filter((f) => f !== '');
    else if (arg === '--dump-after') options.dumpAfter.push(value(i++, arg));
    else if (arg.startsWith('-')) throw new FlagError(`unknown option ${arg}`);
    else if (options.program !== '') throw new FlagError(`only one program can be compiled at a time (got "${options.program}" and "${arg}")`);
    else options.program = arg;
  }
  if (options.program === '') throw new FlagError('no program given');
  const passes = frontEndPasses().map((p) => p.name);
  for (const name of options.dumpAfter) {
    if (name !== 'all' && !passes.includes(name)) throw new FlagError(`--dump-after: no pass named "${name}" (passes: ${passes.join(', ')}, all)`);
  }
  for (const file of options.p4runtimeFiles ?? []) {
    if (!/\.(txtpb|txt|json|bin|pb)$/.test(file)) throw new FlagError(`--p4runtime-files: cannot tell the format of "${file}" (use .txtpb, .json or .bin)`);
  }
  return options;
}

export async function run(argv: string[]): Promise<number> {
  let options: CompileOptions | 'help';
  try {
    options = parseCompileArgs(argv);
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    process.stderr.write(`p4ina compile: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  return compile(options);
}

export function compile(options: CompileOptions): number {
  const result = runFrontEnd(options.program, {
    includeDirs: options.includeDirs,
    defines: options.defines,
    dumpAfter: options.dumpAfter.includes('all') ? 'all' : options.dumpAfter,
    onDump: (pass, text) => process.stdout.write(`// ---- after ${pass} ----\n${text}`),
  });
  if (result.diagnostics.length > 0) process.stderr.write(formatDiagnostics(result.diagnostics));
  const p4info = result.context.table(P4INFO).p4info;
  const ir = result.context.table(IR_DOCUMENT).ir;
  if (result.hasErrors || !p4info || !ir) return 1;
  const base = path.basename(options.program).replace(/\.p4$/, '');
  try {
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(path.join(options.outDir, `${base}.ir.json`), serializeIr(ir));
    const targets = options.p4runtimeFiles ?? [path.join(options.outDir, `${base}.p4info.txtpb`)];
    for (const file of targets) {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      writeP4InfoFile(file, p4info);
    }
  } catch (error) {
    process.stderr.write(`p4ina compile: cannot write the outputs: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return 0;
}
