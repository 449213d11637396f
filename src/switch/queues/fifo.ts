/**
 * A first-in first-out ring of items with each one's arrival time and size.
 * The ring grows by doubling when full and never shrinks, so its memory is
 * bounded by the most items it ever held at once (which the queue's
 * capacity bounds), and a steady queue allocates nothing per item.
 */
export class Fifo<T> {
  private items: (T | undefined)[] = new Array<T | undefined>(8).fill(undefined);
  private arrivals = new Float64Array(8);
  private sizes = new Float64Array(8);
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(item: T, arrival: number, bytes: number): void {
    if (this.count === this.items.length) this.grow();
    const at = (this.head + this.count) % this.items.length;
    this.items[at] = item;
    this.arrivals[at] = arrival;
    this.sizes[at] = bytes;
    this.count++;
  }

  /** The oldest item's arrival time; only when size > 0. */
  headArrival(): number {
    return this.arrivals[this.head]!;
  }

  /** The oldest item's size in bytes; only when size > 0. */
  headBytes(): number {
    return this.sizes[this.head]!;
  }

  /** Removes and returns the oldest item; only when size > 0. */
  shift(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined; // the ring must not keep a departed packet alive
    this.head = (this.head + 1) % this.items.length;
    this.count--;
    return item;
  }

  /** Empties the ring; returns how many items it held. */
  clear(): number {
    const n = this.count;
    this.items.fill(undefined);
    this.head = 0;
    this.count = 0;
    return n;
  }

  private grow(): void {
    const length = this.items.length;
    const items = new Array<T | undefined>(length * 2).fill(undefined);
    const arrivals = new Float64Array(length * 2);
    const sizes = new Float64Array(length * 2);
    for (let i = 0; i < this.count; i++) {
      const from = (this.head + i) % length;
      items[i] = this.items[from];
      arrivals[i] = this.arrivals[from]!;
      sizes[i] = this.sizes[from]!;
    }
    this.items = items;
    this.arrivals = arrivals;
    this.sizes = sizes;
    this.head = 0;
  }
}
