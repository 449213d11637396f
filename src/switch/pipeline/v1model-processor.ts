/**
 * A packet's trip through v1model in BMv2's order: parser → verify checksum
 * → ingress → traffic manager (ingress clone, resubmit, multicast or
 * unicast, drop on egress_spec 511) → the egress port's queue, if it has
 * one → egress once per replica (egress clone, drop, recirculate) → compute
 * checksum → deparser → the output callback. Synchronous: one call processes
 * one packet to the end, or to its port's queue (src/switch/queues), whose
 * departures call `depart`.
 */
import type { IrHeaderType } from '../../p4c/ir/types.js';
import type { PortQueue } from '../queues/port-queue.js';
import type { ForwardingState } from '../state/forwarding-state.js';
import type { ReplicaRecord } from '../state/pre.js';
import { bitsToBytes, bytesToBits, wrap } from './bits.js';
import type { CompiledPipeline } from './compiled-pipeline.js';
import { writeHeader } from './header-bytes.js';
import { INSTANCE_TYPE, PacketContext } from './packet-context.js';
import { QueuedEgress, type QueuedPacket } from './queued-egress.js';
import { STANDARD_METADATA_SLOT } from './standard-metadata.js';
import { observesTimestamps } from './timestamp-use.js';
import { copyValue, HeaderValue, StructValue, type Value } from './values.js';

export const DROP_PORT = 511;

/** Why the switch dropped a packet, for per-port counters. */
export type DropReason = 'mark_to_drop' | 'no_multicast_group' | 'no_clone_session' | 'recirculation_limit' | 'queue_full';

export interface ProcessorOutputs {
  /** A frame leaving on a data port (or the CPU port: see packetIn). */
  output(port: number, frame: Buffer): void;
  /** A frame egressing to the CPU port: the packet_in header's fields (id → bytes) and the rest of the frame. */
  packetIn(payload: Buffer, metadata: Map<number, Uint8Array>): void;
  /** A dropped packet, counted on its ingress port (on its egress port for a full queue). */
  drop(port: number, reason: DropReason): void;
}

/** Egress queues by port number; undefined: the port has none and egress runs at once. */
export type QueueLookup = readonly (PortQueue<QueuedPacket> | undefined)[];

const NO_QUEUES: QueueLookup = [];

/** Monotonic microseconds: standard_metadata's timestamps (the clock of the egress queues). */
const performanceMicros = (): number => performance.now() * 1000;

export interface ProcessorOptions {
  readonly cpuPort?: number | undefined;
  /** How many times one packet may be resubmitted or recirculated before it is dropped. */
  readonly maxLoops?: number;
  /** The egress queues (EgressQueues.byPort); none by default. */
  readonly queues?: QueueLookup;
  /** Monotonic microseconds for timestamps and queueing; performance.now() by default. */
  readonly clock?: () => number;
}

export class V1ModelProcessor {
  private readonly cpuPort: number | undefined;
  private readonly maxLoops: number;
  private readonly preservedFields = new Map<number, number[]>();
  private readonly packetInLayout: IrHeaderType | undefined;
  private readonly packetOutLayout: IrHeaderType | undefined;
  /** The context reused by every packet's first pass. */
  private spare: PacketContext | undefined;
  /** True while a packet is using `spare` (a PacketOut injected from inside processing must not take it). */
  private spareInUse = false;
  /** Contexts of multicast replicas, reused from packet to packet. */
  private readonly replicaPool: PacketContext[] = [];
  private replicasInUse = false;
  /** standard_metadata fields the traffic manager reads and writes per packet, resolved once. */
  private readonly get: Readonly<Record<'mcastGrp' | 'egressSpec' | 'egressPort', (ctx: PacketContext) => number>>;
  private readonly set: Readonly<Record<'ingressPort' | 'instanceType' | 'packetLength' | 'egressPort' | 'egressRid', (sm: StructValue, v: number) => void>>;
  /** Indices and widths of the three timestamps (set to the time of ingress per packet). */
  private readonly timestamps: { indices: number[]; widths: number[] };
  private readonly clock: () => number;
  private readonly queueOf: QueueLookup;
  private readonly queued: QueuedEgress;

