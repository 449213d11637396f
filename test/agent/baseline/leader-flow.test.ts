// A rack leader's call (hierarchical AllReduce) on an in-memory socket to its one member
// (memory-socket.ts): like a ring rank's (ring-flow.test.ts), it must not return while the sums
// it sent its members still wait in this process for the event loop, or a caller that then keeps
// the loop busy (checking its result) leaves its members waiting.
import { afterEach, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import type { FramedConnection } from '../../../src/agent/baseline/framed-connection.js';
import { RackLeader } from '../../../src/agent/baseline/hierarchical-leader.js';
import { OpGuard } from '../../../src/agent/baseline/op-guard.js';
import { exchangeWithAggregator } from '../../../src/agent/baseline/ps-worker.js';
import { RingAllReduce } from '../../../src/agent/baseline/ring-allreduce.js';
import { maxBodyBytes } from '../../../src/agent/baseline/frame.js';
import { seededTensors } from './helpers.js';
import { MemorySocket, memoryConnection } from './memory-socket.js';

const IO_TIMEOUT_MS = 60_000;
const opened: FramedConnection[] = [];
const guards: OpGuard[] = [];

afterEach(async () => {
  for (const guard of guards.splice(0)) guard.dispose();
  for (const connection of opened) connection.destroy();
  await Promise.all(opened.splice(0).map((connection) => connection.closed));
});

const counts = () => ({ framesSent: 0, framesReceived: 0, wireBytesSent: 0, wireBytesReceived: 0, ringCalls: 0 });

function guard(what: string): OpGuard {
  const created = new OpGuard(what, IO_TIMEOUT_MS, undefined);
  guards.push(created);
  return created;
}

test('a rack leader returns only once its last sum to its members has left the process', async () => {
  // One segment of 4 pieces of 32 KiB: the leader writes BEGIN and 4 sums to its member, 5 frames.
  const pieceElements = 8192;
  const length = 4 * pieceElements;
  const [leaderEnd, memberEnd] = MemorySocket.pair();
  const toMember = memoryConnection(leaderEnd, 'rank 1', maxBodyBytes(pieceElements));
  const toLeader = memoryConnection(memberEnd, 'rank 0', maxBodyBytes(pieceElements));
  opened.push(toMember, toLeader);
  leaderEnd.holdWrite = (index) => index === 4;
  // One rack: the leaders' ring has one rank and adds nothing.
  const ring = await RingAllReduce.connect({ rank: 0, worldSize: 1, peers: ['127.0.0.1:1'] });
  const leader = new RackLeader(0, ring, [toMember], pieceElements, length);
  const [leaderInput, memberInput] = seededTensors(2, length, 'leader-flush');

  let sentAll!: () => void;
  const leaderSentAll = new Promise<void>((resolve) => (sentAll = resolve));
  let leaderReturned = false;
  const leading = leader
    .allreduce(0, leaderInput!, { onProgress: (done, total) => done === total && sentAll() }, guard('leader'), counts())
    .finally(() => (leaderReturned = true));
  const memberResult = await exchangeWithAggregator(toLeader, pieceElements, 0, memberInput!, {}, guard('member'), counts());
  await leaderSentAll;
  await new Promise((resolve) => setImmediate(resolve));
  expect(leaderEnd.heldWrites).toBe(1);
  expect(leaderReturned).toBe(false);

  leaderEnd.release();
  const leaderResult = await leading;
  expect(leaderEnd.writableLength).toBe(0);
  const expected = leaderInput!.map((x, i) => Math.fround(x + memberInput![i]!));
  expect(sameBits(leaderResult, expected)).toBe(true);
  expect(sameBits(memberResult, expected)).toBe(true);
  await ring.close();
});
