/**
 * Throwaway network namespaces for the AF_PACKET tests: each gets a unique
 * `p4ina-test-<random>` name (test files may run in parallel), IPv6 off so
 * that no autoconfiguration traffic appears on its links, and is deleted with
 * everything in it by remove(), which the tests call in afterAll/finally.
 * Every command has a timeout.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export const NAMESPACE_PREFIX = 'p4ina-test-';
const COMMAND_TIMEOUT_MS = 10_000;

export interface CommandResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion (killed after `timeoutMs`); never rejects. */
export function runCommand(file: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: options.timeoutMs ?? COMMAND_TIMEOUT_MS, killSignal: 'SIGKILL', env: options.env ?? process.env, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        const failure = err as (Error & { code?: unknown; signal?: NodeJS.Signals | null }) | null;
        const code = failure === null ? 0 : typeof failure.code === 'number' ? failure.code : null;
        resolve({ code, signal: failure?.signal ?? null, stdout, stderr: stderr || (failure && code === null ? failure.message : '') });
      },
    );
  });
}

async function mustRun(file: string, args: readonly string[]): Promise<string> {
  const result = await runCommand(file, args);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} failed (${result.code ?? result.signal}): ${result.stderr.trim()}`);
  return result.stdout;
}

export async function listNamespaces(): Promise<string[]> {
  const out = await mustRun('ip', ['netns', 'list']);
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((name) => name !== '');
}

export class TestNamespace {
  private removed = false;

  private constructor(readonly name: string) {}

  /** Creates the namespace; on any failure deletes what was made and rethrows. */
  static async create(): Promise<TestNamespace> {
    const ns = new TestNamespace(`${NAMESPACE_PREFIX}${randomBytes(6).toString('hex')}`);
    await mustRun('ip', ['netns', 'add', ns.name]);
    try {
      await ns.exec('sysctl', ['-q', '-w', 'net.ipv6.conf.all.disable_ipv6=1']);
      await ns.exec('sysctl', ['-q', '-w', 'net.ipv6.conf.default.disable_ipv6=1']);
    } catch (err) {
      await ns.remove();
      throw err;
    }
    return ns;
  }

  /** Runs a command inside the namespace; throws if it fails. */
  exec(file: string, args: readonly string[]): Promise<string> {
    return mustRun('ip', ['netns', 'exec', this.name, file, ...args]);
  }

  /** Runs a command inside the namespace and returns how it ended. */
  run(file: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> {
    return runCommand('ip', ['netns', 'exec', this.name, file, ...args], options);
  }

  /** A veth pair `a`–`b`, both brought up unless `up` is false. */
  async addVethPair(a: string, b: string, up = true): Promise<void> {
    await this.exec('ip', ['link', 'add', a, 'type', 'veth', 'peer', 'name', b]);
    if (up) {
      await this.exec('ip', ['link', 'set', a, 'up']);
      await this.exec('ip', ['link', 'set', b, 'up']);
    }
  }

  /** Deletes the namespace and its interfaces. Idempotent; never throws (the tests check the result). */
  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await runCommand('ip', ['netns', 'delete', this.name]);
  }
}