  constructor(
    readonly pipeline: CompiledPipeline,
    private readonly forwarding: ForwardingState,
    private readonly outputs: ProcessorOutputs,
    options: ProcessorOptions = {},
  ) {
    this.cpuPort = options.cpuPort;
    this.maxLoops = options.maxLoops ?? 16;
    this.clock = options.clock ?? performanceMicros;
    this.queueOf = options.queues ?? NO_QUEUES;
    this.queued = new QueuedEgress(pipeline, (ctx, ingressPort, loops, e2eClone) => this.egressOnce(ctx, ingressPort, loops, e2eClone), (port) => this.outputs.drop(port, 'queue_full'), this.markReplica);
    const program = pipeline.program;
    const metaSlot = program.slots[1];
    if (metaSlot?.type.kind === 'struct') {
      const layout = pipeline.values.structLayout(metaSlot.type.name);
      layout.fields.forEach((f, i) => {
        for (const n of f.fieldLists) {
          const list = this.preservedFields.get(n) ?? [];
          list.push(i);
          this.preservedFields.set(n, list);
        }
      });
    }
    const sm = pipeline.sm;
    this.get = { mcastGrp: sm.getter('mcast_grp'), egressSpec: sm.getter('egress_spec'), egressPort: sm.getter('egress_port') };
    this.set = {
      ingressPort: sm.setter('ingress_port'),
      instanceType: sm.setter('instance_type'),
      packetLength: sm.setter('packet_length'),
      egressPort: sm.setter('egress_port'),
      egressRid: sm.setter('egress_rid'),
    };
    // A program that cannot see the timestamps does not pay for reading the clock per packet.
    const stamps = observesTimestamps(program) ? (['ingress_global_timestamp', 'enq_timestamp', 'egress_global_timestamp'] as const).filter((n) => sm.at[n] >= 0) : [];
    this.timestamps = { indices: stamps.map((n) => sm.at[n]), widths: stamps.map((n) => sm.widthOf(n)) };
    this.packetInLayout = program.headers.find((h) => h.controllerHeader === 'packet_in');
    this.packetOutLayout = program.headers.find((h) => h.controllerHeader === 'packet_out');
  }

  /** Processes one frame received on `ingressPort`. Frame content never makes it throw (only a bug in the executor would). */
  process(frame: Buffer, ingressPort: number): void {
    // Re-entered (a listener injecting a packet while one is processed): that packet gets its own context.
    if (this.spareInUse) return this.runIngress(frame, ingressPort, INSTANCE_TYPE.NORMAL, undefined, 0, false);
    this.spareInUse = true;
    try {
      this.runIngress(frame, ingressPort, INSTANCE_TYPE.NORMAL, undefined, 0, true);
    } finally {
      this.spareInUse = false;
    }
  }

  /**
   * A PacketOut: the packet_out header built from the metadata (fields by
   * name), then the payload, processed from ingress with ingress_port = the
   * CPU port, as BMv2 does.
   */
  injectPacketOut(payload: Buffer, metadata: ReadonlyMap<string, Buffer>): void {
    let frame = payload;
    const layout = this.packetOutLayout;
    if (layout) {
      const h = new HeaderValue(layout.fields.map((f) => bytesToBits(metadata.get(f.name) ?? Buffer.alloc(0), f.width)));
      h.valid = true;
      frame = Buffer.concat([writeHeader(layout, h), payload]);
    }
    this.process(frame, this.cpuPort ?? 0);
  }

  private runIngress(packet: Buffer, ingressPort: number, instanceType: number, preserved: { from: PacketContext; list: number } | undefined, loops: number, useSpare = false): void {
    const p = this.pipeline;
    // The first pass of a packet reuses one context (processing is synchronous and nothing keeps it);
    // resubmitted and recirculated passes copy from the previous pass, so they get their own.
    let ctx: PacketContext;
    if (useSpare) {
      this.spare = this.spare ? p.reuseContext(this.spare, packet) : p.newContext(packet);
      ctx = this.spare;
    } else ctx = p.newContext(packet);
    this.startMetadata(ctx, ingressPort, instanceType, packet.length);
    p.parse(ctx);
    if (preserved) this.copyPreserved(preserved.from, ctx, preserved.list);
    p.verifyChecksum(ctx);
    ctx.clearRequests();
    p.ingress(ctx);

    const clone = ctx.clone;
    if (clone) this.ingressClone(packet, ingressPort, ctx, clone.session, clone.fieldList);
    if (ctx.resubmitFieldList >= 0) {
      if (loops >= this.maxLoops) return this.outputs.drop(ingressPort, 'recirculation_limit');
      return this.runIngress(packet, ingressPort, INSTANCE_TYPE.RESUBMITTED, { from: ctx, list: ctx.resubmitFieldList }, loops + 1);
    }
    const group = this.get.mcastGrp(ctx);
    if (group !== 0) {
      const g = this.forwarding.pre.multicastGroups.get(group);
      if (!g) return this.outputs.drop(ingressPort, 'no_multicast_group');
      // A replica for a port with a queue is copied once, straight into the queue's context. Every
      // other replica but the last egresses from a copy (reused from packet to packet unless this is
      // a nested pass, e.g. a recirculated replica multicast again); the last one takes ctx itself.
      const replicas = g.replicas;
      const pooled = !this.replicasInUse;
      this.replicasInUse = true;
      try {
        for (let k = 0; k < replicas.length; k++) {
          const r = replicas[k]!;
          const queue = this.queueOf[r.port];
          if (queue !== undefined) {
            if (k === replicas.length - 1) this.handOver(queue, ctx, ingressPort, loops, useSpare, r);
            else this.queued.enqueue(queue, ctx, this.clock(), ingressPort, loops, false, r);
            continue;
          }
          const copy = k === replicas.length - 1 ? ctx : p.copyContextInto(pooled ? this.replicaPool[k] : undefined, ctx);
          if (pooled && copy !== ctx) this.replicaPool[k] = copy;
          this.markReplica(copy, r);
          this.runEgress(copy, ingressPort, loops);
        }
      } finally {
        if (pooled) this.replicasInUse = false;
      }
      return;
    }
    const spec = this.get.egressSpec(ctx);
    if (spec === DROP_PORT) return this.outputs.drop(ingressPort, 'mark_to_drop');
    this.set.egressPort(ctx.slots[STANDARD_METADATA_SLOT] as StructValue, spec);
    const queue = this.queueOf[spec];
    if (queue === undefined) this.runEgress(ctx, ingressPort, loops);
    else this.handOver(queue, ctx, ingressPort, loops, useSpare);
  }

