/**
 * Digest lists as the spec describes them (DigestEntry.Config): digests of one
 * extern are gathered into a list that is sent when it holds `max_list_size`
 * entries or its oldest entry has waited `max_timeout_ns`. Until the controller
 * acks a list (DigestListAck) or `ack_timeout_ns` passes, the same data is not
 * reported again. A digest without a config is disabled and its data dropped.
 *
 * Memory stays bounded: a list never exceeds `maxEntriesPerList` entries
 * (sent early if the config allows more), and a digest with
 * `maxOutstandingLists` unacked lists drops new data until acks come back.
 */
import { encodeMessage } from '../../proto/codec.js';
import type * as p4r from '../../proto/p4r.js';

export interface DigestConfig {
  maxTimeoutNs: bigint;
  maxListSize: number;
  ackTimeoutNs: bigint;
}

export interface DigestListReady {
  digestId: number;
  listId: bigint;
  data: p4r.P4Data[];
  /** When the list was made, in nanoseconds since the epoch. */
  timestampNs: bigint;
}

/** What became of one digest. */
export type DigestOutcome = 'queued' | 'sent' | 'duplicate' | 'disabled' | 'overflow';

/** Timers, replaceable in tests. `schedule` returns a function that cancels. */
export interface Scheduler {
  schedule(delayMs: number, task: () => void): () => void;
}

export const realScheduler: Scheduler = {
  schedule(delayMs, task) {
    const timer = setTimeout(task, delayMs);
    timer.unref(); // pending digests never keep the process alive
    return () => clearTimeout(timer);
  },
};

export interface DigestBatcherOptions {
  /** The current config of a digest, undefined when it is disabled. */
  configOf(digestId: number): DigestConfig | undefined;
  /** Sends a list to the controllers; false when nobody could receive it (no primary). */
  deliver(list: DigestListReady): boolean;
  scheduler?: Scheduler;
  clockNs?: () => bigint;
  maxEntriesPerList?: number;
  maxOutstandingLists?: number;
}

interface Outstanding {
  keys: string[];
  cancel: () => void;
}

interface DigestQueue {
  pending: p4r.P4Data[];
  pendingKeys: Set<string>;
  cancelFlush: (() => void) | undefined;
  outstanding: Map<bigint, Outstanding>;
  /** Data of unacked lists, which must not be reported again yet. */
  outstandingKeys: Set<string>;
}

/** setTimeout takes at most 2^31-1 ms; longer timeouts are clamped (about 24.8 days). */
const MAX_DELAY_MS = 2 ** 31 - 1;

function nsToMs(ns: bigint): number {
  const ms = (ns + 999_999n) / 1_000_000n;
  return ms > BigInt(MAX_DELAY_MS) ? MAX_DELAY_MS : Number(ms);
}

export class DigestBatcher {
  private readonly queues = new Map<number, DigestQueue>();
  private readonly scheduler: Scheduler;
  private readonly clockNs: () => bigint;
  private readonly maxEntriesPerList: number;
  private readonly maxOutstandingLists: number;
  private nextListId = 1n;

  constructor(private readonly options: DigestBatcherOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.clockNs = options.clockNs ?? (() => BigInt(Date.now()) * 1_000_000n);
    this.maxEntriesPerList = options.maxEntriesPerList ?? 4096;
    this.maxOutstandingLists = options.maxOutstandingLists ?? 256;
  }

  /** Takes one digest from the data plane. */
  emit(digestId: number, data: p4r.P4Data): DigestOutcome {
    const config = this.options.configOf(digestId);
    if (!config) return 'disabled';
    const queue = this.queue(digestId);
    const key = Buffer.from(encodeMessage('p4.v1.P4Data', data)).toString('latin1');
    if (queue.pendingKeys.has(key) || queue.outstandingKeys.has(key)) return 'duplicate';
    if (queue.outstanding.size >= this.maxOutstandingLists) return 'overflow';
    queue.pending.push(data);
    queue.pendingKeys.add(key);
    const limit = config.maxListSize > 0 ? Math.min(config.maxListSize, this.maxEntriesPerList) : this.maxEntriesPerList;
    if (queue.pending.length >= limit || config.maxTimeoutNs <= 0n) {
      this.flush(digestId, queue);
      return 'sent';
    }
    if (queue.pending.length === 1) {
      queue.cancelFlush = this.scheduler.schedule(nsToMs(config.maxTimeoutNs), () => this.flush(digestId, queue));
    }
    return 'queued';
  }

  /** Handles a DigestListAck; false when no unacked list has that id. */
  ack(digestId: number, listId: bigint): boolean {
    const queue = this.queues.get(digestId);
    const list = queue?.outstanding.get(listId);
    if (!queue || !list) return false;
    list.cancel();
    this.release(queue, listId, list);
    return true;
  }

  /** Forgets everything (a new pipeline, or the server stopping). */
  reset(): void {
    for (const queue of this.queues.values()) {
      queue.cancelFlush?.();
      for (const list of queue.outstanding.values()) list.cancel();
    }
    this.queues.clear();
  }

  private queue(digestId: number): DigestQueue {
    let queue = this.queues.get(digestId);
    if (!queue) {
      queue = { pending: [], pendingKeys: new Set(), cancelFlush: undefined, outstanding: new Map(), outstandingKeys: new Set() };
      this.queues.set(digestId, queue);
    }
    return queue;
  }

  private flush(digestId: number, queue: DigestQueue): void {
    queue.cancelFlush?.();
    queue.cancelFlush = undefined;
    const data = queue.pending;
    const keys = [...queue.pendingKeys];
    queue.pending = [];
    queue.pendingKeys = new Set();
    if (data.length === 0 || this.queues.get(digestId) !== queue) return;
    const config = this.options.configOf(digestId);
    if (!config) return; // disabled while the list was gathering
    const listId = this.nextListId++;
    const delivered = this.options.deliver({ digestId, listId, data, timestampNs: this.clockNs() });
    if (!delivered || config.ackTimeoutNs <= 0n) return;
    const list: Outstanding = { keys, cancel: () => undefined };
    for (const key of keys) queue.outstandingKeys.add(key);
    queue.outstanding.set(listId, list);
    list.cancel = this.scheduler.schedule(nsToMs(config.ackTimeoutNs), () => this.release(queue, listId, list));
  }

  private release(queue: DigestQueue, listId: bigint, list: Outstanding): void {
    if (queue.outstanding.get(listId) !== list) return;
    queue.outstanding.delete(listId);
    for (const key of list.keys) queue.outstandingKeys.delete(key);
  }
}
