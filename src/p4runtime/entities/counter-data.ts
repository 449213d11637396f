/**
 * Counter values (bytes and packets) and the per-colour counters of a meter.
 * Inputs take numbers or bigints; decoded values are bigints (they are
 * 64-bit on the wire). An object given in a read asks the switch to include
 * the data: `table('ingress.l2', undefined, undefined, { counterData: {} })`.
 */
import type * as p4r from '../../proto/p4r.js';
import { bigintOf, int64 } from './values.js';

export interface CounterDataInput {
  readonly byteCount?: number | bigint;
  readonly packetCount?: number | bigint;
}
export interface CounterData {
  readonly byteCount: bigint;
  readonly packetCount: bigint;
}
export interface MeterCounterDataInput {
  readonly green?: CounterDataInput;
  readonly yellow?: CounterDataInput;
  readonly red?: CounterDataInput;
}
export interface MeterCounterData {
  readonly green: CounterData;
  readonly yellow: CounterData;
  readonly red: CounterData;
}

export function encodeCounterData(data: CounterDataInput | undefined): p4r.CounterData | null {
  if (!data) return null;
  return { byte_count: int64(data.byteCount, 'byteCount'), packet_count: int64(data.packetCount, 'packetCount') };
}

export function decodeCounterData(msg: p4r.CounterData__Output | null): CounterData | undefined {
  if (!msg) return undefined;
  return { byteCount: bigintOf(msg.byte_count), packetCount: bigintOf(msg.packet_count) };
}

export function encodeMeterCounterData(data: MeterCounterDataInput | undefined): p4r.MeterCounterData | null {
  if (!data) return null;
  return { green: encodeCounterData(data.green ?? {}), yellow: encodeCounterData(data.yellow ?? {}), red: encodeCounterData(data.red ?? {}) };
}

export function decodeMeterCounterData(msg: p4r.MeterCounterData__Output | null): MeterCounterData | undefined {
  if (!msg) return undefined;
  const zero = { byteCount: 0n, packetCount: 0n };
  return {
    green: decodeCounterData(msg.green) ?? zero,
    yellow: decodeCounterData(msg.yellow) ?? zero,
    red: decodeCounterData(msg.red) ?? zero,
  };
}
