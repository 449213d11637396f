// What the switch tests send and check: the values senders contribute, their
// sum as the switch's int32 arithmetic gives it, and a frame the switch sent,
// decoded with every checksum verified.
import { parseUdpFrame, type Decoded, type Int32BeView, type UdpFrame } from '../../../src/wire/index.js';

/** n int32 values of sender `s` for round `r` (a sequence or chunk number): distinct per sender, element and round, negatives included. */
export function contribution(s: number, r: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => ((s + 1) * 1000 + i * 7 - 300) * (r % 2 === 0 ? 1 : -1) + r);
}

/** The element-wise sum as int32 arithmetic does it (wrapping). */
export function int32Sum(vectors: readonly (readonly number[])[]): number[] {
  const n = vectors[0]?.length ?? 0;
  return Array.from({ length: n }, (_, i) => vectors.reduce((s, v) => (s + v[i]!) | 0, 0));
}

export interface DecodedPayload<P> {
  readonly frame: UdpFrame;
  readonly packet: P;
  readonly values: number[];
}

/** A UDP frame and its payload, decoded by `decode`, with the IPv4 checksum and any non-zero UDP checksum verified; throws on any error. */
export function decodePayload<P extends { readonly values: Int32BeView }>(bytes: Buffer, decode: (buf: Buffer, offset: number, end: number) => Decoded<P>): DecodedPayload<P> {
  const frame = parseUdpFrame(bytes);
  if (!frame.ok) throw new Error(`${frame.code}: ${frame.message}`);
  const packet = decode(bytes, frame.payloadOffset, frame.payloadOffset + frame.payloadLength);
  if (!packet.ok) throw new Error(`${packet.code}: ${packet.message}`);
  return { frame, packet, values: [...packet.values.toInt32Array()] };
}
