/**
 * Batched agent sockets coalesce datagrams (UDP GSO) only on UDP wires: on a
 * network every device that does not segment a GSO message sees it as one
 * packet (marking, counting, shaping), so kernel UDP transports send each
 * datagram as a packet of its own. Seen from a receiver with UDP GRO on: GSO
 * messages arrive whole (several datagrams in one), single datagrams alone.
 */
import { afterEach, expect, test } from 'vitest';
import { KernelUdpTransport, UdpWireTransport } from '../../../src/agent/transport/index.js';
import { BatchedUdpSocket } from '../../../src/net/udp-batch/batched-udp-socket.js';
import { eventually } from './helpers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const COUNT = 20;

function groReceiver(): { socket: BatchedUdpSocket; received: Buffer[] } {
  const received: Buffer[] = [];
  const socket = BatchedUdpSocket.open(
    { family: 4, address: '127.0.0.1', port: 0 },
    (datagram) => received.push(Buffer.from(datagram)),
    (error) => {
      throw error;
    },
  );
  cleanups.push(() => socket.close());
  return { socket, received };
}

test('a UDP wire sends a burst of equal frames as GSO messages; the receiver gets every frame, whole and in order', async () => {
  const far = groReceiver();
  const wire = await UdpWireTransport.open({
    udpIo: 'batched',
    peerPort: far.socket.localPort,
    host: { mac: '02:00:00:00:00:01', ip: '10.0.0.1', udpPort: 40001 },
    remote: { mac: '02:00:00:00:00:fe', ip: '10.0.0.254', udpPort: 0xbee0 },
  });
  cleanups.push(() => wire.close());
  for (let i = 0; i < COUNT; i++) wire.send(Buffer.alloc(100, i));
  expect(await eventually(() => far.received.length === COUNT)).toBe(true);
  expect(far.received.map((frame) => frame.at(-1))).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  expect(far.socket.statistics().groMessages).toBeGreaterThan(0);
});

test('a kernel UDP transport sends every datagram as a packet of its own, even in a burst', async () => {
  const far = groReceiver();
  const t = await KernelUdpTransport.open({ udpIo: 'batched', localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: far.socket.localPort });
  cleanups.push(() => t.close());
  for (let i = 0; i < COUNT; i++) t.send(Buffer.alloc(100, i));
  expect(await eventually(() => far.received.length === COUNT)).toBe(true);
  expect(far.received).toEqual(Array.from({ length: COUNT }, (_, i) => Buffer.alloc(100, i)));
  expect(far.socket.statistics().groMessages).toBe(0);
  expect(t.counters).toMatchObject({ datagramsOut: COUNT, sendDrops: 0 });
});
