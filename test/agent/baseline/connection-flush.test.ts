// FramedConnection.flush: resolves once every write sent has completed, and no sooner; rejects
// when the connection fails while it waits.
import { afterEach, expect, test } from 'vitest';
import { BASELINE_ERROR_CODES, BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import { encodeData } from '../../../src/agent/baseline/frame.js';
import type { FramedConnection } from '../../../src/agent/baseline/framed-connection.js';
import { rejection } from './helpers.js';
import { MemorySocket, memoryConnection } from './memory-socket.js';

const opened: FramedConnection[] = [];

afterEach(async () => {
  for (const connection of opened) connection.destroy();
  await Promise.all(opened.splice(0).map((connection) => connection.closed));
});

function connectedPair(): { writer: FramedConnection; socket: MemorySocket } {
  const [out, into] = MemorySocket.pair();
  const writer = memoryConnection(out, 'reader', 1 << 20);
  opened.push(writer, memoryConnection(into, 'writer', 1 << 20));
  return { writer, socket: out };
}

const frame = (offset: number): Buffer => encodeData({ op: 0, step: 0, chunk: 0, offset }, new Float32Array(100));

test('flush resolves at once with nothing sent, and after the last held write completes', async () => {
  const { writer, socket } = connectedPair();
  await writer.flush();
  // The stream hands the second write to the socket only once the first has completed.
  socket.holdWrite = (index) => index === 0;
  await writer.send(frame(0));
  await writer.send(frame(100));
  let flushed = false;
  const flushing = writer.flush().then(() => (flushed = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(flushed).toBe(false);
  socket.release();
  await flushing;
  expect(socket.writableLength).toBe(0);
});

test('flush rejects with the failure when the connection fails while writes are held', async () => {
  const { writer, socket } = connectedPair();
  socket.holdWrite = () => true;
  await writer.send(frame(0));
  const flushing = writer.flush();
  const error = new BaselineError(BASELINE_ERROR_CODES.timeout, 'given up');
  writer.fail(error, false);
  expect(await rejection(flushing)).toBe(error);
});
