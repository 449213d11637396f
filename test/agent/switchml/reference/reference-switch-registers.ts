/**
 * The register state of the reference SwitchML switch, laid out as
 * `p4/switchml.p4` keeps it: per register index (job base + slot) and per set
 * (the two copies of a slot), the seen bitmap, the countdown of contributions
 * still missing, the (tsi, epoch) of the copy's current round, the maximum
 * exponent, and `elementsPerPacket` int32 values. Index of a copy ("cell"):
 * 2 · (base + slot) + set. Everything starts at zero, as registers do when a
 * program is loaded.
 */
export interface SlotCopyState {
  /** The seen bitmap (the P4 register `seen`). */
  readonly bitmap: number;
  /** Contributions still missing; 0 means "complete, or never used". */
  readonly remaining: number;
  readonly roundTsi: number;
  readonly roundEpoch: number;
  readonly exponent: number;
  readonly values: Int32Array;
}

export class SwitchMlRegisters {
  readonly bitmap: Uint32Array;
  readonly remaining: Uint8Array;
  readonly roundTsi: Uint32Array;
  readonly roundEpoch: Uint8Array;
  readonly exponent: Int8Array;
  readonly values: Int32Array;

  constructor(
    readonly capacity: number,
    readonly elementsPerPacket: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 0x8000) throw new RangeError(`capacity must be an integer in 1..32768 slots, not ${capacity}`);
    if (!Number.isInteger(elementsPerPacket) || elementsPerPacket < 1 || elementsPerPacket > 0xffff) {
      throw new RangeError(`elementsPerPacket must be an integer in 1..65535, not ${elementsPerPacket}`);
    }
    this.bitmap = new Uint32Array(2 * capacity);
    this.remaining = new Uint8Array(2 * capacity);
    this.roundTsi = new Uint32Array(2 * capacity);
    this.roundEpoch = new Uint8Array(2 * capacity);
    this.exponent = new Int8Array(2 * capacity);
    this.values = new Int32Array(2 * capacity * elementsPerPacket);
  }

  /** The values of copy `copy` (a view, not a copy). */
  valuesOf(copy: number): Int32Array {
    const e = this.elementsPerPacket;
    return this.values.subarray(copy * e, (copy + 1) * e);
  }

  /** A snapshot of one copy, for tests and for comparing with a P4 switch's registers. */
  read(copy: number): SlotCopyState {
    return {
      bitmap: this.bitmap[copy]!,
      remaining: this.remaining[copy]!,
      roundTsi: this.roundTsi[copy]!,
      roundEpoch: this.roundEpoch[copy]!,
      exponent: this.exponent[copy]!,
      values: this.valuesOf(copy).slice(),
    };
  }

  /** Zeroes register indices base .. base + size − 1, both copies (the controller's reset). */
  clear(base: number, size: number): void {
    const from = 2 * base;
    const to = 2 * (base + size);
    this.bitmap.fill(0, from, to);
    this.remaining.fill(0, from, to);
    this.roundTsi.fill(0, from, to);
    this.roundEpoch.fill(0, from, to);
    this.exponent.fill(0, from, to);
    this.values.fill(0, from * this.elementsPerPacket, to * this.elementsPerPacket);
  }
}
