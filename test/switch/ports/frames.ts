/** Small helpers shared by the port tests: recognisable Ethernet frames and a collector. */
import type { Port } from '../../../src/switch/ports/port.js';

/** A 60-byte Ethernet frame whose payload starts with `tag` (big-endian u32), easy to tell apart. */
export function frame(tag: number, length = 60): Buffer {
  const f = Buffer.alloc(length);
  Buffer.from('0200000000020200000000010800', 'hex').copy(f, 0);
  if (length >= 18) f.writeUInt32BE(tag >>> 0, 14);
  return f;
}

/** The tag a frame() carries. */
export function tagOf(f: Buffer): number {
  return f.readUInt32BE(14);
}

/** Collects every frame a port receives. */
export function collect(port: Port): Buffer[] {
  const got: Buffer[] = [];
  port.onFrame((f) => got.push(f));
  return got;
}

/** Waits until `done()` holds, polling every 2 ms, for at most `maxMs` (then throws). */
export async function waitFor(done: () => boolean | Promise<boolean>, maxMs = 5000): Promise<void> {
  const start = Date.now();
  while (!(await done())) {
    if (Date.now() - start > maxMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}
