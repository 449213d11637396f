/**
 * The process-wide pino logger. Level from LOG_LEVEL (default info); modules
 * take a child with their own `module` field so logs can be filtered by part.
 * It writes to stderr: stdout carries what commands print for people and
 * machines (tables, --json reports), which a log line must never interleave.
 */
import { pino, type Logger } from 'pino';

const root: Logger = pino(
  {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { pid: process.pid },
  },
  pino.destination({ fd: 2, sync: true }),
);

export type { Logger };

/** A child logger tagged with the module that writes through it. */
export function moduleLogger(module: string, bindings: Record<string, unknown> = {}): Logger {
  return root.child({ module, ...bindings });
}

/** The root logger, for the command line to adjust the level (`-L`). */
export function rootLogger(): Logger {
  return root;
}
