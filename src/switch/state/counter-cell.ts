/**
 * Counter values as the data plane updates them: plain numbers (exact up to
 * 2^53, far beyond what an emulated port can count), one cell per direct
 * counter entry and two Float64Arrays per indexed counter.
 */
import type * as p4r from '../../proto/p4r.js';
import { nonNegativeInt64 } from './validation.js';

/** A direct counter's value, owned by its table entry; the pipeline increments it in place. */
export interface CounterCell {
  packets: number;
  bytes: number;
}

/** The value of a `CounterData`, checked: negative → INVALID_ARGUMENT, past 2^53-1 → OUT_OF_RANGE. */
export function parseCounterData(data: p4r.CounterData__Output, what: string): CounterCell {
  return {
    packets: nonNegativeInt64(data.packet_count, `${what} packet_count`),
    bytes: nonNegativeInt64(data.byte_count, `${what} byte_count`),
  };
}

export function counterDataProto(packets: number, bytes: number): p4r.CounterData {
  return { byte_count: String(bytes), packet_count: String(packets) };
}
