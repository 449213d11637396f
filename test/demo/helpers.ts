// Helpers for the demo's end-to-end tests: the built CLI the children run,
// a probe of whether that build can run the demo (its switch takes a
// compiled program with UDP-wire ports), and process bookkeeping via /proc.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildGroup, type SpawnRequest, type TrackedChild } from '../../src/demo/child-group.js';
import { compileDemoProgram } from '../../src/demo/compile-program.js';
import { testUdpPorts } from '../helpers/test-ports.js';
import { builtCliEntry, switchMlSource } from '../../src/run/package-paths.js';
import { startSwitchProcess } from '../../src/demo/switch-process.js';

/** The built entry; P4INA_TEST_CLI points at another build (e.g. one made with tsc --outDir). */
export const CLI = process.env.P4INA_TEST_CLI ?? builtCliEntry();

function exitCodeOf(args: readonly string[], timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', () => resolve(null));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Whether the demo can run end to end here, and if not, why. */
export async function probeDemoCapability(): Promise<{ ok: boolean; reason: string }> {
  if (!existsSync(CLI)) return { ok: false, reason: `${CLI} is missing: build first (npm run build)` };
  if ((await exitCodeOf([CLI, 'agent', '--help'], 20_000)) !== 0) return { ok: false, reason: `${CLI} has no "agent" command: the build is older than src/cli; rebuild` };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'p4ina-demo-probe-'));
  const group = new ChildGroup();
  try {
    const program = compileDemoProgram(switchMlSource(), tmp);
    const [local, peer] = await testUdpPorts(2);
    await startSwitchProcess(group, CLI, { interfaces: ['-i', `1@udp:127.0.0.1:${local}:127.0.0.1:${peer}`], config: program.config, startTimeoutMs: 30_000 });
    return { ok: true, reason: 'the built switch runs switchml.p4 with UDP-wire ports' };
  } catch (err) {
    return { ok: false, reason: `the built switch does not run switchml.p4 with UDP-wire ports: ${(err as Error).message.split('\n').slice(0, 4).join(' | ')}` };
  } finally {
    await group.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** True while a process with this pid exists (zombies count as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every descendant of `pid` now, from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  let frontier = [pid];
  for (let depth = 0; depth < 8 && frontier.length > 0; depth++) {
    const next = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Polls until none of `pids` is alive, for at most `ms`; returns those still alive. */
export async function waitAllGone(pids: readonly number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isAlive);
  }
  return alive;
}

/**
 * The temp directories of demos run in this process (runDemo: the name has
 * the demo's PID), now in the system temp dir; other test files' demos,
 * running at the same time, have their own.
 */
export function demoTempDirs(): string[] {
  return readdirSync(os.tmpdir()).filter((d) => d.startsWith(`p4ina-demo-${process.pid}-`));
}

/** A group that keeps every child, so the workers' own reports can be read afterwards. */
export class WatchedGroup extends ChildGroup {
  readonly started: TrackedChild[] = [];
  override async spawn(request: SpawnRequest): Promise<TrackedChild> {
    const child = await super.spawn(request);
    this.started.push(child);
    return child;
  }
}
