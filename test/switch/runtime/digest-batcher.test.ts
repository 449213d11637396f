// Digest lists: batching by size and timeout, list ids, duplicate suppression until
// ack or ack timeout, and the bounds that keep memory finite. Timers are simulated.
import { describe, expect, it } from 'vitest';
import { type DigestConfig, DigestBatcher, type DigestListReady, type Scheduler } from '../../../src/switch/runtime/digest-batcher.js';

/** A scheduler whose clock moves only when the test says so. */
class ManualScheduler implements Scheduler {
  now = 0;
  private tasks: { at: number; run: () => void; live: boolean }[] = [];

  schedule(delayMs: number, run: () => void): () => void {
    const task = { at: this.now + delayMs, run, live: true };
    this.tasks.push(task);
    return () => {
      task.live = false;
    };
  }

  advance(ms: number): void {
    this.now += ms;
    const due = this.tasks.filter((t) => t.live && t.at <= this.now).sort((a, b) => a.at - b.at);
    this.tasks = this.tasks.filter((t) => t.live && t.at > this.now);
    for (const task of due) task.run();
  }
}

const bits = (n: number): { bitstring: Buffer } => ({ bitstring: Buffer.from([n]) });
const values = (list: DigestListReady): number[] => list.data.map((d) => (d.bitstring as Buffer)[0]!);

function setup(config: DigestConfig | undefined, options: { primary?: boolean; maxEntriesPerList?: number; maxOutstandingLists?: number } = {}) {
  const scheduler = new ManualScheduler();
  const sent: DigestListReady[] = [];
  const configs = new Map<number, DigestConfig>(config ? [[7, config]] : []);
  const batcher = new DigestBatcher({
    configOf: (id) => configs.get(id),
    deliver: (list) => {
      sent.push(list);
      return options.primary ?? true;
    },
    scheduler,
    clockNs: () => 1_000n + BigInt(scheduler.now) * 1_000_000n,
    ...(options.maxEntriesPerList ? { maxEntriesPerList: options.maxEntriesPerList } : {}),
    ...(options.maxOutstandingLists ? { maxOutstandingLists: options.maxOutstandingLists } : {}),
  });
  return { batcher, scheduler, sent, configs };
}

const ms = (n: number): bigint => BigInt(n) * 1_000_000n;

describe('DigestBatcher', () => {
  it('sends a list as soon as it holds max_list_size digests', () => {
    const { batcher, sent } = setup({ maxListSize: 3, maxTimeoutNs: ms(1000), ackTimeoutNs: ms(1000) });
    expect([batcher.emit(7, bits(1)), batcher.emit(7, bits(2)), batcher.emit(7, bits(3))]).toEqual(['queued', 'queued', 'sent']);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.digestId).toBe(7);
    expect(values(sent[0]!)).toEqual([1, 2, 3]);
  });

  it('sends a partial list when its oldest digest has waited max_timeout_ns', () => {
    const { batcher, scheduler, sent } = setup({ maxListSize: 100, maxTimeoutNs: ms(50), ackTimeoutNs: ms(1000) });
    batcher.emit(7, bits(1));
    scheduler.advance(30);
    batcher.emit(7, bits(2));
    expect(sent).toHaveLength(0);
    scheduler.advance(20);
    expect(sent.map(values)).toEqual([[1, 2]]);
    expect(sent[0]!.timestampNs).toBe(1_000n + ms(50));
  });

  it('sends each digest at once when max_timeout_ns is 0, with increasing list ids', () => {
    const { batcher, sent } = setup({ maxListSize: 0, maxTimeoutNs: 0n, ackTimeoutNs: 0n });
    batcher.emit(7, bits(1));
    batcher.emit(7, bits(2));
    expect(sent.map(values)).toEqual([[1], [2]]);
    expect(sent[1]!.listId).toBe(sent[0]!.listId + 1n);
  });

  it('drops data of a digest without a config (disabled)', () => {
    const { batcher, sent } = setup(undefined);
    expect(batcher.emit(7, bits(1))).toBe('disabled');
    expect(sent).toHaveLength(0);
  });

  it('suppresses the same data while it is pending or unacked, and reports it again after the ack', () => {
    const { batcher, sent } = setup({ maxListSize: 2, maxTimeoutNs: ms(1000), ackTimeoutNs: ms(1000) });
    batcher.emit(7, bits(1));
    expect(batcher.emit(7, bits(1))).toBe('duplicate');
    batcher.emit(7, bits(2));
    expect(sent).toHaveLength(1);
    expect(batcher.emit(7, bits(1))).toBe('duplicate');
    expect(batcher.ack(7, sent[0]!.listId)).toBe(true);
    expect(batcher.ack(7, sent[0]!.listId)).toBe(false);
    expect(batcher.emit(7, bits(1))).toBe('queued');
  });

  it('reports data again once ack_timeout_ns passes without an ack', () => {
    const { batcher, scheduler } = setup({ maxListSize: 1, maxTimeoutNs: ms(10), ackTimeoutNs: ms(200) });
    expect(batcher.emit(7, bits(1))).toBe('sent');
    scheduler.advance(199);
    expect(batcher.emit(7, bits(1))).toBe('duplicate');
    scheduler.advance(1);
    expect(batcher.emit(7, bits(1))).toBe('sent');
  });

  it('does not suppress data that reached no controller', () => {
    const { batcher, sent } = setup({ maxListSize: 1, maxTimeoutNs: ms(10), ackTimeoutNs: ms(1000) }, { primary: false });
    batcher.emit(7, bits(1));
    expect(batcher.emit(7, bits(1))).toBe('sent');
    expect(sent).toHaveLength(2);
  });

  it('caps list length and the number of unacked lists', () => {
    const { batcher, sent } = setup({ maxListSize: 0, maxTimeoutNs: ms(1000), ackTimeoutNs: ms(1000) }, { maxEntriesPerList: 2, maxOutstandingLists: 1 });
    batcher.emit(7, bits(1));
    expect(batcher.emit(7, bits(2))).toBe('sent');
    expect(batcher.emit(7, bits(3))).toBe('overflow');
    batcher.ack(7, sent[0]!.listId);
    expect(batcher.emit(7, bits(3))).toBe('queued');
  });

  it('drops a gathering list when the digest is disabled before it is due', () => {
    const { batcher, scheduler, sent, configs } = setup({ maxListSize: 10, maxTimeoutNs: ms(10), ackTimeoutNs: ms(10) });
    batcher.emit(7, bits(1));
    configs.delete(7);
    scheduler.advance(10);
    expect(sent).toHaveLength(0);
  });

  it('forgets pending and unacked data on reset', () => {
    const { batcher, scheduler, sent } = setup({ maxListSize: 2, maxTimeoutNs: ms(10), ackTimeoutNs: ms(1000) });
    batcher.emit(7, bits(1));
    batcher.emit(7, bits(2));
    batcher.emit(7, bits(3));
    batcher.reset();
    scheduler.advance(100);
    expect(sent.map(values)).toEqual([[1, 2]]);
    expect(batcher.emit(7, bits(1))).toBe('queued');
  });
});
