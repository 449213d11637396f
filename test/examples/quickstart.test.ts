// The README's first steps must keep working: start `p4ina switch --no-p4` as `npm start` does,
// run examples/p4runtime-quickstart.mjs against it, and check what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = `${root}dist/src/cli/main.js`;
const built = existsSync(cli) && existsSync(`${root}dist/src/index.js`);

describe.runIf(built)('P4Runtime quickstart example', () => {
  let sw: ChildProcess | undefined;
  let address = '';

  beforeAll(async () => {
    sw = spawn(process.execPath, [cli, 'switch', '--no-p4', '--', '--grpc-server-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: sw.stdout! });
    address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the switch did not say where it listens within 15 s')), 15_000);
      lines.on('line', (line) => {
        const m = /listening on (127\.0\.0\.1:\d+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
  });

  afterAll(() => {
    sw?.kill('SIGKILL');
  });

  it('pushes a P4Info, inserts, reads, refuses bad entries and deletes', async () => {
    const child = spawn(process.execPath, [`${root}examples/p4runtime-quickstart.mjs`, address], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('as primary');
    expect(out).toContain('inserted 3 entries');
    expect(out.match(/MyIngress\.l2_exact: .* -> MyIngress\.forward/g)).toHaveLength(2);
    expect(out).toMatch(/a duplicate entry is refused: .*ALREADY_EXISTS/);
    expect(out).toMatch(/a bad entry is refused before it is sent: VALUE_TOO_WIDE: .*port.*9/);
    expect(out).toContain('0 entries left');
  });
});
