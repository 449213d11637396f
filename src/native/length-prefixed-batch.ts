/**
 * The layout in which both addons hand a received batch to JavaScript: one
 * Buffer holding `count` little-endian uint32 lengths, then the items (frames
 * or datagrams) back to back. One allocation per batch instead of one per
 * item; each item is a view into the batch (so one kept alive keeps its batch
 * alive).
 */

/**
 * Calls `each` with every item and its index, in order, without copying;
 * `each` returns false to stop. Returns false (after the items delivered so
 * far) when `each` stopped or the layout is inconsistent, which only a broken
 * addon produces.
 */
export function forEachInBatch(batch: Buffer, count: number, each: (item: Buffer, index: number) => boolean): boolean {
  const headerBytes = 4 * count;
  if (!Number.isInteger(count) || count < 0 || headerBytes > batch.length) return false;
  let offset = headerBytes;
  for (let i = 0; i < count; i++) {
    const end = offset + batch.readUInt32LE(4 * i);
    if (end > batch.length || !each(batch.subarray(offset, end), i)) return false;
    offset = end;
  }
  return offset === batch.length;
}
