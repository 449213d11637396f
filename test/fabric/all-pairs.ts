/**
 * Ordinary traffic across a fabric, host by host: each host's "NIC" is a
 * plain UDP socket at its end of the wire (no agent code), and one
 * Ethernet/IPv4/UDP datagram goes from every host to every other host, one
 * at a time, each awaited at its destination (bounded). What arrived is
 * returned decoded, for the test to check against the addressing it expects.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { LoopbackFabric } from '../../src/fabric/index.js';
import { buildUdpFrame, ipv4FromText, ipv4ToText, macFromText, macToText, parseUdpFrame } from '../../src/wire/index.js';

export const SENT_TTL = 64;
const UDP_BASE = 30_000;

export interface Arrival {
  readonly from: string;
  readonly to: string;
  readonly ethSrc: string;
  readonly ethDst: string;
  readonly srcIp: string;
  readonly dstIp: string;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly ttl: number;
}

/** The UDP port host i (in the fabric's order) sends from and receives on. */
export const udpPortOf = (fabric: LoopbackFabric, host: string): number => UDP_BASE + [...fabric.hosts.keys()].indexOf(host);

function bind(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve(socket));
  });
}

/** Sends every ordered pair's datagram and returns what arrived, in sending order; throws when one does not arrive within `waitMs`. */
export async function sendAllPairs(fabric: LoopbackFabric, waitMs = 10_000): Promise<{ arrivals: Arrival[]; strays: number }> {
  const names = [...fabric.hosts.keys()];
  const sockets = new Map<string, Socket>();
  const arrivals: Arrival[] = [];
  let strays = 0;
  let expecting: { payload: string; done: (a: Arrival) => void } | undefined;
  try {
    for (const name of names) {
      const socket = await bind(fabric.host(name).localPort);
      sockets.set(name, socket);
      socket.on('message', (msg) => {
        const f = parseUdpFrame(msg);
        const payload = f.ok ? msg.subarray(f.payloadOffset, f.payloadOffset + f.payloadLength).toString('utf8') : '';
        const [from, to] = payload.split('>');
        if (!f.ok || to !== name || expecting?.payload !== payload) {
          strays++;
          return;
        }
        expecting.done({
          from: from!,
          to,
          ethSrc: macToText(f.ethernet.srcMac),
          ethDst: macToText(f.ethernet.dstMac),
          srcIp: ipv4ToText(f.ipv4.srcIp),
          dstIp: ipv4ToText(f.ipv4.dstIp),
          srcPort: f.udp.srcPort,
          dstPort: f.udp.dstPort,
          ttl: f.ipv4.ttl,
        });
      });
    }
    const frame = Buffer.alloc(1514);
    for (const from of names) {
      for (const to of names) {
        if (from === to) continue;
        const a = fabric.host(from);
        const b = fabric.host(to);
        const payload = `${from}>${to}`;
        const length = buildUdpFrame(
          frame,
          0,
          { srcMac: macFromText(a.mac), dstMac: macFromText(fabric.nextHopMac(from, to)), srcIp: ipv4FromText(a.ip), dstIp: ipv4FromText(b.ip), srcPort: udpPortOf(fabric, from), dstPort: udpPortOf(fabric, to), ttl: SENT_TTL },
          Buffer.from(payload),
        );
        let timer: NodeJS.Timeout | undefined;
        const arrived = new Promise<Arrival | undefined>((resolve) => {
          expecting = { payload, done: resolve };
          timer = setTimeout(() => resolve(undefined), waitMs);
        });
        sockets.get(from)!.send(frame.subarray(0, length), a.peerPort, a.peerAddress);
        const arrival = await arrived;
        clearTimeout(timer);
        expecting = undefined;
        if (!arrival) throw new Error(`${payload}: nothing arrived within ${waitMs} ms`);
        arrivals.push(arrival);
      }
    }
    return { arrivals, strays };
  } finally {
    await Promise.all([...sockets.values()].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
