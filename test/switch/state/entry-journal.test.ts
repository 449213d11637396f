// The table's change journal (entry-journal.ts): what a reader at version V gets, and when it must rebuild.
import { describe, expect, it } from 'vitest';
import { EntryJournal } from '../../../src/switch/state/entry-journal.js';

describe('entry journal', () => {
  it('records nothing until first asked; then gives each reader the changes after its version', () => {
    const j = new EntryJournal<string>(10);
    j.record(1, undefined, 'a');
    j.record(2, 'a', 'b');
    // Nobody asked before: the changes up to version 2 were not kept.
    expect(j.since(0, 2)).toBeUndefined();
    expect(j.since(2, 2)).toEqual([]);
    j.record(3, undefined, 'c');
    j.record(4, 'c', undefined);
    expect(j.since(2, 4)).toEqual([
      { version: 3, removed: undefined, added: 'c' },
      { version: 4, removed: 'c', added: undefined },
    ]);
    expect(j.since(3, 4)).toEqual([{ version: 4, removed: 'c', added: undefined }]);
    expect(j.since(4, 4)).toEqual([]);
    // Versions with no entry change (a default entry, a counter) leave no record and no gap.
    j.record(7, undefined, 'd');
    expect(j.since(5, 7)).toEqual([{ version: 7, removed: undefined, added: 'd' }]);
  });

  it('starts over when full: a reader behind the start rebuilds, a reader after it catches up', () => {
    const j = new EntryJournal<number>(3);
    expect(j.since(0, 0)).toEqual([]);
    for (let v = 1; v <= 3; v++) j.record(v, undefined, v);
    expect(j.since(0, 3)?.map((c) => c.added)).toEqual([1, 2, 3]);
    j.record(4, undefined, 4); // full: starts over at 4
    j.record(5, undefined, 5);
    expect(j.since(2, 5)).toBeUndefined();
    expect(j.since(3, 5)?.map((c) => c.added)).toEqual([4, 5]);
  });
});
