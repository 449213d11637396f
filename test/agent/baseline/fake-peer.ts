/**
 * A hand-driven ring neighbour for fault tests: it plays rank 0 of a
 * two-rank ring against a real rank 1, speaking the frames by hand so a test
 * can send what a correct peer never would.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { FrameDecoder } from '../../../src/agent/baseline/frame-decoder.js';
import { encodeHello, maxBodyBytes, ROLE, type Frame } from '../../../src/agent/baseline/frame.js';
import type { Endpoint } from '../../../src/agent/baseline/endpoint.js';

/** A socket whose incoming frames are collected, with a promise for its close. */
export class FrameSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<void>;
  private readonly decoder = new FrameDecoder(maxBodyBytes(1 << 20), 'real peer');
  private waiters: (() => void)[] = [];

  constructor(readonly socket: Socket) {
    socket.on('data', (bytes: Buffer) => {
      this.frames.push(...this.decoder.push(bytes));
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    void this.closed.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Waits until `count` frames have arrived (or the socket closed). */
  async waitForFrames(count: number): Promise<Frame[]> {
    // Bounded: every turn is woken by new data or the close, and stops at the close.
    while (this.frames.length < count && !this.socket.destroyed) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.frames;
  }

  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }
}

export class FakeRankZero {
  /** The connection rank 1 made to us (we are its successor). */
  fromRealRank!: FrameSocket;
  /** Our connection to rank 1 (we are its predecessor). */
  toRealRank!: FrameSocket;

  private constructor(
    private readonly server: Server,
    readonly endpoint: Endpoint,
  ) {}

  static async listen(): Promise<FakeRankZero> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    return new FakeRankZero(server, { host: '127.0.0.1', port: address.port });
  }

  /** Accepts rank 1's connection and connects to rank 1, answering and sending HELLOs as rank 0 of `jobId`. */
  async handshake(realRank: Endpoint, options: { jobId?: string; pieceElements?: number } = {}): Promise<void> {
    const hello = encodeHello({ role: ROLE.ring, rank: 0, worldSize: 2, pieceElements: options.pieceElements ?? 4, jobId: options.jobId ?? 'default' });
    const accepted = new Promise<Socket>((resolve) => this.server.once('connection', resolve));
    const outgoing = connect({ host: realRank.host, port: realRank.port });
    await new Promise<void>((resolve, reject) => {
      outgoing.once('connect', resolve);
      outgoing.once('error', reject);
    });
    this.toRealRank = new FrameSocket(outgoing);
    this.toRealRank.write(hello);
    this.fromRealRank = new FrameSocket(await accepted);
    await this.fromRealRank.waitForFrames(1);
    this.fromRealRank.write(hello);
    await this.toRealRank.waitForFrames(1);
  }

  async close(): Promise<void> {
    for (const side of [this.fromRealRank, this.toRealRank]) side?.socket.destroy();
    await Promise.all([this.fromRealRank?.closed, this.toRealRank?.closed]);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
