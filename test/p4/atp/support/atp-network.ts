// The hosts of the ATP switch tests and the frames they send: workers on
// switch ports 1..8, the parameter server (PS) on port 9 (the uplink), all
// on one L2 segment; ATP frames built with src/wire's codec, decoded with
// every checksum verified.
import {
  buildUdpFrame, decodeAtp, encodeAtp, ipv4FromText, macFromText,
  type AtpHeaderFields, type AtpPacket, type UdpFrame,
} from '../../../../src/wire/index.js';
import { rackWorker, type Host } from '../../support/hosts.js';
import { decodePayload } from '../../support/payloads.js';

export { SWITCH_IP, SWITCH_MAC, type Host } from '../../support/hosts.js';
export { contribution, int32Sum } from '../../support/payloads.js';

export const UPLINK = 9;
export const PS: Host = { mac: macFromText('02:00:00:00:09:01'), ip: ipv4FromText('10.0.9.1'), udpPort: 0xbf00, switchPort: UPLINK };

/** Worker w (0..7): switch port w + 1, UDP port in the ATP block. */
export function worker(w: number): Host {
  return rackWorker(w, 0xbf01);
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
  const { frame, packet, values } = decodePayload(bytes, decodeAtp);
  return { frame, atp: packet, values };
}

/** The bitmap of these bit positions. */
export function bits(...positions: number[]): number {
  return positions.reduce((m, p) => (m | (1 << p)) >>> 0, 0);
}
