// A connection closed right after its last frame must deliver that frame whole to a peer that
// reads slowly but steadily (a parameter server's result on a 10 Mbit/s link): the socket is only
// destroyed when its queued bytes stop leaving, never on a fixed timer. The peer here throttles
// its reads so that the transfer takes well over a second (the old fixed grace period).
import net from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { encodeData } from '../../../src/agent/baseline/frame.js';
import { FramedConnection } from '../../../src/agent/baseline/framed-connection.js';

const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

test('a large last frame reaches a slow reader whole after close()', async () => {
  const values = new Float32Array(4 * 1024 * 1024).map((_, i) => i);
  const frame = encodeData({ op: 1, step: 0, chunk: 0, offset: 0 }, values);
  let closedAfterMs = 0;
  const server = net.createServer((socket) => {
    const conn = new FramedConnection(socket, 'reader', frame.length);
    void (async () => {
      const started = performance.now();
      await conn.send(frame);
      await conn.close();
      closedAfterMs = performance.now() - started;
    })();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect({ host: '127.0.0.1', port });
  let received = 0;
  const done = new Promise<void>((resolve) => client.on('close', () => resolve()));
  client.on('data', (chunk: Buffer) => {
    received += chunk.length;
    // About 4 MiB/s: 16 MiB take about 4 s, with steady progress.
    client.pause();
    setTimeout(() => client.resume(), chunk.length / 4096);
  });
  await done;
  expect(received).toBe(frame.length);
  expect(closedAfterMs).toBeGreaterThan(1000);
}, 60_000);
