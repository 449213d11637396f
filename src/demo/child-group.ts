/**
 * The demo's child processes, tracked so that none outlives the demo: each
 * is spawned with piped output (kept, bounded, for reports and error
 * messages), and `stopAll` ends the live ones with SIGTERM, then SIGKILL after
 * a bounded grace period. A process 'exit' hook SIGKILLs whatever is left if
 * the demo exits without running its cleanup, and each child has a lifeline
 * (src/run/lifeline.ts) that makes it stop by itself when the demo dies
 * without any hook running (kill -9).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { holdLifeline, withLifeline } from '../run/lifeline.js';

/** Output kept per stream; a worker's report is one line, far below this. */
const MAX_KEPT_CHARS = 1024 * 1024;

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface TrackedChild {
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Everything written to stdout so far (capped). */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<ChildExit>;
  /** Undefined while running. */
  exit(): ChildExit | undefined;
}

export interface SpawnRequest {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Called with each complete stdout line as it arrives. */
  readonly onStdoutLine?: (line: string) => void;
}

export class ChildGroup {
  private readonly children = new Set<TrackedChild>();
  private readonly killLeftovers = (): void => {
    for (const child of this.children) if (!child.exit()) child.process.kill('SIGKILL');
  };

  constructor() {
    process.on('exit', this.killLeftovers);
  }

  /** PIDs of the children that have not exited yet. */
  livePids(): number[] {
    return [...this.children].filter((c) => !c.exit()).map((c) => c.pid);
  }

  /** Every pid this group ever started. */
  allPids(): number[] {
    return [...this.children].map((c) => c.pid);
  }

  /** Starts a child; rejects when it cannot be started at all (e.g. ENOENT). */
  spawn(request: SpawnRequest): Promise<TrackedChild> {
    return new Promise((resolve, reject) => {
      const child = spawn(request.command, [...request.args], withLifeline(['ignore', 'pipe', 'pipe'], request.env ?? process.env));
      holdLifeline(child.stdio[3]);
      let out = '';
      let err = '';
      let partial = '';
      let exitInfo: ChildExit | undefined;
      const exited = new Promise<ChildExit>((done) => {
        child.once('exit', (code, signal) => {
          exitInfo = { code, signal };
          done(exitInfo);
        });
      });
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        if (out.length < MAX_KEPT_CHARS) out += chunk;
        if (!request.onStdoutLine) return;
        partial += chunk;
        let newline = partial.indexOf('\n');
        while (newline >= 0) {
          request.onStdoutLine(partial.slice(0, newline));
          partial = partial.slice(newline + 1);
          newline = partial.indexOf('\n');
        }
      });
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        if (err.length < MAX_KEPT_CHARS) err += chunk;
      });
      child.once('error', (error) => {
        if (child.pid === undefined) reject(error);
      });
      child.once('spawn', () => {
        const tracked: TrackedChild = {
          name: request.name,
          pid: child.pid!,
          process: child,
          stdout: () => out,
          stderr: () => err,
          exited,
          exit: () => exitInfo,
        };
        this.children.add(tracked);
        resolve(tracked);
      });
    });
  }

  /** Ends every live child: SIGTERM, then SIGKILL for those still alive after `graceMs`. Bounded. */
  stopAll(graceMs = 3000): Promise<void> {
    return this.stop([...this.children], graceMs);
  }

  /** Ends the given children as stopAll does. */
  async stop(children: readonly TrackedChild[], graceMs = 3000): Promise<void> {
    const live = children.filter((c) => !c.exit());
    for (const c of live) c.process.kill('SIGTERM');
    await Promise.all(live.map((c) => waitExit(c, graceMs)));
    const stubborn = live.filter((c) => !c.exit());
    for (const c of stubborn) c.process.kill('SIGKILL');
    await Promise.all(stubborn.map((c) => waitExit(c, 2000)));
  }

  /** Stops everything and removes the exit hook. */
  async close(): Promise<void> {
    await this.stopAll();
    process.removeListener('exit', this.killLeftovers);
  }
}

/** Waits for a child's exit for at most `ms`; true when it exited. */
export async function waitExit(child: TrackedChild, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([child.exited.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
