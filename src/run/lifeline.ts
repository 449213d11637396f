/**
 * A child's lifeline to its parent, so that no child outlives the process
 * that started it, however that process ends (kill -9 included, when no exit
 * hook runs). The parent spawns the child with one more stdio pipe (fd 3)
 * that it never writes to and never closes, and names that fd in the child's
 * environment (P4INA_LIFELINE_FD). When the parent dies, the kernel closes
 * its end; the child reads end-of-file on fd 3 at once, with no polling of
 * the parent's pid, and stops itself as if it had been sent SIGTERM.
 *
 * Node children (`p4ina switch`, `p4ina agent …`) watch it in src/cli/main.ts;
 * the Mininet runner (Python) watches it in mininet/p4ina_mininet/runner.py.
 */
import type { SpawnOptions, StdioNull, StdioPipe } from 'node:child_process';
import net from 'node:net';

/** The environment variable that names the lifeline's fd in the child. */
export const LIFELINE_ENV = 'P4INA_LIFELINE_FD';
/** The lifeline is the child's fd 3: the first one after stdin, stdout and stderr. */
const LIFELINE_FD = 3;
/** After the lifeline breaks, how long the child's own SIGTERM handling may take before it is cut short. */
const STOP_GRACE_MS = 5000;

type StdStream = StdioNull | StdioPipe;

/**
 * spawn() options for a child that must end when this process ends: the
 * three standard streams as given, then the lifeline pipe, and the
 * environment variable that tells the child about it.
 */
export function withLifeline(stdio: readonly [StdStream, StdStream, StdStream], env: NodeJS.ProcessEnv = process.env): Pick<SpawnOptions, 'stdio' | 'env'> {
  return { stdio: [...stdio, 'pipe'], env: { ...env, [LIFELINE_ENV]: String(LIFELINE_FD) } };
}

/**
 * The parent's end of a child's lifeline: it reads (the child never writes)
 * so that the child's exit closes it, and does not keep the parent alive.
 */
export function holdLifeline(parentEnd: unknown): void {
  if (!(parentEnd instanceof net.Socket)) return;
  parentEnd.on('error', () => {});
  parentEnd.resume();
  parentEnd.unref();
}

/**
 * In a child: when this process was started with a lifeline, calls
 * `onParentGone` once its parent has died. Returns whether there was one.
 * The variable is removed from this process's environment, so that its own
 * children do not take an fd of theirs for a lifeline.
 */
export function watchLifeline(onParentGone: () => void): boolean {
  const value = process.env[LIFELINE_ENV];
  if (value === undefined) return false;
  delete process.env[LIFELINE_ENV];
  const fd = Number(value);
  if (!Number.isSafeInteger(fd) || fd < LIFELINE_FD) return false;
  let socket: net.Socket;
  try {
    socket = new net.Socket({ fd, readable: true, writable: false });
  } catch {
    // Not an open pipe or socket (a parent that set the variable by mistake): nothing to watch.
    return false;
  }
  let gone = false;
  const broken = (): void => {
    if (gone) return;
    gone = true;
    socket.destroy();
    onParentGone();
  };
  socket.on('data', () => {});
  socket.once('end', broken);
  socket.once('close', broken);
  socket.once('error', broken);
  socket.unref();
  return true;
}

/**
 * What a `p4ina` child does when its parent is gone: it stops the way it
 * stops on SIGTERM (the switch closes its server and ports, an agent aborts
 * its run), and exits within STOP_GRACE_MS whatever happens. Nobody reads
 * its output any more: writes to a closed pipe must not crash the cleanup.
 */
export function stopOnParentDeath(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
  process.kill(process.pid, 'SIGTERM');
}
