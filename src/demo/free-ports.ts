/**
 * Free ports on 127.0.0.1 for processes that must know each other's ports
 * before they start (a UDP wire names both ends; a ring worker knows every
 * peer). The sockets that find them are closed before the ports are handed
 * out, so another program could take one in between. Ports the system picks
 * (port 0) come from the kernel's ephemeral range, which every other port-0
 * bind and outgoing connection on the machine also draws from: a parallel
 * test run took one of a demo's ports that way. So the ports come from below
 * that range, at random from CHOSEN_LOW..CHOSEN_HIGH, each checked by binding
 * it; only a program choosing the same way could still collide. Where the
 * range cannot be read or overlaps, the system picks. All of one call's
 * sockets are held together, so its ports are distinct.
 */
import { readFileSync } from 'node:fs';
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';

const LOOPBACK = '127.0.0.1';
const CHOSEN_LOW = 10_000;
/** Exclusive; test/helpers/test-ports.ts takes its ports from here up. */
const CHOSEN_HIGH = 20_000;
/** Random ports tried per port wanted before the system picks instead. */
const TRIES_PER_PORT = 20;

/** The kernel's lowest ephemeral port (Linux), or undefined where it cannot be read. */
export function ephemeralPortLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

interface Bound {
  readonly port: number;
  close(): Promise<void>;
}

function bindUdp(port: number): Promise<Bound | undefined> {
  return new Promise((resolve) => {
    const socket: Socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(undefined);
    });
    socket.bind(port, LOOPBACK, () => resolve({ port: socket.address().port, close: () => new Promise((done) => socket.close(() => done())) }));
  });
}

function listenTcp(port: number): Promise<Bound | undefined> {
  return new Promise((resolve) => {
    const server: Server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, LOOPBACK, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        resolve(undefined);
        return;
      }
      resolve({ port: address.port, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

async function freePorts(count: number, bind: (port: number) => Promise<Bound | undefined>, kind: string): Promise<number[]> {
  const held: Bound[] = [];
  try {
    const low = ephemeralPortLow();
    if (low !== undefined && low >= CHOSEN_HIGH) {
      for (let tries = 0; held.length < count && tries < count * TRIES_PER_PORT; tries++) {
        const port = CHOSEN_LOW + Math.floor(Math.random() * (CHOSEN_HIGH - CHOSEN_LOW));
        if (held.some((b) => b.port === port)) continue;
        const bound = await bind(port);
        if (bound) held.push(bound);
      }
    }
    while (held.length < count) {
      const bound = await bind(0);
      if (!bound) throw new Error(`no free ${kind} port on ${LOOPBACK}`);
      held.push(bound);
    }
    return held.map((b) => b.port);
  } finally {
    await Promise.all(held.map((b) => b.close()));
  }
}

/** `count` distinct free UDP ports. */
export function freeUdpPorts(count: number): Promise<number[]> {
  return freePorts(count, bindUdp, 'UDP');
}

/** `count` distinct free TCP ports. */
export function freeTcpPorts(count: number): Promise<number[]> {
  return freePorts(count, listenTcp, 'TCP');
}
