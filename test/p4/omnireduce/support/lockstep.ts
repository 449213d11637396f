// The switch and the host aggregator side by side: each message goes to
// both, from the same sender, and what each sends for it comes back to be
// compared (as "ip:port payload-hex" lines, sorted), beside the switch's
// frames decoded.
import type { CapturedFrame } from '../../../e2e/switchml/support/capture-port.js';
import { ipv4ToText, parseUdpFrame, type OmniReducePacket } from '../../../../src/wire/index.js';
import { HostReference, type Sent } from './host-reference.js';
import { decodeOmniFrame, omniFrame, type MessageSpec } from './omnireduce-network.js';
import type { OmniReduceRig } from './omnireduce-rig.js';

export interface Emitted {
  readonly port: number;
  readonly to: string;
  readonly dstMac: number;
  readonly srcMac: number;
  readonly srcIp: number;
  readonly srcPort: number;
  readonly ttl: number;
  readonly udpChecksum: number;
  readonly msg: OmniReducePacket;
  readonly values: number[];
  readonly payload: Buffer;
}

export function emitted(frames: readonly CapturedFrame[]): Emitted[] {
  return frames.map((f) => {
    const d = decodeOmniFrame(f.frame);
    return {
      port: f.port, to: `${ipv4ToText(d.frame.ipv4.dstIp)}:${d.frame.udp.dstPort}`, dstMac: d.frame.ethernet.dstMac, srcMac: d.frame.ethernet.srcMac,
      srcIp: d.frame.ipv4.srcIp, srcPort: d.frame.udp.srcPort, ttl: d.frame.ipv4.ttl, udpChecksum: d.frame.udp.checksum, msg: d.msg, values: d.values, payload: d.payload,
    };
  });
}

/** "ip:port hex" per datagram, sorted: the same for the switch and the host when they send the same bytes to the same workers. */
export function lines(sent: readonly { readonly to: string; readonly payload: Buffer }[]): string[] {
  return sent.map((s) => `${s.to} ${s.payload.toString('hex')}`).sort();
}

export class Lockstep {
  constructor(
    readonly rig: OmniReduceRig,
    readonly host: HostReference,
  ) {}

  /**
   * The message into both; what the switch emitted (decoded) and what the
   * host sent. The host gets the UDP payload of the very frame the switch
   * got, or nothing when that frame is not a whole UDP datagram (a socket
   * would never deliver it).
   */
  send(spec: MessageSpec): { out: Emitted[]; host: Sent[] } {
    const frame = omniFrame(spec);
    const out = emitted(this.rig.send(spec.from.switchPort, frame));
    const f = parseUdpFrame(frame);
    const host = f.ok ? this.host.receive(spec.from, frame.subarray(f.payloadOffset, f.payloadOffset + f.payloadLength)) : [];
    return { out, host };
  }

  /** As send, and the two must agree byte for byte; returns the switch's frames. */
  agree(spec: MessageSpec): Emitted[] {
    const { out, host } = this.send(spec);
    const a = lines(out);
    const b = lines(host);
    if (a.join('\n') !== b.join('\n')) throw new Error(`the switch and the host aggregator differ for ${JSON.stringify({ ...spec, from: spec.from.ip })}:\nswitch:\n${a.join('\n')}\nhost:\n${b.join('\n')}`);
    return out;
  }
}
