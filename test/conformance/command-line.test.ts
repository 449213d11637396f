// The command line as a new user meets it: start `p4ina switch --no-p4` on a
// free port, push the hand-written forwarding P4Info with the client, insert,
// read and delete entries by name, see a clear error for a bad entry, and stop
// the switch with SIGTERM. Runs the built command (dist/ is built by `npm test`
// before vitest; alone, run `npx tsc -p tsconfig.json` first).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, del, insert, modify, P4RuntimeClient, table } from '../../src/p4runtime/index.js';
import { readP4InfoFile } from '../../src/p4info/index.js';
import { fixturePath } from './helpers/programs.js';
import { writeError } from './helpers/outcomes.js';
import { quietLogger } from './helpers/switch-under-test.js';
import { WAIT_MS } from './helpers/wait.js';

const MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const BUILT = existsSync(MAIN);
if (!BUILT) console.warn(`command-line conformance tests skipped: ${MAIN} is missing (build it with: npx tsc -p tsconfig.json)`);

interface Started {
  child: ChildProcess;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Spawns the switch and resolves once it printed the address it listens on. */
function startSwitch(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [MAIN, 'switch', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the switch printed no address within ${WAIT_MS} ms; stdout: ${stdout}; stderr: ${stderr}`)), WAIT_MS);
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), exited });
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`the switch exited (${code}) before listening; stdout: ${stdout}; stderr: ${stderr}`));
    });
  });
}

describe.skipIf(!BUILT)('p4ina switch --no-p4, driven by the client', () => {
  let started: Started | undefined;
  let client: P4RuntimeClient | undefined;

  beforeAll(async () => {
    started = await startSwitch(['--no-p4', '--', '--grpc-server-addr', '127.0.0.1:0']);
    client = new P4RuntimeClient({ address: `127.0.0.1:${started.port}`, deviceId: 0, electionId: 1n, reconnect: false, logger: quietLogger(), rpcTimeoutMs: WAIT_MS });
  }, WAIT_MS * 2);

  afterAll(async () => {
    await client?.close();
    if (started && started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
  });

  it('takes a P4Info from a text file, and entries inserted, read and deleted by name', async () => {
    const c = client!;
    expect(await c.connect()).toEqual({ primary: true });
    expect(await c.setPipeline({ p4info: readP4InfoFile(fixturePath('forwarding')), deviceConfig: '{}' })).toMatchObject({ pushed: true });
    await c.write([
      insert(table('MyIngress.l2_exact', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:ff' }, action('MyIngress.forward', { port: 2 }))),
      insert(table('ipv4_lpm', { dst_addr: '10.0.0.0/8' }, action('set_nhop', { dmac: '00:00:00:00:00:01', port: 3 }))),
      modify(table('ipv4_lpm', { dst_addr: '10.0.0.0/8' }, action('set_nhop', { dmac: '00:00:00:00:00:01', port: 4 }))),
    ]);
    expect(await c.readAll(table('l2_exact'))).toMatchObject([
      { table: 'MyIngress.l2_exact', match: { 'hdr.ethernet.dst_addr': 0xaabbccddeeff }, action: { name: 'MyIngress.forward', params: { port: 2 } } },
    ]);
    expect(await c.readAll(table('ipv4_lpm'))).toMatchObject([{ match: { 'hdr.ipv4.dst_addr': { value: 0x0a000000, prefixLen: 8 } }, action: { params: { port: 4 } } }]);
    await c.write([del(table('l2_exact', { dst_addr: 'aa:bb:cc:dd:ee:ff' })), del(table('ipv4_lpm', { dst_addr: '10.0.0.0/8' }))]);
    expect(await c.readAll(table('*'))).toEqual([]);
  });

  it('explains a bad entry: the error names the update, the table and the problem', async () => {
    const c = client!;
    const entry = table('l2_exact', { dst_addr: 1 }, action('forward', { port: 1 }));
    await c.write(insert(entry));
    const duplicate = await writeError(c.write(insert(entry)));
    expect(duplicate.failures.map((f) => [f.index, f.codeName])).toEqual([[0, 'ALREADY_EXISTS']]);
    expect(duplicate.message).toMatch(/^Write failed for 1 of 1 update: #0 INSERT table entry l2_exact: ALREADY_EXISTS: table MyIngress\.l2_exact \(id \d+\) already has an entry with that match/);
    const timed = await writeError(c.write(insert(table('l2_exact', { dst_addr: 2 }, action('forward', { port: 1 }), { idleTimeoutNs: 1_000 }))));
    expect(timed.message).toMatch(/INVALID_ARGUMENT: .*MyIngress\.l2_exact.*does not support idle timeouts/);
    await c.write(del(entry));
  });

  it('stops on SIGTERM with exit code 0', async () => {
    await client!.close();
    started!.child.kill('SIGTERM');
    const result = await started!.exited;
    expect(result).toMatchObject({ code: 0, signal: null });
  }, WAIT_MS * 2);
});
