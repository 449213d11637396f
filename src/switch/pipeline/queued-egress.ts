/**
 * Packets waiting in a port's egress queue (src/switch/queues). At the
 * traffic manager's hand-off a packet's context is copied into one the queue
 * owns (the first pass's context and the replicas' are reused by the next
 * packet), or handed over when the processor is done with it (it then takes
 * a free pooled context in exchange), and stamped with enq_timestamp and
 * enq_qdepth; when it leaves the
 * queue it is stamped with deq_timedelta, deq_qdepth and
 * egress_global_timestamp, and egress runs on it. Contexts are pooled, so a
 * busy queue allocates no context per packet either.
 */
import type { PortQueue } from '../queues/port-queue.js';
import type { ReplicaRecord } from '../state/pre.js';
import type { CompiledPipeline } from './compiled-pipeline.js';
import type { PacketContext } from './packet-context.js';
import { STANDARD_METADATA_SLOT } from './standard-metadata.js';
import type { StructValue } from './values.js';

export interface QueuedPacket {
  ctx: PacketContext;
  ingressPort: number;
  /** Resubmissions and recirculations so far. */
  loops: number;
  /** An egress-to-egress clone: its egress may not clone again. */
  e2eClone: boolean;
  /** When it entered the queue (µs, the queue clock). */
  enqueuedAt: number;
}

/** Runs egress and what follows it (clone, drop, recirculate, deparse, output) on a packet that left its queue. */
export type EgressRunner = (ctx: PacketContext, ingressPort: number, loops: number, e2eClone: boolean) => void;

/** Sets a multicast replica's egress_port, egress_rid and instance_type on its context. */
export type ReplicaMarker = (ctx: PacketContext, replica: ReplicaRecord) => void;

/** Contexts kept for reuse beyond this are left to the garbage collector. */
const MAX_POOLED = 1024;

export class QueuedEgress {
  private readonly pool: QueuedPacket[] = [];
  private readonly set: Readonly<Record<'enqTimestamp' | 'enqQdepth' | 'deqTimedelta' | 'deqQdepth' | 'egressTimestamp', (sm: StructValue, v: number) => void>>;

  constructor(
    private readonly pipeline: CompiledPipeline,
    private readonly runEgress: EgressRunner,
    private readonly dropFull: (port: number) => void,
    private readonly markReplica: ReplicaMarker,
  ) {
    const sm = pipeline.sm;
    this.set = {
      enqTimestamp: sm.setter('enq_timestamp'),
      enqQdepth: sm.setter('enq_qdepth'),
      deqTimedelta: sm.setter('deq_timedelta'),
      deqQdepth: sm.setter('deq_qdepth'),
      egressTimestamp: sm.setter('egress_global_timestamp'),
    };
  }

  /**
   * Queues a copy of `from` (its egress_port already set, or a multicast
   * `replica` that the copy is marked as) at `now`, or drops it when the
   * queue is full.
   */
  enqueue(queue: PortQueue<QueuedPacket>, from: PacketContext, now: number, ingressPort: number, loops: number, e2eClone: boolean, replica?: ReplicaRecord): void {
    const depth = queue.admit(now);
    if (depth < 0) return this.dropFull(queue.port);
    const reused = this.pool.pop();
    this.push(queue, reused, this.pipeline.copyContextInto(reused?.ctx, from), depth, now, ingressPort, loops, e2eClone, replica);
  }

  /**
   * Queues `ctx` itself, which the caller gives up (nothing else may refer
   * to it): no copy. Returns what the caller holds afterwards in its place:
   * a pooled context that is free again, undefined when the pool had none,
   * or `ctx` itself when the queue was full and dropped the packet.
   */
  enqueueOwned(queue: PortQueue<QueuedPacket>, ctx: PacketContext, now: number, ingressPort: number, loops: number, replica?: ReplicaRecord): PacketContext | undefined {
    const depth = queue.admit(now);
    if (depth < 0) {
      this.dropFull(queue.port);
      return ctx;
    }
    const reused = this.pool.pop();
    const free = reused?.ctx;
    this.push(queue, reused, ctx, depth, now, ingressPort, loops, false, replica);
    return free;
  }

  private push(queue: PortQueue<QueuedPacket>, reused: QueuedPacket | undefined, ctx: PacketContext, depth: number, now: number, ingressPort: number, loops: number, e2eClone: boolean, replica: ReplicaRecord | undefined): void {
    const item = reused ?? { ctx, ingressPort, loops, e2eClone, enqueuedAt: now };
    item.ctx = ctx;
    item.ingressPort = ingressPort;
    item.loops = loops;
    item.e2eClone = e2eClone;
    item.enqueuedAt = now;
    if (replica !== undefined) this.markReplica(ctx, replica);
    const sm = ctx.slots[STANDARD_METADATA_SLOT] as StructValue;
    this.set.enqTimestamp(sm, Math.floor(now));
    this.set.enqQdepth(sm, depth);
    // The rate in bits/s counts the frame as it entered the switch (as truncated for a clone).
    const bytes = ctx.truncateTo > 0 ? Math.min(ctx.packet.length, ctx.truncateTo) : ctx.packet.length;
    queue.push(item, now, bytes);
  }

  /** A packet leaves its queue at `at` with `depthAfter` packets behind it: egress runs on it. */
  depart(item: QueuedPacket, at: number, depthAfter: number): void {
    const sm = item.ctx.slots[STANDARD_METADATA_SLOT] as StructValue;
    const left = Math.floor(at);
    this.set.deqTimedelta(sm, left - Math.floor(item.enqueuedAt));
    this.set.deqQdepth(sm, depthAfter);
    this.set.egressTimestamp(sm, left);
    try {
      this.runEgress(item.ctx, item.ingressPort, item.loops, item.e2eClone);
    } finally {
      if (this.pool.length < MAX_POOLED) this.pool.push(item);
    }
  }
}
