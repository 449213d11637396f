/**
 * Tiny test "switches" that run the reference SwitchML model over real UDP
 * sockets on 127.0.0.1, with seeded loss of updates and results:
 *
 * - `KernelUdpTestSwitch`: one UDP socket, as a switch's SwitchML address is
 *   to agents on the kernel's UDP. Results go to each worker's address from
 *   the job spec; retransmitted results go back to the sender.
 * - `WireTestSwitch`: one UDP-wire port per worker, exchanging Ethernet frames.
 *   It learns each worker's MAC by ARP (the agents answer), parses frames,
 *   runs the model on SwitchML payloads and sends results as frames rewritten
 *   per worker (addresses and UDP port, checksum 0), as the P4 egress does.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { ReferenceSwitchMl, type SwitchMlVerdict } from '../reference/reference-switch.js';
import { SeededRandom } from '../../../../src/util/seeded-random.js';
import {
  ArpOperation,
  buildArpFrame,
  buildUdpFrame,
  ETHERTYPE_ARP,
  inPortBlock,
  parseArp,
  parseEthernet,
  parseUdpFrame,
  SWITCHML_PORTS,
} from '../../../../src/wire/index.js';

async function bindSocket(onMessage: (msg: Buffer, rinfo: RemoteInfo) => void): Promise<Socket> {
  // Buffers as large as the emulator's UDP wires use, so that a window of packets is not dropped by the kernel.
  const socket = createSocket({ type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 });
  socket.on('message', onMessage);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

function closeSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.close(() => resolve()));
}

export interface TestSwitchJob {
  readonly jobId: number;
  readonly slotBase: number;
  readonly poolSize: number;
  readonly workerIds: readonly number[];
}

interface Lossy {
  readonly loss?: number;
  readonly seed?: number | string;
}

class LossyModel {
  readonly model: ReferenceSwitchMl;
  dropped = 0;
  private readonly random: SeededRandom;

  constructor(
    jobs: readonly TestSwitchJob[],
    private readonly options: Lossy,
  ) {
    this.model = new ReferenceSwitchMl({ capacity: 256 });
    for (const job of jobs) this.model.addJob(job);
    this.random = new SeededRandom(options.seed ?? 1);
  }

  /** The verdict for an update, or undefined when the update or its result is "lost". */
  process(buf: Buffer, offset: number, length: number): SwitchMlVerdict | undefined {
    if (this.lose()) return undefined;
    return this.model.process(buf, offset, length);
  }

  lose(): boolean {
    const lost = this.random.chance(this.options.loss ?? 0);
    if (lost) this.dropped++;
    return lost;
  }
}

export class KernelUdpTestSwitch {
  private constructor(
    private readonly socket: Socket,
    readonly lossy: LossyModel,
    private readonly workers: Map<string, { address: string; port: number }>,
  ) {}

  /**
   * `workers` maps "job/worker" to the worker's socket address, as the job spec
   * does; workers left out are learned from the source of their first packet.
   */
  static async open(jobs: readonly TestSwitchJob[], workers = new Map<string, { address: string; port: number }>(), options: Lossy = {}): Promise<KernelUdpTestSwitch> {
    const lossy = new LossyModel(jobs, options);
    // The socket's handler needs the switch, which needs the socket: join them through a holder.
    const holder: { sw?: KernelUdpTestSwitch } = {};
    const socket = await bindSocket((msg, rinfo) => holder.sw?.ingress(msg, rinfo));
    holder.sw = new KernelUdpTestSwitch(socket, lossy, workers);
    return holder.sw;
  }

  get port(): number {
    return this.socket.address().port;
  }

  private ingress(msg: Buffer, rinfo: RemoteInfo): void {
    // A worker missing from the map is learned from its first packet (job id at byte 2, worker id at byte 1).
    if (msg.length >= 14) {
      const key = `${msg.readUInt16BE(2)}/${msg[1]}`;
      if (!this.workers.has(key)) this.workers.set(key, { address: rinfo.address, port: rinfo.port });
    }
    const verdict = this.lossy.process(msg, 0, msg.length);
    if (verdict?.action === 'multicast') {
      for (const workerId of verdict.workerIds) {
        const to = this.workers.get(`${verdict.jobId}/${workerId}`);
        if (to !== undefined && !this.lossy.lose()) this.socket.send(verdict.packet, to.port, to.address);
      }
    } else if (verdict?.action === 'unicast' && !this.lossy.lose()) {
      this.socket.send(verdict.packet, rinfo.port, rinfo.address);
    }
  }

