/**
 * The emulated switch as a child process: `p4ina switch -i … CONFIG --
 * --grpc-server-addr 127.0.0.1:0`, whose first stdout line says where its
 * P4Runtime server listens. Waiting for that line is bounded; a switch that
 * exits first, or never says, is a DEMO_SWITCH_FAILED with its stderr.
 */
import type { ChildExit, ChildGroup, TrackedChild } from './child-group.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';

export interface SwitchProcess {
  readonly child: TrackedChild;
  /** "127.0.0.1:PORT" of its P4Runtime server. */
  readonly grpcAddress: string;
}

const LISTENING = /listening on (127\.0\.0\.1:\d{1,5})\b/;

export async function startSwitchProcess(
  group: ChildGroup,
  cliEntry: string,
  args: { readonly interfaces: readonly string[]; readonly config: string; readonly startTimeoutMs: number; readonly signal?: AbortSignal },
): Promise<SwitchProcess> {
  let announce: (address: string) => void = () => {};
  const announced = new Promise<string>((resolve) => (announce = resolve));
  const child = await group.spawn({
    name: 'switch',
    command: process.execPath,
    args: [cliEntry, 'switch', ...args.interfaces, args.config, '--', '--grpc-server-addr', '127.0.0.1:0'],
    onStdoutLine: (line) => {
      const m = LISTENING.exec(line);
      if (m) announce(m[1]!);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<{ aborted: true }>((resolve) => {
    onAbort = () => resolve({ aborted: true });
    if (args.signal?.aborted) onAbort();
    else args.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const outcome = await Promise.race([
    aborted,
    announced.then((address) => ({ address })),
    child.exited.then((exit) => ({ exit })),
    new Promise<{ timeout: true }>((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), args.startTimeoutMs))),
  ]).finally(() => {
    clearTimeout(timer);
    if (onAbort) args.signal?.removeEventListener('abort', onAbort);
  });
  if ('address' in outcome) return { child, grpcAddress: outcome.address };
  if ('aborted' in outcome) throw new DemoError(DEMO_ERROR_CODES.interrupted, 'interrupted while the switch was starting');
  const stderr = child.stderr().trim().split('\n').slice(-15).join('\n');
  const why = 'exit' in outcome ? `it exited (code ${outcome.exit.code ?? outcome.exit.signal})` : `it did not say where it listens within ${args.startTimeoutMs} ms`;
  throw new DemoError(DEMO_ERROR_CODES.switchStart, `the switch did not start: ${why}${stderr ? `\n${stderr}` : ''}`);
}

/** "code 1", "signal SIGKILL". */
export function describeExit(exit: ChildExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code ?? '?'}`;
}

/**
 * The error for a switch that exited while the demo still needed it, or
 * undefined while it runs. A switch that died of a signal printed nothing
 * worth showing; one that exited by itself says why on stderr.
 */
export function switchExitError(child: TrackedChild, during: string): DemoError | undefined {
  const exit = child.exit();
  if (!exit) return undefined;
  const stderr = exit.signal ? '' : child.stderr().trim().split('\n').slice(-5).join('\n');
  return new DemoError(DEMO_ERROR_CODES.switchExited, `the switch exited with ${describeExit(exit)} ${during}${stderr ? `\n${stderr}` : ''}`);
}

/** Rejects with switchExitError as soon as the switch exits; never resolves. Unobserved rejections are ignored. */
export function whenSwitchExits(child: TrackedChild, during: string): Promise<never> {
  const exited = child.exited.then(() => {
    throw switchExitError(child, during)!;
  });
  exited.catch(() => {});
  return exited;
}
