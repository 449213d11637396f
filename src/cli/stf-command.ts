/**
 * `p4ina stf PROGRAM.p4 TEST.stf`: runs an STF packet test (the format of
 * p4c's testdata/*.stf, run there against BMv2) against p4ina's switch in
 * process. Prints a readable report on stdout (on stderr when the test could
 * not run), or JSON on stdout with --json. Exit 0
 * every expectation held, 1 one did not, 2 the test could not run (bad
 * options, unreadable files, STF errors, a program that does not compile).
 */
import { rootLogger } from '../log/logger.js';
import { formatStfJson, formatStfReport, runStf, stfExitCode } from '../stf/index.js';

const USAGE = `usage: p4ina stf PROGRAM.p4 TEST.stf [options]

Runs an STF packet test (as p4c's testdata/p4_16_samples/*.stf) against p4ina's
v1model switch in process: compiles PROGRAM.p4, programs the tables, multicast
groups, clone sessions and registers the test sets, injects its packets and
checks every "expect" line. See docs/stf.md.

options:
  -I DIR            search DIR for #include <...> (repeatable)
  -D NAME[=VALUE]   define a macro (repeatable)
  --json            print the result as JSON
  -L LEVEL          log level of the switch (default warn; or LOG_LEVEL)
  -h, --help        show this help

exit status: 0 passed, 1 an expectation failed, 2 the test could not run
`;

export interface StfCommandOptions {
  program: string;
  stf: string;
  includeDirs: string[];
  defines: string[];
  json: boolean;
  logLevel: string | undefined;
}

class FlagError extends Error {}

export function parseStfArgs(argv: readonly string[]): StfCommandOptions | 'help' {
  const options: StfCommandOptions = { program: '', stf: '', includeDirs: [], defines: [], json: false, logLevel: undefined };
  const files: string[] = [];
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
    else if (arg === '--json') options.json = true;
    else if (arg === '-L' || arg === '--log-level') options.logLevel = value(i++, arg);
    else if (arg.startsWith('-')) throw new FlagError(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 2) throw new FlagError(files.length < 2 ? 'give the program and the STF file' : `too many files: ${files.join(' ')}`);
  [options.program, options.stf] = files as [string, string];
  if (!options.program.endsWith('.p4') && options.stf.endsWith('.p4')) throw new FlagError('give the program first, then the STF file: p4ina stf PROGRAM.p4 TEST.stf');
  return options;
}

export async function run(argv: string[]): Promise<number> {
  let options: StfCommandOptions | 'help';
  try {
    options = parseStfArgs(argv);
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    process.stderr.write(`p4ina stf: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  rootLogger().level = options.logLevel ?? process.env.LOG_LEVEL ?? 'warn';
  const result = runStf({ program: options.program, stf: options.stf, includeDirs: options.includeDirs, defines: options.defines });
  if (options.json) process.stdout.write(formatStfJson(result));
  // A test that could not run is an error of the inputs: its report goes to stderr.
  else (result.status === 'error' ? process.stderr : process.stdout).write(formatStfReport(result));
  return stfExitCode(result);
}