  close(): Promise<void> {
    return closeSocket(this.socket);
  }
}

/** A worker as the wire switch knows it: its IP and UDP port (its MAC is learned by ARP). */
export interface WireWorker {
  readonly jobId: number;
  readonly workerId: number;
  readonly ip: number;
  readonly udpPort: number;
}

interface WirePort {
  readonly socket: Socket;
  readonly worker: WireWorker;
  peerPort: number;
  mac: number | undefined;
}

export class WireTestSwitch {
  readonly ports: WirePort[] = [];
  private readonly frame = Buffer.alloc(2048);

  private constructor(
    readonly lossy: LossyModel,
    readonly mac: number,
    readonly ip: number,
  ) {}

  /** One port per worker, bound on 127.0.0.1; call `connect` once the agents are open. */
  static async open(jobs: readonly TestSwitchJob[], workers: readonly WireWorker[], address: { mac: number; ip: number }, options: Lossy = {}): Promise<WireTestSwitch> {
    const sw = new WireTestSwitch(new LossyModel(jobs, options), address.mac, address.ip);
    for (const worker of workers) {
      const holder: { port?: WirePort } = {};
      const socket = await bindSocket((msg, rinfo) => {
        if (holder.port) sw.ingress(holder.port, msg, rinfo);
      });
      holder.port = { socket, worker, peerPort: 0, mac: undefined };
      sw.ports.push(holder.port);
    }
    return sw;
  }

  portOf(jobId: number, workerId: number): WirePort {
    return this.ports.find((p) => p.worker.jobId === jobId && p.worker.workerId === workerId)!;
  }

  /** Points each port at its agent's wire socket and asks each agent for its MAC by ARP. */
  connect(peerPorts: ReadonlyMap<WirePort, number>): void {
    for (const [port, peerPort] of peerPorts) {
      port.peerPort = peerPort;
      const arp = { operation: ArpOperation.REQUEST, senderMac: this.mac, senderIp: this.ip, targetMac: 0, targetIp: port.worker.ip } as const;
      port.socket.send(Buffer.from(this.frame.subarray(0, buildArpFrame(this.frame, 0, arp))), peerPort, '127.0.0.1');
    }
  }

  get everyMacLearned(): boolean {
    return this.ports.every((p) => p.mac !== undefined);
  }

  private ingress(port: WirePort, msg: Buffer, rinfo: RemoteInfo): void {
    if (rinfo.port !== port.peerPort) return;
    const eth = parseEthernet(msg);
    if (!eth.ok) return;
    if (eth.etherType === ETHERTYPE_ARP) {
      const arp = parseArp(msg, eth.payloadOffset);
      if (arp.ok && arp.operation === ArpOperation.REPLY && arp.senderIp === port.worker.ip) port.mac = arp.senderMac;
      return;
    }
    const udp = parseUdpFrame(msg);
    if (!udp.ok || !inPortBlock(udp.udp.dstPort, SWITCHML_PORTS) || udp.ipv4.dstIp !== this.ip) return;
    const verdict = this.lossy.process(msg, udp.payloadOffset, udp.payloadLength);
    if (verdict?.action === 'multicast') {
      for (const workerId of verdict.workerIds) this.egress(this.portOf(verdict.jobId, workerId), verdict.packet, udp.udp.dstPort);
    } else if (verdict?.action === 'unicast') {
      this.egress(port, verdict.packet, udp.udp.dstPort);
    }
  }

  /** The result rewritten for one worker, as the P4 egress does by egress_rid. */
  private egress(port: WirePort, packet: Buffer, switchPort: number): void {
    if (port.mac === undefined || this.lossy.lose()) return;
    const flow = { srcMac: this.mac, dstMac: port.mac, srcIp: this.ip, dstIp: port.worker.ip, srcPort: switchPort, dstPort: port.worker.udpPort, udpChecksum: false };
    const length = buildUdpFrame(this.frame, 0, flow, packet);
    port.socket.send(Buffer.from(this.frame.subarray(0, length)), port.peerPort, '127.0.0.1');
  }

  async close(): Promise<void> {
    await Promise.all(this.ports.map((p) => closeSocket(p.socket)));
  }
}
