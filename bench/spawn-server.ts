/**
 * Starts a server process for a benchmark and waits for the line where it
 * says which port it bound, so client and server run on separate cores as they
 * would in a real deployment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns `node ARGS…`; resolves when a stdout line matches `portPattern` (its group 1 is the port). */
export async function spawnServer(args: string[], portPattern: RegExp, timeoutMs = 15_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: no port line within ${timeoutMs} ms`)), timeoutMs);
    lines.on('line', (line) => {
      const m = portPattern.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before it listened`));
    });
  });
  return {
    port,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
