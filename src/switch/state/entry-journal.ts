/**
 * The recent changes of a table's entries, for readers that keep something
 * derived from them (the pipeline's LPM index): a reader that last looked at
 * version V applies the changes made since instead of rebuilding from every
 * entry, which for a large table changed under traffic is the difference
 * between microseconds and a stall of the data plane per write. The journal
 * is bounded: when it is full it starts over, and a reader older than that
 * rebuilds. It records nothing until someone first asks (a table nobody
 * looks up, as during a bulk load before traffic, pays nothing).
 */

export interface EntryChange<R> {
  /** The store's version once this change was made. */
  readonly version: number;
  /** The entry the change took out (the old one of a MODIFY), if any. */
  readonly removed: R | undefined;
  /** The entry the change put in, if any. */
  readonly added: R | undefined;
}

export class EntryJournal<R> {
  private changes: EntryChange<R>[] = [];
  /** The oldest version a reader may have and still be brought up to date from the journal. */
  private base = 0;
  private recording = false;

  constructor(private readonly limit: number) {}

  /** Records a change made at `version` (the store's version after it). */
  record(version: number, removed: R | undefined, added: R | undefined): void {
    if (!this.recording) return;
    if (this.changes.length >= this.limit) {
      this.changes = [];
      this.base = version - 1;
    }
    this.changes.push({ version, removed, added });
  }

  /**
   * The changes after `version`, oldest first, the store being at `current`; undefined when the
   * journal does not reach back that far (the first time anyone asks, unless nothing changed since).
   */
  since(version: number, current: number): readonly EntryChange<R>[] | undefined {
    if (!this.recording) {
      this.recording = true;
      this.base = current;
    }
    if (version < this.base) return undefined;
    let i = this.changes.length;
    while (i > 0 && this.changes[i - 1]!.version > version) i--;
    return this.changes.slice(i);
  }
}