  /**
   * Queues the pass's own context, which nothing uses after the traffic
   * manager (a copy would cost as much as the packet's state); the first
   * pass's reused context is replaced by the free one the queue gives back.
   */
  private handOver(queue: PortQueue<QueuedPacket>, ctx: PacketContext, ingressPort: number, loops: number, isSpare: boolean, replica?: ReplicaRecord): void {
    const back = this.queued.enqueueOwned(queue, ctx, this.clock(), ingressPort, loops, replica);
    if (isSpare) this.spare = back;
  }

  private readonly markReplica = (ctx: PacketContext, replica: ReplicaRecord): void => {
    const sm = ctx.slots[STANDARD_METADATA_SLOT] as StructValue;
    this.set.egressPort(sm, replica.port);
    this.set.egressRid(sm, replica.instance);
    this.set.instanceType(sm, INSTANCE_TYPE.REPLICATION);
  };

  /** A packet leaves its egress queue (called by the queue, at its departure time): egress runs on it. */
  depart(item: QueuedPacket, atMicros: number, depthAfter: number): void {
    this.queued.depart(item, atMicros, depthAfter);
  }

  /** I2E: the packet as it entered ingress, parsed again, with the preserved metadata. */
  private ingressClone(original: Buffer, ingressPort: number, from: PacketContext, sessionId: number, fieldList: number): void {
    const session = this.forwarding.pre.cloneSessions.get(sessionId);
    if (!session) return this.outputs.drop(ingressPort, 'no_clone_session');
    const p = this.pipeline;
    for (const r of session.replicas) {
      const ctx = p.newContext(original);
      this.startMetadata(ctx, ingressPort, INSTANCE_TYPE.INGRESS_CLONE, original.length);
      p.parse(ctx);
      this.copyPreserved(from, ctx, fieldList);
      p.sm.set(ctx, 'egress_port', r.port);
      p.sm.set(ctx, 'egress_rid', r.instance);
      if (session.packetLengthBytes > 0) ctx.truncateTo = session.packetLengthBytes;
      const queue = this.queueOf[r.port];
      if (queue === undefined) this.runEgress(ctx, ingressPort, this.maxLoops);
      else this.queued.enqueue(queue, ctx, this.clock(), ingressPort, this.maxLoops, false);
    }
  }

  private runEgress(ctx: PacketContext, ingressPort: number, loops: number): void {
    const p = this.pipeline;
    ctx.clearRequests();
    p.egress(ctx);
    const clone = ctx.clone;
    if (clone) {
      const session = this.forwarding.pre.cloneSessions.get(clone.session);
      if (!session) this.outputs.drop(ingressPort, 'no_clone_session');
      else {
        for (const r of session.replicas) {
          const copy = this.copyContext(ctx);
          this.resetMetadataExcept(ctx, copy, clone.fieldList);
          p.sm.set(copy, 'egress_port', r.port);
          p.sm.set(copy, 'egress_rid', r.instance);
          p.sm.set(copy, 'instance_type', INSTANCE_TYPE.EGRESS_CLONE);
          if (session.packetLengthBytes > 0) copy.truncateTo = session.packetLengthBytes;
          const queue = this.queueOf[r.port];
          if (queue === undefined) this.egressOnce(copy, ingressPort, this.maxLoops, true);
          else this.queued.enqueue(queue, copy, this.clock(), ingressPort, this.maxLoops, true);
        }
      }
    }
    this.finish(ctx, ingressPort, loops);
  }

