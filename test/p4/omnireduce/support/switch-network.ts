// Workers on an in-memory network whose middle is omnireduce.p4 on the
// emulator (OmniReduceRig): a worker's transport builds its Ethernet/IPv4/UDP
// frame, which crosses a seeded ImpairedLink to its switch port; what the
// switch sends out of a port crosses that port's link back, and the worker
// gets the UDP payload of frames addressed to it. Every frame that reaches
// the switch is also handed, as its UDP payload and sender, to a host
// aggregator (HostReference): `mismatches` lists each frame for which the
// two sent different bytes or to different workers.
import type { WorkerTransport } from '../../../../src/agent/omnireduce/sourced-transport.js';
import type { SocketAddress } from '../../../../src/agent/transport/index.js';
import { ImpairedLink } from '../../../../src/util/impaired-link.js';
import { buildUdpFrame, ipv4FromText, parseUdpFrame } from '../../../../src/wire/index.js';
import type { HostReference } from './host-reference.js';
import { emitted, lines } from './lockstep.js';
import { SWITCH_MAC, type Host } from './omnireduce-network.js';
import type { OmniReduceRig } from './omnireduce-rig.js';

export interface Impairment {
  readonly loss?: number;
  readonly duplicate?: number;
  readonly reorder?: number;
}

type Listener = (buf: Buffer, offset: number, length: number) => void;

class WireEnd implements WorkerTransport {
  listener: Listener | undefined;

  constructor(
    readonly host: Host,
    private readonly up: ImpairedLink,
  ) {}

  sendTo(to: SocketAddress, payload: Uint8Array, length = payload.length): boolean {
    const buf = Buffer.alloc(64 + length);
    const flow = { srcMac: this.host.mac, dstMac: SWITCH_MAC, srcIp: this.host.ip, dstIp: ipv4FromText(to.address), srcPort: this.host.udpPort, dstPort: to.port, udpChecksum: true };
    const n = buildUdpFrame(buf, 0, flow, payload.subarray(0, length));
    return this.up.offer(buf.subarray(0, n));
  }

  onDatagram(listener: Listener | undefined): void {
    this.listener = listener;
  }

  readonly receive = (frame: Buffer): void => {
    const f = parseUdpFrame(frame);
    if (!f.ok || f.ipv4.dstIp !== this.host.ip || f.udp.dstPort !== this.host.udpPort) return;
    this.listener?.(frame, f.payloadOffset, f.payloadLength);
  };
}

export class SwitchNetwork {
  /** Frames for which the switch and the host aggregator disagreed, described. */
  readonly mismatches: string[] = [];
  /** Frames the switch received from the workers. */
  framesIn = 0;
  private readonly ends: WireEnd[] = [];
  private readonly links: ImpairedLink[] = [];
  private readonly downByPort = new Map<number, ImpairedLink>();

  constructor(
    private readonly rig: OmniReduceRig,
    hosts: readonly Host[],
    private readonly reference: HostReference | undefined,
    impair: Impairment = {},
    seed: number | string = 1,
  ) {
    for (const host of hosts) {
      const up = new ImpairedLink({ seed, ...impair }, 1 << 16, `up-${host.switchPort}`, (frame) => this.atSwitch(host, frame));
      const end = new WireEnd(host, up);
      const down = new ImpairedLink({ seed, ...impair }, 1 << 16, `down-${host.switchPort}`, end.receive);
      this.ends.push(end);
      this.links.push(up, down);
      this.downByPort.set(host.switchPort, down);
    }
  }

  /** The transport of the i-th host given to the constructor. */
  transport(i: number): WorkerTransport {
    return this.ends[i]!;
  }

  /** True once nothing is in flight; false after `maxTurns` turns of the event loop. */
  async settle(maxTurns = 10_000): Promise<boolean> {
    for (let turn = 0; turn < maxTurns; turn++) {
      if (this.links.every((l) => l.idle)) return true;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return false;
  }

  get lost(): number {
    return this.links.reduce((n, l) => n + l.stats.lost, 0);
  }

  private atSwitch(host: Host, frame: Buffer): void {
    this.framesIn++;
    const out = this.rig.send(host.switchPort, frame);
    if (this.reference) this.compare(host, frame, out);
    for (const o of out) this.downByPort.get(o.port)?.offer(o.frame);
  }

  private compare(host: Host, frame: Buffer, out: ReturnType<OmniReduceRig['send']>): void {
    const f = parseUdpFrame(frame);
    if (!f.ok) return;
    const sent = this.reference!.receive(host, frame.subarray(f.payloadOffset, f.payloadOffset + f.payloadLength));
    const a = lines(emitted(out));
    const b = lines(sent);
    if (a.join('\n') !== b.join('\n')) this.mismatches.push(`from port ${host.switchPort}: switch [${a.join(', ')}] host [${b.join(', ')}]`);
  }
}
