// The hosts of the rina_tor.p4 packet tests and the frames they send: the
// rack's workers on switch ports 1..8 (worker 0 is the agent), the previous
// ring member on port 9, the next one on port 10, a stranger on port 11;
// Rina frames built with src/wire's codec, decoded with every checksum
// verified.
import {
  buildUdpFrame, decodeRina, encodeRina, ipv4FromText, macFromText, rinaChunkField,
  RinaMessageType, RinaPhase, type RinaPacket, type UdpFrame,
} from '../../../../src/wire/index.js';
import { rackWorker, type Host } from '../../support/hosts.js';
import { decodePayload } from '../../support/payloads.js';

export { SWITCH_MAC, type Host } from '../../support/hosts.js';
export { contribution, int32Sum } from '../../support/payloads.js';

const RINA_PORT = 0xbf10;

/** Rack worker w (0..7): switch port w + 1. */
export function worker(w: number): Host {
  return rackWorker(w, RINA_PORT);
}

export const PRED: Host = { mac: macFromText('02:00:00:00:09:01'), ip: ipv4FromText('10.0.9.1'), udpPort: RINA_PORT, switchPort: 9 };
export const NEXT: Host = { mac: macFromText('02:00:00:00:0a:01'), ip: ipv4FromText('10.0.10.1'), udpPort: RINA_PORT + 1, switchPort: 10 };
export const STRANGER: Host = { mac: macFromText('02:00:00:00:0b:01'), ip: ipv4FromText('10.0.11.1'), udpPort: RINA_PORT, switchPort: 11 };
export const AGENT = worker(0);

export interface RinaFrameSpec {
  readonly from: Host;
  readonly to: Host;
  readonly type?: RinaMessageType;
  readonly phase?: RinaPhase;
  readonly jobId?: number;
  readonly senderRank?: number;
  readonly workerId?: number;
  readonly exponent?: number;
  readonly step?: number;
  readonly segment?: number;
  readonly epoch?: number;
  readonly chunk?: number;
  readonly slot?: number;
  readonly set?: 0 | 1;
  readonly values: readonly number[];
  /** Overrides elem_count in the header (the values still follow). */
  readonly elementCount?: number;
  /** Bytes cut off the end of the frame (a truncated packet), or appended (trailing bytes). */
  readonly cut?: number;
  readonly extra?: number;
  /** Overrides byte 0 (version and type). */
  readonly firstByte?: number;
  /** Overrides byte 1 (phase). */
  readonly phaseByte?: number;
}

/** A Rina frame; fields default to a scatter-reduce CONTRIBUTION of job 7, epoch 1, to the agent. */
export function rinaFrame(spec: RinaFrameSpec): Buffer {
  const count = spec.values.length;
  const payload = Buffer.alloc(20 + 4 * count + (spec.extra ?? 0));
  encodeRina(payload, 0, {
    messageType: spec.type ?? RinaMessageType.CONTRIBUTION, phase: spec.phase ?? RinaPhase.SCATTER_REDUCE, jobId: spec.jobId ?? 7,
    senderRank: spec.senderRank ?? 1, workerId: spec.workerId ?? 0, exponent: spec.exponent ?? 3, step: spec.step ?? 0,
    segment: spec.segment ?? 0, chunk: rinaChunkField(spec.epoch ?? 1, spec.chunk ?? 0), slot: spec.slot ?? 0, set: spec.set ?? 0,
    elementCount: count, values: spec.values,
  });
  if (spec.elementCount !== undefined) payload.writeUInt16BE(spec.elementCount, 18);
  if (spec.firstByte !== undefined) payload[0] = spec.firstByte;
  if (spec.phaseByte !== undefined) payload[1] = spec.phaseByte;
  const bytes = payload.subarray(0, payload.length - (spec.cut ?? 0));
  const buf = Buffer.alloc(64 + bytes.length);
  const flow = { srcMac: spec.from.mac, dstMac: spec.to.mac, srcIp: spec.from.ip, dstIp: spec.to.ip, srcPort: spec.from.udpPort, dstPort: spec.to.udpPort, udpChecksum: true };
  const length = buildUdpFrame(buf, 0, flow, bytes);
  return Buffer.from(buf.subarray(0, length));
}

export interface DecodedRina {
  readonly frame: UdpFrame;
  readonly rina: RinaPacket;
  readonly values: number[];
}

/** A frame the switch sent, decoded with the IPv4 checksum and any non-zero UDP checksum verified. */
export function decodeRinaFrame(bytes: Buffer): DecodedRina {
  const { frame, packet, values } = decodePayload(bytes, decodeRina);
  return { frame, rina: packet, values };
}

/** The element-wise maximum. */
export function int32Max(vectors: readonly (readonly number[])[]): number[] {
  const n = vectors[0]?.length ?? 0;
  return Array.from({ length: n }, (_, i) => Math.max(...vectors.map((v) => v[i]!)));
}
