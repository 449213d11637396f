/**
 * The layout in which the batched UDP addon hands over received datagrams:
 * one Buffer per batch holding `count` little-endian uint32 lengths, then
 * the datagrams back to back, and their senders (see native-udp-batch.ts).
 * Each datagram is a view into the batch (so one kept alive keeps its batch
 * alive).
 */
import type { NativeSource } from './native-udp-batch.js';

/**
 * Calls `each` with every datagram of a batch and its sender, in order,
 * without copying. Returns false (after delivering the datagrams that fit)
 * if the layout is inconsistent, which only a broken addon produces.
 */
export function forEachDatagram(
  batch: Buffer,
  count: number,
  sources: readonly NativeSource[],
  origins: Buffer | null,
  each: (datagram: Buffer, source: NativeSource) => void,
): boolean {
  const headerBytes = 4 * count;
  if (!Number.isInteger(count) || count < 0 || headerBytes > batch.length) return false;
  if (origins !== null && origins.length !== 2 * count) return false;
  const single = sources[0];
  if (count > 0 && single === undefined) return false;
  let offset = headerBytes;
  for (let i = 0; i < count; i++) {
    const length = batch.readUInt32LE(4 * i);
    const end = offset + length;
    const source = origins === null ? single : sources[origins.readUInt16LE(2 * i)];
    if (end > batch.length || source === undefined) return false;
    each(batch.subarray(offset, end), source);
    offset = end;
  }
  return offset === batch.length;
}
