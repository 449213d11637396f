/** Running the TypeScript child programs in child/ (through register-ts.mjs) and reading their RESULT line. */
import { fileURLToPath } from 'node:url';
import type { CommandResult } from './netns.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

export const REGISTER_TS = here('./child/register-ts.mjs');
export const EXCHANGE_FRAMES = here('./child/exchange-frames.ts');
export const TRY_OPEN = here('./child/try-open.ts');

/** `node` arguments that run one of the child programs with `args`. */
export function nodeArgs(program: string, ...args: string[]): string[] {
  return ['--import', REGISTER_TS, program, ...args];
}

/** The child's environment: quiet logs, so that stdout holds only the RESULT line. */
export function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LOG_LEVEL: 'silent' };
}

/** Parses the `RESULT {json}` line; throws with the child's output when there is none or it reports a failure. */
export function parseResult<T>(result: CommandResult): T {
  const line = result.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  const context = `exit ${result.code ?? result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
  if (line === undefined) throw new Error(`the child printed no RESULT line (killed by the timeout if the exit is SIGKILL):\n${context}`);
  const parsed = JSON.parse(line.slice('RESULT '.length)) as T & { fatal?: string };
  if (parsed.fatal !== undefined) throw new Error(`the child failed: ${parsed.fatal}\n${context}`);
  if (result.code !== 0) throw new Error(`the child reported but did not exit cleanly (a leaked handle keeps it alive until the timeout):\n${context}`);
  return parsed;
}
