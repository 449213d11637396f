// The ring's flow control on in-memory sockets (memory-socket.ts), where the test decides how bytes
// arrive and when writes complete. The first test is the stall of issue #15: a rank's call returned
// while the rest of its last 1 MiB frame still waited in the process for the event loop; the
// worker then checked its result for over 30 s without serving the loop, and its successor, which
// needed that frame, failed with "nothing moved for 30000 ms".
import { afterEach, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import { maxBodyBytes } from '../../../src/agent/baseline/frame.js';
import type { FramedConnection } from '../../../src/agent/baseline/framed-connection.js';
import { RingOperation, type RingLinks } from '../../../src/agent/baseline/ring-operation.js';
import { RingSchedule } from '../../../src/agent/baseline/ring-schedule.js';
import { ringOrderSum, seededTensors } from './helpers.js';
import { MemorySocket, memoryConnection } from './memory-socket.js';

const IO_TIMEOUT_MS = 60_000;
const opened: FramedConnection[] = [];

afterEach(async () => {
  for (const connection of opened) connection.destroy();
  await Promise.all(opened.splice(0).map((connection) => connection.closed));
});

/** A ring of `n` ranks on memory sockets; `sockets[r]` is rank r's end towards its successor. */
function memoryRing(n: number, pieceElements: number): { links: RingLinks[]; sockets: MemorySocket[] } {
  const sockets: MemorySocket[] = [];
  const toSuccessor: FramedConnection[] = [];
  const fromPredecessor: FramedConnection[] = [];
  for (let r = 0; r < n; r++) {
    const [out, into] = MemorySocket.pair();
    const successor = (r + 1) % n;
    sockets.push(out);
    toSuccessor[r] = memoryConnection(out, `rank ${successor}`, maxBodyBytes(pieceElements));
    fromPredecessor[successor] = memoryConnection(into, `rank ${r}`, maxBodyBytes(pieceElements));
  }
  opened.push(...toSuccessor, ...fromPredecessor);
  return { links: toSuccessor.map((to, r) => ({ toSuccessor: to, fromPredecessor: fromPredecessor[r]! })), sockets };
}

function operation(links: RingLinks, n: number, rank: number, tensor: Float32Array, pieceElements: number, onProgress?: (done: number, total: number) => void): RingOperation {
  return new RingOperation(links, new RingSchedule(tensor.length, n, rank, pieceElements), 0, tensor, IO_TIMEOUT_MS, { onProgress });
}

test('a call returns only once its last frame has left the process, so a caller that then keeps the event loop busy cannot stall its successor', async () => {
  // Two ranks, chunks of 4 pieces of 32 KiB (each write fills the 16 KiB buffer, so every send waits
  // for 'drain'): rank 0 writes BEGIN and 4 pieces per step for 2 steps, 9 frames; the 9th is its last.
  const pieceElements = 8192;
  const tensors = seededTensors(2, 2 * 4 * pieceElements, 'flush');
  const { links, sockets } = memoryRing(2, pieceElements);
  sockets[0]!.holdWrite = (index) => index === 8;
  let receivedAll!: () => void;
  const rankZeroReceivedAll = new Promise<void>((resolve) => (receivedAll = resolve));
  let rankZeroReturned = false;
  const rankZero = operation(links[0]!, 2, 0, tensors[0]!, pieceElements, (done, total) => {
    if (done === total) receivedAll();
  })
    .run()
    .finally(() => (rankZeroReturned = true));
  const rankOne = operation(links[1]!, 2, 1, tensors[1]!, pieceElements).run();

  // Rank 1 has every byte, rank 0 has received everything, and every callback that could follow has run.
  const oneResult = await rankOne;
  await rankZeroReceivedAll;
  await new Promise((resolve) => setImmediate(resolve));
  expect(sockets[0]!.heldWrites).toBe(1);
  expect(rankZeroReturned).toBe(false);

  sockets[0]!.release();
  const zeroResult = await rankZero;
  expect(sockets[0]!.writableLength).toBe(0);
  const expected = ringOrderSum(tensors);
  expect(sameBits(zeroResult, expected)).toBe(true);
  expect(sameBits(oneResult, expected)).toBe(true);
});

test('three ranks sum exactly when bytes arrive in awkward pieces and every write completes a turn later', async () => {
  const pieceElements = 5000;
  const tensors = seededTensors(3, 3 * 7 * pieceElements + 11, 'awkward');
  const { links } = memoryRing(3, pieceElements);
  const results = await Promise.all(links.map((link, rank) => operation(link, 3, rank, tensors[rank]!, pieceElements).run()));
  const expected = ringOrderSum(tensors);
  for (const result of results) expect(sameBits(result, expected)).toBe(true);
});
