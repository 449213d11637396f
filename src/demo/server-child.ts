/**
 * A server the demo starts beside an algorithm's workers (ATP's parameter
 * server, OmniReduce's host aggregators): it serves until the demo stops it,
 * so its exit while the workers run is a failure, and stopping it (SIGTERM)
 * makes it print its report and exit 0.
 */
import { JSON_LISTENING, startAnnouncedChild } from './announced-child.js';
import type { DemoRunContext } from './demo-run-context.js';
import type { TrackedChild } from './child-group.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import { describeExit } from './switch-process.js';
import { lastLines } from './worker-runs.js';

/** It prints its report and exits at once on SIGTERM; this only bounds a server that hangs. */
const SERVER_STOP_GRACE_MS = 5_000;
const SERVER_START_TIMEOUT_MS = 30_000;

/** Starts `p4ina agent ARGS` and waits for its `{"listening":…}` line. */
export async function startServer(ctx: DemoRunContext, name: string, args: readonly string[], what: string): Promise<TrackedChild> {
  const started = await startAnnouncedChild(ctx.group, {
    name,
    command: process.execPath,
    args: [ctx.cliEntry, 'agent', ...args],
    announcement: JSON_LISTENING,
    startTimeoutMs: SERVER_START_TIMEOUT_MS,
    signal: ctx.hooks.signal,
    what,
    failed: (message) => new DemoError(DEMO_ERROR_CODES.worker, message),
  });
  return started.child;
}

/** Rejects as soon as the server exits; never resolves. `what` names it ("atp: the parameter server"). */
export function whenServerExits(server: TrackedChild, what: string, during: string): Promise<never> {
  const exited = server.exited.then((exit) => {
    const stderr = lastLines(server.stderr(), 5);
    throw new DemoError(DEMO_ERROR_CODES.worker, `${what} exited with ${describeExit(exit)} ${during}${stderr ? `\n${stderr}` : ''}`);
  });
  exited.catch(() => {});
  return exited;
}

/** SIGTERM, then its stdout (the report); a server that did not exit 0 is a DemoError. */
export async function stopServer(ctx: DemoRunContext, server: TrackedChild, what: string): Promise<string> {
  await ctx.group.stop([server], SERVER_STOP_GRACE_MS);
  const exit = server.exit();
  if (exit?.code !== 0) throw new DemoError(DEMO_ERROR_CODES.worker, `${what} exited with ${exit ? describeExit(exit) : 'no exit'} when stopped: ${lastLines(server.stderr(), 5)}`);
  return server.stdout();
}
