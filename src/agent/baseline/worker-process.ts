/**
 * Running a baseline entry (ring worker, parameter server) as a process:
 * where its lines go, how errors are printed (a typed error as
 * `error CODE: message`, anything else with its stack), and signals turned
 * into an abort so sockets are closed on Ctrl-C.
 */
import { pathToFileURL } from 'node:url';
import { P4inaError } from '../../errors/p4ina-error.js';

export interface MainIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

export const CONSOLE_IO: MainIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export type MainFunction = (argv: readonly string[], io: MainIo, signal: AbortSignal) => Promise<number>;

export function describeError(err: unknown): string {
  if (P4inaError.is(err)) return `error ${err.code}: ${err.message}`;
  return `error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}

/** True when the module at `moduleUrl` is the script node was started with. */
export function isProcessEntry(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(script).href;
}

/** Runs `main` as the process's entry: SIGINT/SIGTERM abort it, its result is the exit code. */
export function runAsProcess(main: MainFunction): void {
  const controller = new AbortController();
  const stop = (): void => controller.abort(new Error('interrupted by a signal'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  void main(process.argv.slice(2), CONSOLE_IO, controller.signal).then((code) => {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    process.exitCode = code;
  });
}
