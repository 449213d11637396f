/**
 * The lookup of a table whose only key is LPM: one Map per prefix length,
 * keyed by the masked value, probed from the longest prefix down. A
 * lookup costs at most (width + 1) Map probes whatever the number of entries.
 */
import { toBigInt } from './bits.js';
import type { Bits } from './values.js';

export class LpmIndex<T> {
  private readonly byLength = new Map<number, Map<Bits, T>>();
  private lengths: number[] = [];
  private masks: Bits[] = [];
  /** byLength's maps in `lengths` order (longest first), for the lookup loop. */
  private maps: Map<Bits, T>[] = [];

  constructor(private readonly width: number) {}

  /** The mask of each prefix length, made once. */
  private readonly masksByLength: Bits[] = [];

  private maskOf(prefixLength: number): Bits {
    const known = this.masksByLength[prefixLength];
    if (known !== undefined) return known;
    const w = this.width;
    const big = ((1n << BigInt(prefixLength)) - 1n) << BigInt(w - prefixLength);
    return (this.masksByLength[prefixLength] = w > 32 ? big : Number(big));
  }

  /** Adds an entry for value/prefixLength (the first one added for a prefix wins). */
  add(value: Bits, prefixLength: number, item: T): void {
    let map = this.byLength.get(prefixLength);
    if (!map) {
      map = new Map();
      this.byLength.set(prefixLength, map);
      this.lengths = [...this.byLength.keys()].sort((a, b) => b - a);
      this.masks = this.lengths.map((l) => this.maskOf(l));
      this.maps = this.lengths.map((l) => this.byLength.get(l)!);
    }
    const key = this.mask(value, this.maskOf(prefixLength));
    if (!map.has(key)) map.set(key, item);
  }

  /** Removes the entry for value/prefixLength if `isIt` says it is the one meant (a later add of the same prefix may have lost to another). */
  remove(value: Bits, prefixLength: number, isIt: (item: T) => boolean): void {
    const map = this.byLength.get(prefixLength);
    if (!map) return;
    const key = this.mask(value, this.maskOf(prefixLength));
    const item = map.get(key);
    if (item === undefined || !isIt(item)) return;
    map.delete(key);
    if (map.size > 0) return;
    this.byLength.delete(prefixLength);
    this.lengths = this.lengths.filter((l) => l !== prefixLength);
    this.masks = this.lengths.map((l) => this.maskOf(l));
    this.maps = this.lengths.map((l) => this.byLength.get(l)!);
  }

  lookup(value: Bits): T | undefined {
    const maps = this.maps;
    const masks = this.masks;
    if (typeof value === 'number') {
      for (let i = 0; i < maps.length; i++) {
        const hit = maps[i]!.get((value & (masks[i] as number)) >>> 0);
        if (hit !== undefined) return hit;
      }
      return undefined;
    }
    for (let i = 0; i < maps.length; i++) {
      const hit = maps[i]!.get(this.mask(value, masks[i]!));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  private mask(value: Bits, mask: Bits): Bits {
    if (typeof value === 'number') return (value & (mask as number)) >>> 0;
    return toBigInt(value) & toBigInt(mask);
  }
}
