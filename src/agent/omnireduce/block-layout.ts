/**
 * How a tensor is cut for OmniReduce: blocks of `blockSize` elements (the
 * last one padded with zeros), block b at element offset tsi = b · blockSize,
 * and block b in slot b mod slotCount, as the RDMA code assigns messages to
 * slots. Each slot is then a stream of blocks with stride slotCount, which
 * the workers and the aggregator walk in order.
 */
import { NEXT_TSI_NONE } from '../../wire/omnireduce.js';
import { OMNIREDUCE_ERROR_CODES, OmniReduceError } from './omnireduce-error.js';

export class BlockLayout {
  readonly blockCount: number;
  /** Slots that hold at least one block (min(slotCount, blockCount)). */
  readonly activeSlots: number;

  constructor(
    readonly length: number,
    readonly blockSize: number,
    readonly slotCount: number,
  ) {
    if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > 0xffff) throw new RangeError(`blockSize must be in 1..65535, not ${blockSize}`);
    if (!Number.isInteger(slotCount) || slotCount < 1) throw new RangeError(`slotCount must be a positive integer, not ${slotCount}`);
    this.blockCount = Math.ceil(length / blockSize);
    // The last block's tsi must stay below NEXT_TSI_NONE, which means "no block".
    if (this.blockCount > 0 && (this.blockCount - 1) * blockSize >= NEXT_TSI_NONE) {
      throw new OmniReduceError(OMNIREDUCE_ERROR_CODES.tensorTooLong, `a tensor of ${length} elements has block offsets beyond the 32-bit tsi field; split it into calls below 2^32 elements`);
    }
    this.activeSlots = Math.min(slotCount, this.blockCount);
  }

  tsiOf(block: number): number {
    return block * this.blockSize;
  }

  blockOf(tsi: number): number {
    return tsi / this.blockSize;
  }

  /** True when `tsi` names a block of `slot`'s stream. */
  inStream(slot: number, tsi: number): boolean {
    if (tsi % this.blockSize !== 0) return false;
    const block = tsi / this.blockSize;
    return block < this.blockCount && block % this.slotCount === slot;
  }

  /** Elements of `block` that lie inside the tensor (the rest is padding). */
  elementsIn(block: number): number {
    return Math.max(0, Math.min(this.blockSize, this.length - block * this.blockSize));
  }
}

/**
 * One worker's view of its tensor: which blocks it must send (non-zero under
 * the threshold; the first block of every slot always) and each block's
 * exponent, so that it can name its next block and that block's exponent
 * one block ahead.
 */
export class WorkerBlocks {
  private readonly sent: Uint8Array;

  constructor(
    readonly layout: BlockLayout,
    readonly data: Float32Array,
    /** Per block, the SwitchML chunk exponent (−127 for an all-zero block). */
    readonly exponents: Int8Array,
    /** A block whose every |x| ≤ threshold is skipped; 0 skips only exact-zero blocks. */
    threshold: number,
  ) {
    this.sent = new Uint8Array(layout.blockCount);
    for (let b = 0; b < layout.blockCount; b++) {
      const from = b * layout.blockSize;
      const end = from + layout.elementsIn(b);
      let nonZero = b < layout.slotCount;
      for (let i = from; !nonZero && i < end; i++) if (Math.abs(data[i]!) > threshold) nonZero = true;
      this.sent[b] = nonZero ? 1 : 0;
    }
  }

  /** True when this worker sends block b's values. */
  sends(block: number): boolean {
    return this.sent[block] === 1;
  }

  /** The tsi of the first block after `tsi` in its slot's stream that this worker sends, or NEXT_TSI_NONE. */
  nextAfter(tsi: number): number {
    const { layout } = this;
    for (let b = layout.blockOf(tsi) + layout.slotCount; b < layout.blockCount; b += layout.slotCount) {
      if (this.sent[b] === 1) return layout.tsiOf(b);
    }
    return NEXT_TSI_NONE;
  }

  /** The exponent of the block at `tsi`, or the lowest one when there is none. */
  exponentAt(tsi: number): number {
    return tsi === NEXT_TSI_NONE ? -127 : this.exponents[this.layout.blockOf(tsi)]!;
  }
}
