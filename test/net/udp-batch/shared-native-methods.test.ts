/**
 * ref(), unref() and close() are one native function for both addons'
 * classes (native/common/polled_socket_methods.c). Each is checked by its
 * effect, in a child process: an open socket keeps the process alive, an
 * unref'd or closed one does not, and ref() undoes unref(). AF_PACKET needs
 * root (a veth pair in a test namespace); skipped otherwise.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, TestNamespace } from '../../switch/ports/af-packet/netns.js';

const build = fileURLToPath(new URL('../../../build/Release/', import.meta.url));
const isRoot = process.getuid?.() === 0;
/** Longer than any exit of a process with nothing left to do; shorter than the test's timeout. */
const ALIVE_MS = 1500;

/** The child opens a socket (`open`), runs `then` on it, and leaves the event loop to decide when it exits. */
function program(open: string, then: string): string {
  return `const s = ${open}; ${then}; console.log('ready');`;
}

async function staysAlive(run: (source: string) => ReturnType<typeof runCommand>, source: string): Promise<boolean> {
  const result = await run(source);
  expect(result.stdout).toContain('ready');
  return result.signal === 'SIGKILL';
}

describe('ref, unref and close on a UdpBatchSocket', () => {
  const run = (source: string) => runCommand(process.execPath, ['-e', source], { timeoutMs: ALIVE_MS });
  const open = `new (require(${JSON.stringify(build + 'udp_batch.node')}).UdpBatchSocket)(4, () => {}, () => {})`;

  it('keeps the process alive while open and referenced, not once unref’d or closed', { timeout: 20_000 }, async () => {
    expect(await staysAlive(run, program(open, "s.bind('127.0.0.1', 0)"))).toBe(true);
    expect(await staysAlive(run, program(open, "s.bind('127.0.0.1', 0); s.unref()"))).toBe(false);
    expect(await staysAlive(run, program(open, "s.bind('127.0.0.1', 0); s.unref(); s.ref()"))).toBe(true);
    expect(await staysAlive(run, program(open, "s.bind('127.0.0.1', 0); s.close(); s.close()"))).toBe(false);
  });
});

describe.skipIf(!isRoot)('ref, unref and close on an AfPacketSocket', () => {
  let ns: TestNamespace;
  beforeAll(async () => {
    ns = await TestNamespace.create();
    await ns.addVethPair('p4a', 'p4b');
  });
  afterAll(() => ns?.remove());
  const open = `new (require(${JSON.stringify(build + 'af_packet.node')}).AfPacketSocket)('p4a', () => {}, () => {})`;
  const run = (source: string) => ns.run(process.execPath, ['-e', source], { timeoutMs: ALIVE_MS });

  it('keeps the process alive while open and referenced, not once unref’d or closed', { timeout: 20_000 }, async () => {
    expect(await staysAlive(run, program(open, ''))).toBe(true);
    expect(await staysAlive(run, program(open, 's.unref()'))).toBe(false);
    expect(await staysAlive(run, program(open, 's.unref(); s.ref()'))).toBe(true);
    expect(await staysAlive(run, program(open, 's.close(); s.close()'))).toBe(false);
  });
});
