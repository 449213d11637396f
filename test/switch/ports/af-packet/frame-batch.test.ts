import { describe, expect, it } from 'vitest';
import { forEachFrame } from '../../../../src/switch/ports/af-packet/frame-batch.js';
import { encodeBatch } from './fake-addon.js';

function split(batch: Buffer, count: number): { ok: boolean; frames: string[] } {
  const frames: string[] = [];
  const ok = forEachFrame(batch, count, (frame) => frames.push(frame.toString('hex')));
  return { ok, frames };
}

describe('forEachFrame', () => {
  it('splits a batch into its frames, in order, without copying', () => {
    const frames = [Buffer.from('aabb', 'hex'), Buffer.alloc(0), Buffer.from('010203', 'hex')];
    const batch = encodeBatch(frames);
    const views: Buffer[] = [];
    expect(forEachFrame(batch, 3, (frame) => views.push(frame))).toBe(true);
    expect(views.map((v) => v.toString('hex'))).toEqual(['aabb', '', '010203']);
    expect(views[2]!.buffer).toBe(batch.buffer);
  });

  it('reads the lengths as little-endian uint32', () => {
    const batch = Buffer.from([0x02, 0x01, 0, 0, ...new Array<number>(0x102).fill(7)]);
    expect(split(batch, 1)).toEqual({ ok: true, frames: ['07'.repeat(0x102)] });
  });

  it('accepts an empty batch', () => {
    expect(split(Buffer.alloc(0), 0)).toEqual({ ok: true, frames: [] });
  });

  it('stops at a frame that runs past the end and reports the batch as malformed', () => {
    const batch = encodeBatch([Buffer.from('aa', 'hex'), Buffer.from('bbcc', 'hex')]);
    expect(split(batch.subarray(0, batch.length - 1), 2)).toEqual({ ok: false, frames: ['aa'] });
  });

  it('reports a header longer than the batch, bytes left over, or a bad count', () => {
    expect(split(Buffer.alloc(7), 2)).toEqual({ ok: false, frames: [] });
    expect(split(Buffer.concat([encodeBatch([Buffer.from('aa', 'hex')]), Buffer.from([0])]), 1)).toEqual({ ok: false, frames: ['aa'] });
    expect(split(Buffer.alloc(8), -1)).toEqual({ ok: false, frames: [] });
    expect(split(Buffer.alloc(8), 1.5)).toEqual({ ok: false, frames: [] });
  });
});
