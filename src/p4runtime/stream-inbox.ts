/**
 * Where pushed stream messages go: PacketIns, digest lists and idle-timeout
 * notifications are decoded once and handed to every iterator listening for
 * them (each a BoundedQueue); StreamErrors and undecodable messages go to
 * `onError`. Messages that arrive while nobody listens are counted in
 * `unclaimed` and not kept. Nothing here throws into gRPC's event handlers.
 */
import type { Logger } from '../log/logger.js';
import type * as p4r from '../proto/p4r.js';
import type { P4Schema } from '../p4info/index.js';
import { BoundedQueue } from './async-queue.js';
import { decodeDigestList, type DigestList } from './digest-list.js';
import { decodeTableEntry, type TableEntry } from './entities/table-entry.js';
import { P4StreamError } from './errors.js';
import { decodePacketIn, type PacketIn } from './packet-io.js';

export interface IdleTimeoutNotification {
  readonly entries: readonly TableEntry[];
  readonly timestamp: bigint;
}

export interface InboxContext {
  schema(): P4Schema | undefined;
  ackDigest(digestId: number, listId: string): Promise<void>;
  onError(err: Error): void;
  readonly log: Logger;
  readonly queueLimit: number;
}

type Kind = 'packets' | 'digests' | 'idleTimeouts';

export class StreamInbox {
  /** Messages that arrived while no iterator of their kind was open. */
  readonly unclaimed: Record<Kind, number> = { packets: 0, digests: 0, idleTimeouts: 0 };
  private readonly packetQueues = new Set<BoundedQueue<PacketIn>>();
  private readonly digestQueues = new Set<BoundedQueue<DigestList>>();
  private readonly idleQueues = new Set<BoundedQueue<IdleTimeoutNotification>>();
  private closed = false;

  constructor(private readonly ctx: InboxContext) {}

  packets(limit?: number): BoundedQueue<PacketIn> {
    return this.subscribe(this.packetQueues, limit);
  }

  digests(limit?: number): BoundedQueue<DigestList> {
    return this.subscribe(this.digestQueues, limit);
  }

  idleTimeouts(limit?: number): BoundedQueue<IdleTimeoutNotification> {
    return this.subscribe(this.idleQueues, limit);
  }

  /** Ends every iterator; later ones start ended. */
  close(): void {
    this.closed = true;
    for (const set of [this.packetQueues, this.digestQueues, this.idleQueues]) for (const q of [...set]) q.close();
  }

  /** Delivers one pushed message (anything but arbitration). */
  handle(msg: p4r.StreamMessageResponse__Output): void {
    try {
      if (msg.update === 'packet' && msg.packet) {
        const packet = msg.packet;
        this.deliver(this.packetQueues, 'packets', () => decodePacketIn(packet, this.ctx.schema()));
      } else if (msg.update === 'digest' && msg.digest) {
        const list = msg.digest;
        this.deliver(this.digestQueues, 'digests', () => decodeDigestList(list, this.ctx.schema(), this.ctx.ackDigest));
      } else if (msg.update === 'idle_timeout_notification' && msg.idle_timeout_notification) {
        const n = msg.idle_timeout_notification;
        this.deliver(this.idleQueues, 'idleTimeouts', () => this.decodeIdleTimeout(n));
      } else if (msg.update === 'error' && msg.error) {
        this.ctx.onError(new P4StreamError(msg.error));
      } else {
        this.ctx.log.debug({ update: msg.update }, 'ignored stream message');
      }
    } catch (err) {
      this.ctx.onError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private decodeIdleTimeout(n: p4r.IdleTimeoutNotification__Output): IdleTimeoutNotification {
    const schema = this.ctx.schema();
    if (!schema) throw new Error('idle-timeout notification received with no P4Info loaded; it was dropped');
    return { entries: n.table_entry.map((te) => decodeTableEntry(te, schema)), timestamp: BigInt(n.timestamp) };
  }

  private subscribe<T>(set: Set<BoundedQueue<T>>, limit = this.ctx.queueLimit): BoundedQueue<T> {
    const queue: BoundedQueue<T> = new BoundedQueue<T>(limit, () => set.delete(queue));
    if (this.closed) queue.close();
    else set.add(queue);
    return queue;
  }

  private deliver<T>(queues: Set<BoundedQueue<T>>, kind: Kind, decode: () => T): void {
    if (!queues.size) {
      this.unclaimed[kind]++;
      this.ctx.log.trace({ kind }, 'stream message with no listener');
      return;
    }
    const item = decode();
    for (const q of queues) q.push(item);
  }
}
