/**
 * UDP ports for tests that must name a port before the socket that uses it
 * is bound (a UDP wire names both of its ends). `freeUdpPorts` lets the
 * kernel pick, then closes the sockets; until the test binds again, any
 * port-0 bind on the machine (another test file's agent, relay or client) may
 * be given the same port, and the test fails with EADDRINUSE. These come from
 * below the kernel's ephemeral range, which port-0 binds never use, and from a
 * slice of that range of each vitest worker's own, so test files running in
 * parallel never pick the same port (nor the demo's own choices, which stay
 * below FIRST: src/demo/free-ports.ts). Each port is still checked by binding it.
 */
import { createSocket, type Socket } from 'node:dgram';
import { ephemeralPortLow, freeUdpPorts } from '../../src/demo/free-ports.js';

const FIRST = 20_000;
const SLICE = 1_500;
const WORKER_SLICES = 8;

const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
const sliceStart = FIRST + (((Number.isInteger(poolId) && poolId > 0 ? poolId : 1) - 1) % WORKER_SLICES) * SLICE;
const low = ephemeralPortLow();
const usable = low !== undefined && sliceStart + SLICE <= low;
let cursor = sliceStart;

function tryBind(port: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(undefined);
    });
    socket.bind(port, '127.0.0.1', () => resolve(socket));
  });
}

/** `count` distinct UDP ports on 127.0.0.1 that no port-0 bind and no parallel test file will take. */
export async function testUdpPorts(count: number): Promise<number[]> {
  if (!usable) return freeUdpPorts(count);
  const held: Socket[] = [];
  try {
    for (let tries = 0; held.length < count && tries < SLICE; tries++) {
      const port = cursor;
      cursor = cursor + 1 < sliceStart + SLICE ? cursor + 1 : sliceStart;
      const socket = await tryBind(port);
      if (socket) held.push(socket);
    }
    if (held.length < count) throw new Error(`test-ports: fewer than ${count} free UDP ports in ${sliceStart}–${sliceStart + SLICE - 1}`);
    return held.map((s) => s.address().port);
  } finally {
    await Promise.all(held.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
