/**
 * A child that says where it listens on its stdout before it is of use (the
 * switch's P4Runtime server, a parameter server): started, then waited for
 * until a line matches, bounded by a timeout and by the demo's abort signal.
 * A child that exits first, or never says, is the caller's error, with the
 * end of its stderr.
 */
import type { ChildGroup, TrackedChild } from './child-group.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';

/** `{"listening":"127.0.0.1:PORT"}`, the first line of an agent's server started with --json. */
export const JSON_LISTENING = /^\{"listening":"([^"]+)"\}$/;

export interface AnnouncedChild {
  readonly child: TrackedChild;
  /** The first capture group of the matching line. */
  readonly address: string;
}

export interface AnnouncedChildRequest {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Matches the announcing line; group 1 is the address. */
  readonly announcement: RegExp;
  readonly startTimeoutMs: number;
  readonly signal?: AbortSignal;
  /** "the switch", "atp's parameter server": for messages. */
  readonly what: string;
  /** The error for a child that did not start: its message says why. */
  readonly failed: (message: string) => DemoError;
}

export async function startAnnouncedChild(group: ChildGroup, request: AnnouncedChildRequest): Promise<AnnouncedChild> {
  let announce: (address: string) => void = () => {};
  const announced = new Promise<string>((resolve) => (announce = resolve));
  const child = await group.spawn({
    name: request.name,
    command: request.command,
    args: request.args,
    onStdoutLine: (line) => {
      const m = request.announcement.exec(line);
      if (m) announce(m[1]!);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<{ aborted: true }>((resolve) => {
    onAbort = () => resolve({ aborted: true });
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const outcome = await Promise.race([
    aborted,
    announced.then((address) => ({ address })),
    child.exited.then((exit) => ({ exit })),
    new Promise<{ timeout: true }>((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), request.startTimeoutMs))),
  ]).finally(() => {
    clearTimeout(timer);
    if (onAbort) request.signal?.removeEventListener('abort', onAbort);
  });
  if ('address' in outcome) return { child, address: outcome.address };
  if ('aborted' in outcome) throw new DemoError(DEMO_ERROR_CODES.interrupted, `interrupted while ${request.what} was starting`);
  const stderr = child.stderr().trim().split('\n').slice(-15).join('\n');
  const why = 'exit' in outcome ? `it exited (code ${outcome.exit.code ?? outcome.exit.signal})` : `it did not say where it listens within ${request.startTimeoutMs} ms`;
  throw request.failed(`${request.what} did not start: ${why}${stderr ? `\n${stderr}` : ''}`);
}
