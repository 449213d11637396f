/**
 * Free ports on 127.0.0.1 for processes that must know each other's ports
 * before they start (a UDP wire names both ends; a ring worker knows every
 * peer). The system picks them (port 0) and the sockets are closed before the
 * ports are handed out: another program could take one in between, which on
 * a loopback demo is rare enough; the process that fails to bind says so.
 * All of one call's sockets are held together, so its ports are distinct.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';

const LOOPBACK = '127.0.0.1';

function bindUdp(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, LOOPBACK, () => resolve(socket));
  });
}

function listenTcp(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve(server));
  });
}

/** `count` distinct free UDP ports. */
export async function freeUdpPorts(count: number): Promise<number[]> {
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < count; i++) sockets.push(await bindUdp());
    return sockets.map((s) => s.address().port);
  } finally {
    await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** `count` distinct free TCP ports. */
export async function freeTcpPorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenTcp());
    return servers.map((s) => {
      const address = s.address();
      if (address === null || typeof address === 'string') throw new Error('a TCP listener has no port');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
