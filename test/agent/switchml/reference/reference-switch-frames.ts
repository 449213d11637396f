/**
 * The reference SwitchML switch with Ethernet frames around it: the parts of
 * `p4/switchml.p4` that ReferenceSwitchMl leaves to its harness, so that its
 * output can be compared byte for byte with the frames a switch running the
 * program emits (docs/p4-programs.md §3, the table of result fields).
 *
 * - Only an IPv4/UDP frame to the switch's IP, to a SwitchML port, with a
 *   valid IPv4 header checksum is aggregated; anything else is outside the
 *   model (`process` returns undefined: the program forwards it).
 * - A RESULT leaves once per worker of the job, in the order of the job's
 *   workers (the multicast group's replica order), each copy addressed by its
 *   worker's entry: Ethernet and IPv4 destination, UDP destination port.
 * - A RETRANSMITTED_RESULT goes back out of the ingress port to the update's
 *   Ethernet source, IPv4 source and UDP source port.
 * - Both come from the switch's MAC and IP, with TTL 64, the update's UDP
 *   destination port as their source port, UDP checksum 0, and the IPv4
 *   header checksum recomputed; every other byte is the update's.
 */
import { inaProtocolForPort, internetChecksum, ipv4ChecksumValid, parseUdpFrame, writeMac } from '../../../../src/wire/index.js';
import type { ReferenceSwitchMl, SwitchMlVerdict } from './reference-switch.js';

/** The result TTL of the program (SWITCHML_RESULT_TTL). */
const RESULT_TTL = 64;

/** Where a job's worker is: its switch port and the addresses its result copy gets. */
export interface ReferenceWorkerEndpoint {
  readonly jobId: number;
  readonly workerId: number;
  readonly port: number;
  readonly mac: number;
  readonly ip: number;
  readonly udpPort: number;
}

export interface OutputFrame {
  readonly port: number;
  readonly frame: Buffer;
}

export interface FrameVerdict {
  readonly verdict: SwitchMlVerdict;
  /** What leaves the switch, in order. */
  readonly out: readonly OutputFrame[];
}

export class ReferenceSwitchFrames {
  private readonly endpoints = new Map<string, ReferenceWorkerEndpoint>();

  constructor(
    readonly model: ReferenceSwitchMl,
    readonly switchAddress: { readonly mac: number; readonly ip: number },
    endpoints: readonly ReferenceWorkerEndpoint[],
  ) {
    for (const e of endpoints) this.endpoints.set(`${e.jobId}/${e.workerId}`, e);
  }

  /** One frame in on `ingressPort`; undefined when the program would not aggregate it. */
  process(frame: Buffer, ingressPort: number): FrameVerdict | undefined {
    const parsed = parseUdpFrame(frame, 0, frame.length, { verifyChecksums: false });
    if (!parsed.ok) return undefined;
    const ipOffset = parsed.ethernet.payloadOffset;
    if (!ipv4ChecksumValid(frame, ipOffset, parsed.ipv4.headerLength)) return undefined;
    if (parsed.ipv4.dstIp !== this.switchAddress.ip || inaProtocolForPort(parsed.udp.dstPort) !== 'switchml') return undefined;
    const verdict = this.model.process(frame, parsed.payloadOffset, parsed.payloadLength, { sourceIp: parsed.ipv4.srcIp, sourcePort: parsed.udp.srcPort });
    const udpOffset = ipOffset + parsed.ipv4.headerLength;
    const reply = (packet: Buffer, dst: { mac: number; ip: number; udpPort: number }): Buffer => {
      const out = Buffer.from(frame);
      writeMac(out, 0, dst.mac);
      writeMac(out, 6, this.switchAddress.mac);
      out[ipOffset + 8] = RESULT_TTL;
      out.writeUInt32BE(this.switchAddress.ip >>> 0, ipOffset + 12);
      out.writeUInt32BE(dst.ip >>> 0, ipOffset + 16);
      out.writeUInt16BE(0, ipOffset + 10);
      out.writeUInt16BE(internetChecksum(out, ipOffset, parsed.ipv4.headerLength), ipOffset + 10);
      out.writeUInt16BE(parsed.udp.dstPort, udpOffset);
      out.writeUInt16BE(dst.udpPort, udpOffset + 2);
      out.writeUInt16BE(0, udpOffset + 6);
      packet.copy(out, parsed.payloadOffset);
      return out;
    };
    if (verdict.action === 'unicast') {
      const back = { mac: parsed.ethernet.srcMac, ip: parsed.ipv4.srcIp, udpPort: parsed.udp.srcPort };
      return { verdict, out: [{ port: ingressPort, frame: reply(verdict.packet, back) }] };
    }
    if (verdict.action === 'multicast') {
      const out: OutputFrame[] = [];
      for (const workerId of verdict.workerIds) {
        // A replica without a result_rewrite entry is dropped in egress.
        const e = this.endpoints.get(`${verdict.jobId}/${workerId}`);
        if (e) out.push({ port: e.port, frame: reply(verdict.packet, e) });
      }
      return { verdict, out };
    }
    return { verdict, out: [] };
  }
}
