/**
 * Four SwitchML workers in this process, as far as a forwarder can tell: each
 * has a UDP socket (its wire), keeps `window` slots busy with the fixture's
 * UPDATE frames (fixtures/switchml-workload.ts), and sends a slot's next
 * update, in a new epoch, as soon as that slot's RESULT reaches it. So the
 * forwarder always has window × 4 updates to work on and no more: it runs at
 * its own pace, and nothing is lost to queues overflowing. No values are
 * checked (the switch's exactness is the tests' business); what is counted
 * is completed rounds, each of them 4 updates in and 4 results out.
 */
import { createSocket, type Socket } from 'node:dgram';
import { SML_EPOCH_OFFSET, SML_POOL, SML_WORKERS, switchMlFrames } from './fixtures/switchml-workload.js';

/** Byte offset of the SwitchML pool index (set:1 slot:15) in a frame. */
const POOL_INDEX_OFFSET = 14 + 20 + 8 + 8;
/** A slot without a result for this long at the end of a run counts as stalled (a frame was lost). */
const STALL_MS = 500;

export interface ClosedLoopResult {
  /** Rounds completed per second over the timed part (as seen by worker 0). */
  readonly roundsPerSecond: number;
  readonly seconds: number;
  /** Slots that made no progress at the end (a lost frame stops a slot for good here). */
  readonly stalledSlots: number;
}

const bind = (socket: Socket): Promise<number> => new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)));
const connect = (socket: Socket, port: number): Promise<void> => new Promise((resolve, reject) => socket.connect(port, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve())));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class ClosedLoopWorkers {
  private readonly frames;

  private constructor(
    private readonly sockets: readonly Socket[],
    readonly ports: readonly number[],
    private readonly window: number,
    elements: number,
  ) {
    this.frames = switchMlFrames(elements);
  }

  static async open(elements: number, window: number): Promise<ClosedLoopWorkers> {
    if (window < 1 || window > SML_POOL) throw new RangeError(`window must be 1..${SML_POOL}, not ${window}`);
    const sockets = Array.from({ length: SML_WORKERS }, () => createSocket({ type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 }));
    const ports = await Promise.all(sockets.map(bind));
    return new ClosedLoopWorkers(sockets, ports, window, elements);
  }

  /** Connects worker w to the forwarder's UDP port for it. */
  async connectTo(forwarderPorts: readonly number[]): Promise<void> {
    await Promise.all(this.sockets.map((s, w) => connect(s, forwarderPorts[w]!)));
  }

  /** Runs for `warmupSeconds` untimed, then `seconds` timed; leaves the sockets open (close() closes them). */
  async run(warmupSeconds: number, seconds: number): Promise<ClosedLoopResult> {
    const epochs = new Uint8Array(SML_POOL * SML_WORKERS);
    const lastResult = new Float64Array(this.window);
    let counting = false;
    let rounds = 0;
    const send = (slot: number, w: number): void => {
      const index = slot * SML_WORKERS + w;
      const frame = this.frames[index]!.frame;
      frame[SML_EPOCH_OFFSET] = epochs[index]!;
      this.sockets[w]!.send(frame);
    };
    const listeners = this.sockets.map((socket, w) => {
      const listener = (msg: Buffer): void => {
        if (msg.length < POOL_INDEX_OFFSET + 2) return;
        const slot = ((msg[POOL_INDEX_OFFSET]! << 8) | msg[POOL_INDEX_OFFSET + 1]!) & 0x7fff;
        if (slot >= this.window) return;
        if (w === 0) {
          lastResult[slot] = performance.now();
          if (counting) rounds++;
        }
        const index = slot * SML_WORKERS + w;
        epochs[index] = (epochs[index]! + 1) & 255;
        send(slot, w);
      };
      socket.on('message', listener);
      return listener;
    });
    try {
      for (let slot = 0; slot < this.window; slot++) for (let w = 0; w < SML_WORKERS; w++) send(slot, w);
      await sleep(warmupSeconds * 1000);
      counting = true;
      const start = performance.now();
      await sleep(seconds * 1000);
      counting = false;
      const elapsed = (performance.now() - start) / 1000;
      const now = performance.now();
      const stalledSlots = Array.from(lastResult).filter((t) => now - t > STALL_MS).length;
      return { roundsPerSecond: rounds / elapsed, seconds: elapsed, stalledSlots };
    } finally {
      this.sockets.forEach((s, w) => s.off('message', listeners[w]!));
    }
  }

  close(): void {
    for (const s of this.sockets) s.close();
  }
}

/**
 * The I/O alone, hand-written: a Node process with one socket per worker that
 * counts UPDATEs per slot and, at the 4th, sends that frame back to all 4
 * workers as the "result" (no sums, no P4). argv: JSON [workerPorts, ownPorts].
 */
export const AGGREGATING_RELAY = `
import { createSocket } from 'node:dgram';
const [workerPorts, ownPorts] = JSON.parse(process.argv[1]);
const counts = new Uint8Array(32768);
const sockets = ownPorts.map(() => createSocket({ type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 }));
await Promise.all(sockets.map((s, w) => new Promise((r) => s.bind(ownPorts[w], '127.0.0.1', r))));
await Promise.all(sockets.map((s, w) => new Promise((r) => s.connect(workerPorts[w], '127.0.0.1', r))));
for (const s of sockets) s.on('message', (m) => {
  const slot = ((m[${POOL_INDEX_OFFSET}] << 8) | m[${POOL_INDEX_OFFSET + 1}]) & 0x7fff;
  if (++counts[slot] === ${SML_WORKERS}) { counts[slot] = 0; for (const t of sockets) t.send(m); }
});
console.log('relay on 127.0.0.1:' + ownPorts[0]);
`;

/**
 * The same relay on our batched sockets (src/net/udp-batch: recvmmsg with
 * GRO, sendmmsg with GSO), sending as `p4ina switch --udp-io batched` does:
 * each socket's frames queued and flushed once per microtask (or at 64).
 * A result is copied once, as the switch writes each output into a new
 * frame. argv: JSON [workerPorts, ownPorts, URL of batched-udp-socket.js].
 */
export const BATCHED_AGGREGATING_RELAY = `
const [workerPorts, ownPorts, moduleUrl] = JSON.parse(process.argv[1]);
const { BatchedUdpSocket } = await import(moduleUrl);
const counts = new Uint8Array(32768);
const queues = ownPorts.map(() => []);
let sockets = [];
let flushing = false;
const flushOne = (w) => { const q = queues[w]; if (q.length > 0) { sockets[w].send(q); q.length = 0; } };
const flush = () => { flushing = false; for (let w = 0; w < queues.length; w++) flushOne(w); };
const onDatagram = (m) => {
  const slot = ((m[${POOL_INDEX_OFFSET}] << 8) | m[${POOL_INDEX_OFFSET + 1}]) & 0x7fff;
  if (++counts[slot] !== ${SML_WORKERS}) return;
  counts[slot] = 0;
  const result = Buffer.from(m);
  for (let w = 0; w < queues.length; w++) { queues[w].push(result); if (queues[w].length === 64) flushOne(w); }
  if (!flushing) { flushing = true; queueMicrotask(flush); }
};
sockets = ownPorts.map((port) => BatchedUdpSocket.open({ family: 4, address: '127.0.0.1', port, receiveBufferBytes: 4 << 20, sendBufferBytes: 4 << 20 }, onDatagram, () => {}));
sockets.forEach((s, w) => s.connect('127.0.0.1', workerPorts[w]));
console.log('relay on 127.0.0.1:' + ownPorts[0]);
`;
