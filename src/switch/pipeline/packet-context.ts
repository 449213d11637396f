/**
 * Everything one packet carries through the pipeline: the slots (headers,
 * metadata, standard_metadata, locals), the bytes being parsed, what the
 * deparser emits, and the requests ingress/egress leave for the traffic
 * manager (clone, resubmit, recirculate, truncate).
 */
import type { IrHeaderType } from '../../p4c/ir/types.js';
import type { DefaultEntryRecord, TableEntryRecord } from '../state/table-store.js';
import type { HeaderWriter } from './header-codec.js';
import type { HeaderValue, Value } from './values.js';

/** BMv2's v1model instance types. */
export const INSTANCE_TYPE = {
  NORMAL: 0,
  INGRESS_CLONE: 1,
  EGRESS_CLONE: 2,
  RECIRCULATED: 4,
  REPLICATION: 5,
  RESUBMITTED: 6,
} as const;

/** What a compiled statement tells its caller: carry on, leave the action/function, or leave the whole block. */
export const FLOW_NEXT = 0;
export const FLOW_RETURN = 1;
export const FLOW_EXIT = 2;
export type Flow = typeof FLOW_NEXT | typeof FLOW_RETURN | typeof FLOW_EXIT;

export interface CloneRequest {
  session: number;
  /** The @field_list index to preserve, or -1 for none. */
  fieldList: number;
}

/** The action data of no entry (shared: action data arrays are only read). */
const NO_PARAMS: Value[] = [];

export class PacketContext {
  /** The bytes being parsed (the packet as it entered the parser). */
  packet: Buffer = Buffer.alloc(0);
  /** Byte offset of the parser's cursor in `packet`. */
  cursor = 0;
  /**
   * Headers emitted by the deparser, in order, with their layouts: kept by
   * reference and written once into the output frame when the deparser ends
   * (the deparser's headers are `in`, so they cannot change in between), so
   * that emitting allocates nothing.
   */
  readonly emittedHeaders: HeaderValue[] = [];
  readonly emittedLayouts: IrHeaderType[] = [];
  readonly emittedWriters: HeaderWriter[] = [];
  /** How many entries of the three arrays above this packet emitted (the arrays are reused, not shrunk). */
  emittedCount = 0;
  /** The value of the last `return expr` of a function. */
  returnValue: Value = undefined;
  clone: CloneRequest | undefined = undefined;
  resubmitFieldList = -1;
  recirculateFieldList = -1;
  /** The action data of the entry whose action is running (read into the parameter slots). */
  actionParams: Value[] = [];
  /** The entry (or default entry) whose action is running: its direct meter is what direct_meter.read reads. */
  entry: TableEntryRecord | DefaultEntryRecord | undefined = undefined;
  /** Bytes to keep on output (0 = no truncation). */
  truncateTo = 0;

  constructor(readonly slots: Value[]) {}

  /** Makes a used context fresh for the next packet (slots are reset by the pipeline). */
  restart(packet: Buffer): void {
    this.packet = packet;
    this.cursor = 0;
    this.emittedCount = 0;
    this.returnValue = undefined;
    this.clearRequests();
    this.truncateTo = 0;
    this.actionParams = NO_PARAMS;
    this.entry = undefined;
  }

  /** packet.emit of one valid header. */
  emit(layout: IrHeaderType, h: HeaderValue, write: HeaderWriter): void {
    const n = this.emittedCount++;
    this.emittedLayouts[n] = layout;
    this.emittedWriters[n] = write;
    this.emittedHeaders[n] = h;
  }

  /** Clears the traffic-manager requests (before each of ingress and egress). */
  clearRequests(): void {
    this.clone = undefined;
    this.resubmitFieldList = -1;
    this.recirculateFieldList = -1;
  }
}
