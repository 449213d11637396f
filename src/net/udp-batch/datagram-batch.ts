/**
 * The batched UDP addon's received datagrams: a length-prefixed batch
 * (src/native/length-prefixed-batch.ts) and their senders (see
 * native-udp-batch.ts).
 */
import { forEachInBatch } from '../../native/length-prefixed-batch.js';
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
  if (origins !== null && origins.length !== 2 * count) return false;
  const single = sources[0];
  if (count > 0 && single === undefined) return false;
  return forEachInBatch(batch, count, (datagram, i) => {
    const source = origins === null ? single : sources[origins.readUInt16LE(2 * i)];
    if (source === undefined) return false;
    each(datagram, source);
    return true;
  });
}
