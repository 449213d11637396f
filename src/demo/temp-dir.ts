/**
 * The demo's temp directory (the compiled program for the switch and the
 * controller): `p4ina-demo-PID-XXXXXX` in the system temp dir, PID being the
 * demo's. The demo removes it itself, as soon as the switch is programmed and
 * again on the way out; only a demo killed outright (kill -9) before that
 * leaves one behind, and the next demo removes every such directory whose
 * demo is no longer running.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'p4ina-demo-';
const OURS = /^p4ina-demo-(\d+)-[A-Za-z0-9]{6}$/;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: someone else's process, alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temp dirs of demos that are no longer running; best effort (another user's are left alone). */
export function removeStaleDemoTempDirs(dir = os.tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(OURS.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || pid === process.pid || running(pid)) continue;
    try {
      rmSync(path.join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Not ours to remove (another user's, in a sticky temp dir).
    }
  }
  return removed;
}

/** A new temp dir for this demo, after removing those that killed demos left. */
export function makeDemoTempDir(dir = os.tmpdir()): string {
  removeStaleDemoTempDirs(dir);
  return mkdtempSync(path.join(dir, `${PREFIX}${process.pid}-`));
}
