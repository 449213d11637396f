/**
 * Slots whose value is always written before it is read: the `in` and
 * `inout` parameters of nested parsers and controls. Applying such a block
 * copies its arguments in (or binds them by reference) before its body runs,
 * so whatever the slot held between applications is never observed. The
 * per-packet reset and the replica copy skip them: with a `headers_t`
 * passed to two sub-controls, they would otherwise reset and copy the same
 * header stacks three times per packet for nothing.
 */
import type { IrProgram } from '../../p4c/ir/types.js';

export function entryWrittenSlots(program: IrProgram): ReadonlySet<number> {
  const written = new Set<number>();
  for (const block of program.blocks) {
    for (const p of block.params) {
      if (p.slot < 0 || (p.direction !== 'in' && p.direction !== 'inout')) continue;
      // The V1Switch slots (headers, metadata, standard_metadata) carry state from block to block.
      if (program.slots[p.slot]?.role === 'block-parameter') written.add(p.slot);
    }
  }
  return written;
}
