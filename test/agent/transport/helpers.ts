/**
 * Helpers of the transport tests: plain dgram sockets on 127.0.0.1 for the
 * far end, waiting a bounded time for datagrams, and a check that no UDP
 * handle is left open.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

export interface RawSocket {
  readonly socket: Socket;
  readonly port: number;
  /** Datagrams received so far, with their sources. */
  readonly received: { msg: Buffer; rinfo: RemoteInfo }[];
  send(msg: Buffer, port: number): Promise<void>;
  close(): Promise<void>;
}

export async function rawSocket(): Promise<RawSocket> {
  const socket = createSocket('udp4');
  const received: { msg: Buffer; rinfo: RemoteInfo }[] = [];
  socket.on('message', (msg, rinfo) => received.push({ msg, rinfo }));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    socket,
    port: socket.address().port,
    received,
    send: (msg, port) => new Promise((resolve, reject) => socket.send(msg, port, '127.0.0.1', (err) => (err ? reject(err) : resolve()))),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** Polls `condition` every 5 ms, at most `tries` times; true once it holds. */
export async function eventually(condition: () => boolean, tries = 400): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return condition();
}

/** The UDP handles still open, after a bounded wait for closes to finish. */
export async function openUdpHandles(): Promise<string[]> {
  const udp = (): string[] => process.getActiveResourcesInfo().filter((name) => name.startsWith('UDP'));
  await eventually(() => udp().length === 0, 200);
  return udp();
}
