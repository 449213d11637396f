// The hosts of the ATP switch tests and the frames they send: workers on
// switch ports 1..8, the parameter server (PS) on port 9 (the uplink), all
// on one L2 segment; ATP frames built with src/wire's codec, decoded with
// every checksum verified.
import {
  buildUdpFrame, decodeAtp, encodeAtp, ipv4FromText, macFromText, parseUdpFrame,
  type AtpHeaderFields, type AtpPacket, type UdpFrame,
} from '../../../../src/wire/index.js';

export interface Host {
  readonly mac: number;
  readonly ip: number;
  readonly udpPort: number;
  readonly switchPort: number;
}

export const SWITCH_MAC = macFromText('02:00:00:00:00:fe');
export const SWITCH_IP = ipv4FromText('10.0.0.254');
export const UPLINK = 9;
export const PS: Host = { mac: macFromText('02:00:00:00:09:01'), ip: ipv4FromText('10.0.9.1'), udpPort: 0xbf00, switchPort: UPLINK };

/** Worker w (0..7): switch port w + 1, UDP port in the ATP block. */
export function worker(w: number): Host {
  return { mac: macFromText('02:00:00:00:01:01') + w, ip: ipv4FromText('10.0.1.1') + w, udpPort: 0xbf01 + w, switchPort: w + 1 };
}

export interface AtpFrameSpec extends Partial<Omit<AtpHeaderFields, 'elementCount'>> {
  readonly from: Host;
  readonly to: Host;
  readonly values: readonly number[];
  /** The IPv4 ECN field (0 = not ECN-capable). */
  readonly ipEcn?: number;
  readonly udpChecksum?: boolean;
}

/** An ATP frame; header fields default to a level-0 contribution with nothing set. */
export function atpFrame(spec: AtpFrameSpec): Buffer {
  const buf = Buffer.alloc(64 + 4 * spec.values.length);
  const flow = {
    srcMac: spec.from.mac, dstMac: spec.to.mac, srcIp: spec.from.ip, dstIp: spec.to.ip,
    srcPort: spec.from.udpPort, dstPort: spec.to.udpPort, ecn: spec.ipEcn ?? 0, udpChecksum: spec.udpChecksum ?? true,
  };
  const length = buildUdpFrame(buf, 0, flow, (b, offset) => encodeAtp(b, offset, {
    bitmap0: spec.bitmap0 ?? 0, bitmap1: spec.bitmap1 ?? 0, fanInDegree0: spec.fanInDegree0 ?? 0, fanInDegree1: spec.fanInDegree1 ?? 0,
    overflow: spec.overflow ?? false, resend: spec.resend ?? false, collision: spec.collision ?? false, ecn: spec.ecn ?? false,
    edgeSwitchIdentifier: spec.edgeSwitchIdentifier ?? 0, isAck: spec.isAck ?? false, aggregatorIndex: spec.aggregatorIndex ?? 0,
    jobId: spec.jobId ?? 1, sequenceNumber: spec.sequenceNumber ?? 0, elementCount: spec.values.length, values: spec.values,
  }) - offset);
  return Buffer.from(buf.subarray(0, length));
}

export interface DecodedAtp {
  readonly frame: UdpFrame;
  readonly atp: AtpPacket;
  readonly values: number[];
}

/** A frame the switch sent, decoded with the IPv4 checksum and any non-zero UDP checksum verified. */
export function decodeAtpFrame(bytes: Buffer): DecodedAtp {
  const frame = parseUdpFrame(bytes);
  if (!frame.ok) throw new Error(`${frame.code}: ${frame.message}`);
  const atp = decodeAtp(bytes, frame.payloadOffset, frame.payloadOffset + frame.payloadLength);
  if (!atp.ok) throw new Error(`${atp.code}: ${atp.message}`);
  return { frame, atp, values: [...atp.values.toInt32Array()] };
}

/** n int32 values of contributor `c` for sequence `seq`: distinct per contributor, element and sequence, negatives included. */
export function contribution(c: number, seq: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => ((c + 1) * 1000 + i * 7 - 300) * (seq % 2 === 0 ? 1 : -1) + seq);
}

/** The element-wise sum as int32 arithmetic does it (wrapping). */
export function int32Sum(vectors: readonly (readonly number[])[]): number[] {
  const n = vectors[0]?.length ?? 0;
  return Array.from({ length: n }, (_, i) => vectors.reduce((s, v) => (s + v[i]!) | 0, 0));
}

/** The bitmap of these bit positions. */
export function bits(...positions: number[]): number {
  return positions.reduce((m, p) => (m | (1 << p)) >>> 0, 0);
}
