/**
 * The layout in which the addon hands over received frames: one Buffer per
 * batch holding `count` little-endian uint32 lengths, then the frames back
 * to back. One allocation per batch instead of one per frame; each frame is
 * a view into the batch (so a frame kept alive keeps its batch alive).
 */

/**
 * Calls `each` with every frame of a batch, in order, without copying.
 * Returns false (after delivering the frames that fit) if the layout is
 * inconsistent, which only a broken addon produces.
 */
export function forEachFrame(batch: Buffer, count: number, each: (frame: Buffer) => void): boolean {
  const headerBytes = 4 * count;
  if (!Number.isInteger(count) || count < 0 || headerBytes > batch.length) return false;
  let offset = headerBytes;
  for (let i = 0; i < count; i++) {
    const length = batch.readUInt32LE(4 * i);
    const end = offset + length;
    if (end > batch.length) return false;
    each(batch.subarray(offset, end));
    offset = end;
  }
  return offset === batch.length;
}
