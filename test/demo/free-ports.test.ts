// The demo's ports for processes that must know them before they bind: distinct, free, and
// (where the kernel's ephemeral range starts high enough, as on Linux by default) from below
// that range, where no port-0 bind or outgoing connection elsewhere on the machine can take them.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralPortLow, freeTcpPorts, freeUdpPorts } from '../../src/demo/free-ports.js';

const bindsUdp = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });

const listensTcp = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

describe('free ports for the demo', () => {
  for (const [kind, choose, binds] of [
    ['UDP', freeUdpPorts, bindsUdp],
    ['TCP', freeTcpPorts, listensTcp],
  ] as const) {
    it(`${kind}: distinct, free once handed out, and below the ephemeral range`, async () => {
      const ports = await choose(12);
      expect(new Set(ports).size).toBe(12);
      for (const port of ports) expect(await binds(port)).toBe(true);
      const low = ephemeralPortLow();
      if (low !== undefined && low >= 20_000) for (const port of ports) expect(port).toBeLessThan(low);
    });
  }
});
