/**
 * Table-driven CRCs with BMv2's exact procedure (bm_sim/calculations.cpp):
 * a most-significant-bit-first table over the polynomial; each input byte
 * bit-reversed first when the data is reflected; the final remainder
 * bit-reversed when the remainder is reflected, then XOR-ed with xorOut.
 * Widths 8, 16 and 32, computed in 32-bit integer arithmetic.
 */

export interface CrcParameters {
  readonly width: 8 | 16 | 32;
  readonly polynomial: number;
  readonly init: number;
  readonly xorOut: number;
  readonly reflectData: boolean;
  readonly reflectRemainder: boolean;
}

/** BMv2's crc16 (and crc16_custom's default): CRC-16/ARC, check value 0xBB3D. */
export const CRC16_BMV2: CrcParameters = { width: 16, polynomial: 0x8005, init: 0, xorOut: 0, reflectData: true, reflectRemainder: true };

/** BMv2's crc32 (and crc32_custom's default): the IEEE 802.3 CRC-32, check value 0xCBF43926. */
export const CRC32_BMV2: CrcParameters = {
  width: 32,
  polynomial: 0x04c11db7,
  init: 0xffffffff,
  xorOut: 0xffffffff,
  reflectData: true,
  reflectRemainder: true,
};

/** Reverses the low `bits` bits of x. */
function reflect(x: number, bits: number): number {
  let r = 0;
  for (let i = 0; i < bits; i++) {
    r = (r << 1) | ((x >>> i) & 1);
  }
  return r >>> 0;
}

const REFLECTED_BYTE = Uint8Array.from({ length: 256 }, (_, i) => reflect(i, 8));

function mask(width: number): number {
  return width === 32 ? 0xffffffff : (1 << width) - 1;
}

function checkParameters(p: CrcParameters): void {
  if (p.width !== 8 && p.width !== 16 && p.width !== 32) throw new RangeError(`CRC width must be 8, 16 or 32, not ${String(p.width)}`);
  const m = mask(p.width);
  for (const [name, value] of [['polynomial', p.polynomial], ['init', p.init], ['xorOut', p.xorOut]] as const) {
    if (!Number.isInteger(value) || value < 0 || value > m) throw new RangeError(`CRC ${name} ${value} does not fit ${p.width} bits`);
  }
}

export class CrcEngine {
  private params: CrcParameters;
  private table: Uint32Array;

  constructor(params: CrcParameters) {
    checkParameters(params);
    this.params = params;
    this.table = CrcEngine.buildTable(params);
  }

  get parameters(): CrcParameters {
    return this.params;
  }

  /** Replaces the parameters (BMv2 lets crc16_custom/crc32_custom be reconfigured at run time). */
  configure(params: CrcParameters): void {
    checkParameters(params);
    this.table = CrcEngine.buildTable(params);
    this.params = params;
  }

  /** The CRC of data[0, length). */
  compute(data: Uint8Array, length: number = data.length): number {
    const { width, init, xorOut, reflectData, reflectRemainder } = this.params;
    const table = this.table;
    const top = width - 8;
    const m = mask(width);
    let remainder = init;
    for (let i = 0; i < length; i++) {
      const byte = reflectData ? REFLECTED_BYTE[data[i]!]! : data[i]!;
      remainder = (table[(byte ^ (remainder >>> top)) & 0xff]! ^ (remainder << 8)) & m;
    }
    const out = reflectRemainder ? reflect(remainder, width) : remainder >>> 0;
    return (out ^ xorOut) >>> 0;
  }

  private static buildTable(p: CrcParameters): Uint32Array {
    const table = new Uint32Array(256);
    const topBit = p.width === 32 ? 0x80000000 : 1 << (p.width - 1);
    const m = mask(p.width);
    for (let dividend = 0; dividend < 256; dividend++) {
      let remainder = (dividend << (p.width - 8)) >>> 0;
      for (let bit = 0; bit < 8; bit++) {
        remainder = (remainder & topBit ? (remainder << 1) ^ p.polynomial : remainder << 1) & m;
      }
      table[dividend] = remainder >>> 0;
    }
    return table;
  }
}
