/**
 * What every agent command shares around its own work: parse the arguments
 * (undefined meaning --help), run, print the report as one JSON line or as
 * text, and the exit status: 0 done (or help), 1 the run failed (the typed
 * error's line on stderr), 2 bad arguments (the error, then the usage).
 */
import { CONSOLE_IO, describeError, type MainIo } from './worker-process.js';

export interface AgentProgram<O extends { readonly json: boolean }, R> {
  readonly usage: string;
  /** Throws a typed error for bad arguments; undefined for --help. */
  parse(argv: readonly string[]): O | undefined;
  /** The run itself; `io` for what it prints before its report (e.g. where it listens). */
  run(options: O, io: MainIo, signal?: AbortSignal): Promise<R>;
  /** The readable form of the report. */
  format(report: R): string;
}

/** Runs parsed options and prints the report; resolves to the exit status (0 done, 1 failed). */
export async function runAgentProgram<O extends { readonly json: boolean }, R>(program: AgentProgram<O, R>, options: O, io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  try {
    const report = await program.run(options, io, signal);
    io.out(options.json ? JSON.stringify(report) : program.format(report));
    return 0;
  } catch (err) {
    io.err(describeError(err));
    return 1;
  }
}

/** The whole command from argv: 2 for bad arguments, 0 for --help, else as runAgentProgram. */
export function agentCommand<O extends { readonly json: boolean }, R>(program: AgentProgram<O, R>, argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  let options: O | undefined;
  try {
    options = program.parse(argv);
  } catch (err) {
    io.err(describeError(err));
    io.err(program.usage);
    return Promise.resolve(2);
  }
  if (!options) {
    io.out(program.usage);
    return Promise.resolve(0);
  }
  return runAgentProgram(program, options, io, signal);
}