  private egressOnce(ctx: PacketContext, ingressPort: number, loops: number, e2eClone: boolean): void {
    if (!e2eClone) return this.runEgress(ctx, ingressPort, loops);
    // E2E clones do not clone again: BMv2 would loop forever on a program that always clones.
    ctx.clearRequests();
    this.pipeline.egress(ctx);
    ctx.clone = undefined;
    this.finish(ctx, ingressPort, loops);
  }

  private finish(ctx: PacketContext, ingressPort: number, loops: number): void {
    const p = this.pipeline;
    if (this.get.egressSpec(ctx) === DROP_PORT) return this.outputs.drop(ingressPort, 'mark_to_drop');
    p.computeChecksum(ctx);
    let frame = p.deparse(ctx);
    if (ctx.truncateTo > 0 && frame.length > ctx.truncateTo) frame = frame.subarray(0, ctx.truncateTo);
    const port = this.get.egressPort(ctx);
    if (ctx.recirculateFieldList >= 0) {
      if (loops >= this.maxLoops) return this.outputs.drop(ingressPort, 'recirculation_limit');
      return this.runIngress(frame, port, INSTANCE_TYPE.RECIRCULATED, { from: ctx, list: ctx.recirculateFieldList }, loops + 1);
    }
    if (this.cpuPort !== undefined && port === this.cpuPort) return this.toCpu(ctx, frame);
    this.outputs.output(port, frame);
  }

  /** Strips the packet_in header (emitted first) and hands its fields over as PacketIn metadata. */
  private toCpu(ctx: PacketContext, frame: Buffer): void {
    const layout = this.packetInLayout;
    const metadata = new Map<number, Uint8Array>();
    if (!layout) return this.outputs.packetIn(frame, metadata);
    const header = this.findHeader(ctx.slots[0], layout.name);
    if (!header || !header.valid) return this.outputs.packetIn(frame, metadata);
    layout.fields.forEach((f, i) => metadata.set(i + 1, bitsToBytes(header.fields[i]!, f.width)));
    this.outputs.packetIn(frame.subarray(layout.bytes), metadata);
  }

  private findHeader(headers: Value, typeName: string): HeaderValue | undefined {
    const slot = this.pipeline.program.slots[0];
    if (slot?.type.kind !== 'struct' || !(headers instanceof StructValue)) return undefined;
    const layout = this.pipeline.values.structLayout(slot.type.name);
    const i = layout.fields.findIndex((f) => f.type.kind === 'header' && f.type.name === typeName);
    return i < 0 ? undefined : (headers.fields[i] as HeaderValue);
  }

  private startMetadata(ctx: PacketContext, ingressPort: number, instanceType: number, length: number): void {
    const sm = ctx.slots[STANDARD_METADATA_SLOT] as StructValue;
    this.set.ingressPort(sm, ingressPort);
    this.set.instanceType(sm, instanceType);
    this.set.packetLength(sm, length);
    const { indices, widths } = this.timestamps;
    if (indices.length > 0) {
      const micros = Math.floor(this.clock());
      // The common 48-bit timestamps share one bigint straight from the number (exact below 2^53);
      // enq_timestamp is 32 bits wide, a number.
      let wide: bigint | undefined;
      for (let i = 0; i < indices.length; i++) {
        const width = widths[i]!;
        sm.fields[indices[i]!] = width > 32 && width <= 53 && micros < 2 ** width ? (wide ??= BigInt(micros)) : wrap(micros, width);
      }
    }
  }

  private copyContext(ctx: PacketContext): PacketContext {
    const copy = new PacketContext(ctx.slots.map(copyValue));
    copy.packet = ctx.packet;
    copy.cursor = ctx.cursor;
    copy.truncateTo = ctx.truncateTo;
    return copy;
  }

  private copyPreserved(from: PacketContext, to: PacketContext, list: number): void {
    const fields = this.preservedFields.get(list);
    if (!fields) return;
    const src = from.slots[1];
    const dst = to.slots[1];
    if (!(src instanceof StructValue) || !(dst instanceof StructValue)) return;
    for (const i of fields) dst.fields[i] = copyValue(src.fields[i]);
  }

  /** E2E clone: user metadata reset except the preserved field list. */
  private resetMetadataExcept(from: PacketContext, to: PacketContext, list: number): void {
    const slot = this.pipeline.program.slots[1];
    if (slot) to.slots[1] = this.pipeline.values.make(slot.type);
    this.copyPreserved(from, to, list);
  }
}
