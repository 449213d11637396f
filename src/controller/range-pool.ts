/**
 * A pool of consecutive integer ids (slots, multicast group ids) handed out
 * as contiguous spans, first fit, and given back span by span. Finding a
 * place never changes the pool, so a caller can check every pool a job needs
 * before taking anything: that is how the allocator never half-allocates.
 */

export interface Span {
  readonly start: number;
  readonly size: number;
}

export class RangePool {
  /** Taken spans, sorted by start, never overlapping. */
  private readonly taken: Span[] = [];

  constructor(
    readonly first: number,
    readonly last: number,
  ) {
    if (!Number.isInteger(first) || !Number.isInteger(last) || last < first) throw new RangeError(`a pool needs integers first ≤ last, not ${first}..${last}`);
  }

  get capacity(): number {
    return this.last - this.first + 1;
  }

  get used(): number {
    return this.taken.reduce((sum, s) => sum + s.size, 0);
  }

  get free(): number {
    return this.capacity - this.used;
  }

  /** The free gaps, in order. */
  private gaps(): Span[] {
    const gaps: Span[] = [];
    let next = this.first;
    for (const s of this.taken) {
      if (s.start > next) gaps.push({ start: next, size: s.start - next });
      next = s.start + s.size;
    }
    if (next <= this.last) gaps.push({ start: next, size: this.last + 1 - next });
    return gaps;
  }

  /** The longest run of free ids. */
  get largestFree(): number {
    return this.gaps().reduce((best, g) => Math.max(best, g.size), 0);
  }

  /** Where `size` ids would go (the lowest start that fits), without taking them; `avoid` spans count as taken too. */
  findFirstFit(size: number, avoid: readonly Span[] = []): number | undefined {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`a span size must be a positive integer, not ${size}`);
    for (const g of this.gaps()) {
      let start = g.start;
      // Each clash moves start past the clashing span, so the loop ends.
      while (start + size <= g.start + g.size) {
        const clash = avoid.find((a) => start < a.start + a.size && a.start < start + size);
        if (!clash) return start;
        start = clash.start + clash.size;
      }
    }
    return undefined;
  }

  /** The taken span that overlaps [start, start+size), if any. */
  overlapping(start: number, size: number): Span | undefined {
    return this.taken.find((s) => start < s.start + s.size && s.start < start + size);
  }

  contains(start: number, size: number): boolean {
    return start >= this.first && start + size - 1 <= this.last;
  }

  /** Takes a span that is free (a misuse otherwise: RangeError). */
  take(start: number, size: number): void {
    if (!this.contains(start, size) || size < 1) throw new RangeError(`span ${start}+${size} is outside ${this.first}..${this.last}`);
    const clash = this.overlapping(start, size);
    if (clash) throw new RangeError(`span ${start}+${size} overlaps the taken span ${clash.start}+${clash.size}`);
    const at = this.taken.findIndex((s) => s.start > start);
    this.taken.splice(at < 0 ? this.taken.length : at, 0, { start, size });
  }

  /** Gives back exactly a span that was taken (a misuse otherwise: RangeError). */
  release(start: number, size: number): void {
    const at = this.taken.findIndex((s) => s.start === start && s.size === size);
    if (at < 0) throw new RangeError(`span ${start}+${size} was not taken`);
    this.taken.splice(at, 1);
  }

  spans(): readonly Span[] {
    return this.taken.map((s) => ({ ...s }));
  }
}
