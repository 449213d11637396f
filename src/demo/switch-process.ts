/**
 * The emulated switch as a child process: `p4ina switch -i … CONFIG --
 * --grpc-server-addr 127.0.0.1:0`, whose first stdout line says where its
 * P4Runtime server listens. Waiting for that line is bounded; a switch that
 * exits first, or never says, is a DEMO_SWITCH_FAILED with its stderr.
 */
import { startAnnouncedChild } from './announced-child.js';
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
  args: {
    readonly interfaces: readonly string[];
    readonly config: string;
    readonly startTimeoutMs: number;
    readonly signal?: AbortSignal;
    /** More `p4ina switch` options (e.g. --udp-io dgram). */
    readonly flags?: readonly string[];
  },
): Promise<SwitchProcess> {
  const { child, address } = await startAnnouncedChild(group, {
    name: 'switch',
    command: process.execPath,
    args: [cliEntry, 'switch', ...args.interfaces, ...(args.flags ?? []), args.config, '--', '--grpc-server-addr', '127.0.0.1:0'],
    announcement: LISTENING,
    startTimeoutMs: args.startTimeoutMs,
    signal: args.signal,
    what: 'the switch',
    failed: (message) => new DemoError(DEMO_ERROR_CODES.switchStart, message),
  });
  return { child, grpcAddress: address };
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
