/**
 * The AF_PACKET addon's received frames: a length-prefixed batch
 * (src/native/length-prefixed-batch.ts).
 */
import { forEachInBatch } from '../../../native/length-prefixed-batch.js';

/**
 * Calls `each` with every frame of a batch, in order, without copying.
 * Returns false (after delivering the frames that fit) if the layout is
 * inconsistent, which only a broken addon produces.
 */
export function forEachFrame(batch: Buffer, count: number, each: (frame: Buffer) => void): boolean {
  return forEachInBatch(batch, count, (frame) => {
    each(frame);
    return true;
  });
}
