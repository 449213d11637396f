/**
 * Numbered datagrams across a fabric, one host to another: each host's "NIC"
 * is a plain UDP socket at its end of the wire, datagram i carries i and a
 * payload made from i, and they go out in bursts, each burst waited for
 * until the relays' counters and the arrivals account for every datagram
 * sent (bounded). What arrived is returned in arrival order, each checked
 * against what was sent.
 */
import { createSocket, type Socket } from 'node:dgram';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { LoopbackFabric } from '../../src/fabric/index.js';
import { buildUdpFrame, ipv4FromText, ipv4ToText, macFromText, parseUdpFrame } from '../../src/wire/index.js';

const SRC_PORT = 31_001;
const DST_PORT = 31_002;
const PAYLOAD_BYTES = 64;
const TTL = 64;

export interface Arrival {
  readonly index: number;
  /** Parsed, checksums right, the addresses, ports and one TTL less as sent, the payload byte for byte. */
  readonly intact: boolean;
}

/** Datagram i's payload: i, then bytes that depend on i and their place. */
export function payloadOf(index: number): Buffer {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt32BE(index, 0);
  for (let j = 4; j < PAYLOAD_BYTES; j++) payload[j] = (index * 131 + j * 17 + 7) & 0xff;
  return payload;
}

function bind(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve(socket));
  });
}

/** Resolves when `condition` holds (checked every few ms); rejects after `ms` saying what it waited for. */
function waitFor(condition: () => boolean, what: () => string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`not within ${ms} ms: ${what()}`));
    }, ms);
    const poll = setInterval(() => {
      if (!condition()) return;
      clearInterval(poll);
      clearTimeout(deadline);
      resolve();
    }, 2);
  });
}

/** Sends datagrams 0..count-1 from `from` to `to` in bursts; throws when a burst is not accounted for within `waitMs`. */
export async function sendNumbered(fabric: LoopbackFabric, from: string, to: string, count: number, burst = 16, waitMs = 10_000): Promise<Arrival[]> {
  const a = fabric.host(from);
  const b = fabric.host(to);
  const arrivals: Arrival[] = [];
  const sender = await bind(a.localPort);
  const receiver = await bind(b.localPort).catch(async (err: unknown) => {
    await new Promise<void>((resolve) => sender.close(() => resolve()));
    throw err;
  });
  try {
    receiver.on('message', (msg) => {
      const f = parseUdpFrame(msg);
      const payload = f.ok ? msg.subarray(f.payloadOffset, f.payloadOffset + f.payloadLength) : Buffer.alloc(0);
      const index = payload.length >= 4 ? payload.readUInt32BE(0) : -1;
      const intact =
        f.ok &&
        ipv4ToText(f.ipv4.srcIp) === a.ip &&
        ipv4ToText(f.ipv4.dstIp) === b.ip &&
        f.udp.srcPort === SRC_PORT &&
        f.udp.dstPort === DST_PORT &&
        f.ipv4.ttl === TTL - 1 &&
        payload.equals(payloadOf(index));
      arrivals.push({ index, intact });
    });
    const frame = Buffer.alloc(256);
    const flow = { srcMac: macFromText(a.mac), dstMac: macFromText(fabric.nextHopMac(from, to)), srcIp: ipv4FromText(a.ip), dstIp: ipv4FromText(b.ip), srcPort: SRC_PORT, dstPort: DST_PORT, ttl: TTL };
    const accounted = (sent: number) => (): boolean => {
      const up = fabric.linkCounters().get(from)!.up;
      const down = fabric.linkCounters().get(to)!.down;
      return (
        up.received === sent &&
        down.received === up.received - up.lost - up.overflowed + up.duplicated &&
        arrivals.length === down.received - down.lost - down.overflowed + down.duplicated
      );
    };
    for (let sent = 0; sent < count; ) {
      const end = Math.min(count, sent + burst);
      for (; sent < end; sent++) {
        const length = buildUdpFrame(frame, 0, flow, payloadOf(sent));
        sender.send(Buffer.from(frame.subarray(0, length)), a.peerPort, a.peerAddress);
      }
      const after = sent;
      await waitFor(accounted(after), () => `${after} sent, ${arrivals.length} arrived, counters ${JSON.stringify(Object.fromEntries(fabric.linkCounters()))}`, waitMs);
    }
    return arrivals;
  } finally {
    await Promise.all([sender, receiver].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** The local ports of this process's UDP sockets (Linux: its socket fds matched by inode in /proc/net/udp). */
export function ownUdpPorts(): number[] {
  const portByInode = new Map<string, number>();
  for (const line of readFileSync('/proc/net/udp', 'utf8').trim().split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    portByInode.set(fields[9]!, parseInt(fields[1]!.split(':')[1]!, 16));
  }
  const ports: number[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed while we looked
    }
    const port = portByInode.get(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
    if (port !== undefined) ports.push(port);
  }
  return ports.sort((x, y) => x - y);
}
