// A fabric's owner stopped by a signal leaves no switch process behind:
// an owner that wires SIGINT to the fabric's abort signal (as a command
// does) closes it and exits 130 with every switch already gone; an owner
// that does not handle SIGINT dies at once, and each switch ends by itself
// when its lifeline to the owner breaks (src/run/lifeline.ts). The owner is
// a node process running the built fabric (dist/), with three switch
// processes of the built CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { builtCliEntry, packageRoot } from '../../src/run/package-paths.js';
import { isAlive, waitAllGone } from '../demo/helpers.js';

const FABRIC = path.join(packageRoot(), 'dist', 'src', 'fabric', 'index.js');
const BUILT = existsSync(FABRIC) && existsSync(builtCliEntry());
const START_MS = 120_000;

/** Starts leafspine,racks=2,hosts=1,spines=1 (all legacy), prints the switches' pids, then waits. */
const OWNER = `
const { LoopbackFabric, parseTopoShorthand, shorthandTopology } = await import(${JSON.stringify(pathToFileURL(FABRIC).href)});
const abort = new AbortController();
if (process.env.OWNER_HANDLES_SIGINT === '1') process.once('SIGINT', () => abort.abort());
const fabric = await LoopbackFabric.start(shorthandTopology(parseTopoShorthand('leafspine,racks=2,hosts=1,spines=1'), { inaRacks: [] }), { signal: abort.signal });
abort.signal.addEventListener('abort', () => void fabric.close().then(() => process.exit(130)));
process.stdout.write(JSON.stringify({ pids: fabric.switches().map((s) => s.pid) }) + '\\n');
setInterval(() => {}, 1 << 30);
`;

interface Owner {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly pids: number[];
}

async function startOwner(handlesSigint: boolean): Promise<Owner> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', OWNER], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OWNER_HANDLES_SIGINT: handlesSigint ? '1' : '0' } });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let timer: NodeJS.Timeout | undefined;
  const line = await Promise.race([
    new Promise<string>((resolve) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
    }),
    exited.then(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), START_MS))),
  ]);
  clearTimeout(timer);
  if (line === undefined) {
    child.kill('SIGTERM');
    throw new Error(`the owner did not start its fabric:\n${stderr}`);
  }
  return { child, exited, pids: (JSON.parse(line) as { pids: number[] }).pids };
}

/** After a failed assertion: whatever is left, ended. */
async function cleanUp(owner: Owner | undefined): Promise<void> {
  if (!owner) return;
  if (owner.child.exitCode === null && owner.child.signalCode === null) owner.child.kill('SIGKILL');
  for (const pid of await waitAllGone(owner.pids, 10_000)) process.kill(pid, 'SIGKILL');
}

describe.skipIf(!BUILT)('SIGINT to the owner of a process fabric', () => {
  test('an owner that wires SIGINT to the fabric: exit 130, and its three switches are gone before it exits', async () => {
    let owner: Owner | undefined;
    try {
      owner = await startOwner(true);
      expect(owner.pids).toHaveLength(3);
      expect(owner.pids.every(isAlive)).toBe(true);
      owner.child.kill('SIGINT');
      expect(await owner.exited).toEqual({ code: 130, signal: null });
      expect(owner.pids.filter(isAlive)).toEqual([]);
    } finally {
      await cleanUp(owner);
    }
  }, 180_000);

  test('an owner that does not handle SIGINT dies of it, and its switches end by themselves (lifeline)', async () => {
    let owner: Owner | undefined;
    try {
      owner = await startOwner(false);
      expect(owner.pids.every(isAlive)).toBe(true);
      owner.child.kill('SIGINT');
      expect(await owner.exited).toEqual({ code: null, signal: 'SIGINT' });
      // Nothing to wait on but the processes themselves: polled, bounded by the lifeline's own grace (5 s) and more.
      expect(await waitAllGone(owner.pids, 15_000)).toEqual([]);
    } finally {
      await cleanUp(owner);
    }
  }, 180_000);
});
