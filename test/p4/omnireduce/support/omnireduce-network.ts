// The hosts of the omnireduce.p4 packet tests and the frames they send: the
// job's workers on switch ports 1..8, a stranger on port 9, a host
// aggregator on port 10; OmniReduce messages built with src/wire's codec,
// decoded with every checksum verified.
import { buildUdpFrame, decodeOmniReduce, encodeOmniReduce, ipv4FromText, macFromText, omniReduceLength, type OmniReducePacket, type UdpFrame } from '../../../../src/wire/index.js';
import { rackWorker, SWITCH_IP, SWITCH_MAC, type Host } from '../../support/hosts.js';
import { decodePayload } from '../../support/payloads.js';

export { contribution, int32Sum } from '../../support/payloads.js';
export { SWITCH_IP, SWITCH_MAC, type Host } from '../../support/hosts.js';

/** The port the workers send to: the first of OmniReduce's block (docs/wire.md §3). */
export const AGGREGATOR_PORT = 0xbef0;

/** Worker w (0..7): switch port w + 1, UDP port 40000 + w. */
export function worker(w: number): Host {
  return rackWorker(w, 40_000);
}

export const STRANGER: Host = { mac: macFromText('02:00:00:00:09:01'), ip: ipv4FromText('10.0.9.1'), udpPort: 40_000, switchPort: 9 };
export const HOST_AGGREGATOR: Host = { mac: macFromText('02:00:00:00:0a:01'), ip: ipv4FromText('10.0.10.1'), udpPort: AGGREGATOR_PORT, switchPort: 10 };
/** The switch as the workers address it. */
export const SWITCH: Host = { mac: SWITCH_MAC, ip: SWITCH_IP, udpPort: AGGREGATOR_PORT, switchPort: 0 };

export interface MessageSpec {
  readonly from: Host;
  readonly to?: Host;
  readonly tsi: number;
  readonly slot?: number;
  readonly set?: 0 | 1;
  readonly nextTsi: number;
  readonly exponent?: number;
  /** The block (exactly the job's block size), or none: a value-less message. */
  readonly values?: readonly number[];
  /** Bytes cut off the end of the frame (a truncated message), or appended. */
  readonly cut?: number;
  readonly extra?: number;
  /** Overrides the UDP length field (the IPv4 total length follows it). */
  readonly udpLength?: number;
}

/** The OmniReduce payload of `spec`, as a worker encodes it. */
export function omniPayload(spec: MessageSpec): Buffer {
  const values = spec.values ?? [];
  const payload = Buffer.alloc(omniReduceLength(values.length) + (spec.extra ?? 0));
  encodeOmniReduce(payload, 0, { tsi: spec.tsi, slot: spec.slot ?? 0, set: spec.set ?? 0, nextTsi: spec.nextTsi, exponent: spec.exponent ?? 0, elementCount: values.length, values });
  return payload;
}

/** A frame from spec.from to the switch (or spec.to). */
export function omniFrame(spec: MessageSpec): Buffer {
  const to = spec.to ?? SWITCH;
  const payload = omniPayload(spec);
  const buf = Buffer.alloc(64 + payload.length);
  const flow = { srcMac: spec.from.mac, dstMac: to.mac, srcIp: spec.from.ip, dstIp: to.ip, srcPort: spec.from.udpPort, dstPort: to.udpPort, udpChecksum: true };
  const length = buildUdpFrame(buf, 0, flow, payload);
  const frame = Buffer.from(buf.subarray(0, length - (spec.cut ?? 0)));
  if (spec.udpLength !== undefined) {
    frame.writeUInt16BE(spec.udpLength, 14 + 20 + 4);
    frame.writeUInt16BE(spec.udpLength + 20, 14 + 2);
    frame.writeUInt16BE(0, 14 + 20 + 6);
    rewriteIpv4Checksum(frame);
  }
  return frame;
}

function rewriteIpv4Checksum(frame: Buffer): void {
  frame.writeUInt16BE(0, 14 + 10);
  let sum = 0;
  for (let i = 14; i < 34; i += 2) sum += frame.readUInt16BE(i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  frame.writeUInt16BE(~sum & 0xffff, 14 + 10);
}

export interface DecodedOmni {
  readonly frame: UdpFrame;
  readonly msg: OmniReducePacket;
  readonly values: number[];
  /** The UDP payload's bytes. */
  readonly payload: Buffer;
}

/** A frame the switch sent, decoded with the IPv4 checksum and any non-zero UDP checksum verified. */
export function decodeOmniFrame(bytes: Buffer): DecodedOmni {
  const { frame, packet, values } = decodePayload(bytes, decodeOmniReduce);
  return { frame, msg: packet, values, payload: Buffer.from(bytes.subarray(frame.payloadOffset, frame.payloadOffset + frame.payloadLength)) };
}
