// Issue #11 item 1: one Read must not be able to kill the switch or stall it.
// A real P4Runtime server on 127.0.0.1 with large registers (2^20 + 3 x 2^18 cells);
// hostile reads name every register several times from several clients at once.
// Measured: the heap stays under a ceiling while they stream (the answer is never
// built whole), a Write sent during a read is applied while the read is still
// streaming (the read sees it), and the limits answer RESOURCE_EXHAUSTED saying
// what to do.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../src/proto/p4r.js';
import { buildP4Info } from '../helpers/p4info-builder.js';
import { DEVICE_ID, electionId, type Harness, primaryStream, pushPipeline, startHarness, unary } from '../switch/runtime/harness.js';

const BIG = 1 << 20;
const P4INFO = buildP4Info({
  actions: [{ name: 'NoAction' }],
  registers: [
    { name: 'ingress.big', size: BIG, bitwidth: 32 },
    { name: 'ingress.r1', size: 1 << 18, bitwidth: 32 },
    { name: 'ingress.r2', size: 1 << 18, bitwidth: 16 },
    { name: 'ingress.wide', size: 1 << 18, bitwidth: 64 },
  ],
});
const CELLS = BIG + 3 * (1 << 18);
const bigId = P4INFO.registers.find((r) => r.preamble!.name === 'ingress.big')!.preamble!.id;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function ready(limits: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  h = await startHarness(limits);
  await primaryStream(h, 1n);
  await pushPipeline(h.client, 1n, P4INFO);
  return h;
}

interface ReadProgress {
  call: grpc.ClientReadableStream<p4r.ReadResponse__Output>;
  received: number;
  ended: Promise<grpc.StatusObject>;
}

/** Starts a Read; counts entities as they arrive (keeping none) and calls `onEntity` for each. */
function startRead(harness: Harness, entities: p4r.Entity[], onEntity?: (e: p4r.Entity__Output, n: number) => void): ReadProgress {
  const call = harness.client.Read({ device_id: DEVICE_ID, entities }, { deadline: Date.now() + 60_000 });
  const progress: ReadProgress = {
    call,
    received: 0,
    ended: new Promise((resolve) => call.on('status', resolve)),
  };
  call.on('data', (r: p4r.ReadResponse__Output) => {
    for (const e of r.entities) onEntity?.(e, progress.received++);
    if (!onEntity) progress.received += r.entities.length;
  });
  call.on('error', () => undefined); // the status carries it
  return progress;
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
/** A full collection, so that heapUsed is what is retained, not garbage not yet collected. */
const collect = runInNewContext('gc') as () => void;

describe('hostile reads against a switch with 1.8M register cells', () => {
  it('keeps the heap bounded while 8 clients each read every register 4 times at once', async () => {
    const harness = await ready();
    const everyRegister = Array.from({ length: 4 }, () => ({ register_entry: {} }));
    collect();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    let retained = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 5);
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const reads = Array.from({ length: 8 }, () => startRead(harness, everyRegister));
    try {
      // Each read asks for 4 x 1.8M = 7.3M entities (58M in all). The old server built each
      // answer whole before sending (460 MiB for one read of every register once) and died.
      // Stream 100k per client, measuring what stays alive at each 25k step, then stop.
      for (let step = 25_000; step <= 100_000; step += 25_000) {
        await until(`every read to stream ${step} entities`, () => reads.every((r) => r.received >= step), 18_000);
        collect();
        retained = Math.max(retained, process.memoryUsage().heapUsed);
      }
      expect(harness.server.activeReads).toBe(8);
    } finally {
      clearInterval(sampler);
      loop.disable();
      for (const r of reads) r.call.cancel();
    }
    const statuses = await Promise.all(reads.map((r) => r.ended));
    expect(statuses.map((s) => s.code)).toEqual(Array(8).fill(grpc.status.CANCELLED));
    const growth = (peak - base) / MiB;
    const kept = (retained - base) / MiB;
    console.log(
      `hostile reads: 8 clients x ${4 * CELLS} entities asked, ${reads.reduce((n, r) => n + r.received, 0)} streamed; ` +
        `heap growth: ${kept.toFixed(1)} MiB retained (after GC), ${growth.toFixed(1)} MiB peak with garbage; ` +
        `event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms (GC pauses included)`,
    );
    // Client and server share this process. Measured: 1-10 MiB retained, 60-140 MiB peak.
    expect(kept).toBeLessThan(48);
    expect(growth).toBeLessThan(320);
    await until('the server to forget the cancelled reads', () => harness.server.activeReads === 0);
  }, 25_000);

  it('applies a Write sent during a big read while the read is still streaming, and the read sees it', async () => {
    const harness = await ready();
    let answeredAt: number | undefined;
    let writeSent = false;
    let lastCell: Buffer | undefined;
    const read = startRead(harness, [{ register_entry: { register_id: bigId } }], (e, n) => {
      if (!writeSent) {
        writeSent = true;
        // Sent once the first chunk is here: change the very last cell, which the read reaches ~2,000 chunks later.
        void unary(harness.client, 'Write', {
          device_id: DEVICE_ID,
          election_id: electionId(1n),
          updates: [{ type: 'MODIFY', entity: { register_entry: { register_id: bigId, index: { index: BIG - 1 }, data: { bitstring: Buffer.from([7]) } } } }],
        }).then(() => {
          answeredAt = read.received;
        });
      }
      if (n === BIG - 1) lastCell = e.register_entry!.data!.bitstring!;
    });
    const status = await read.ended;
    expect(status.code).toBe(grpc.status.OK);
    expect(read.received).toBe(BIG);
    // Event order, not timing: the Write was answered before the read ended, and was applied before the read reached the cell.
    expect(answeredAt).toBeDefined();
    expect(answeredAt!).toBeLessThan(BIG);
    expect(lastCell).toEqual(Buffer.from([7]));
    console.log(`write during a ${BIG}-cell read: answered after ${answeredAt} cells had arrived`);
  }, 25_000);

  it('refuses a read naming more entities than the limit, and reads beyond the in-flight limit, with RESOURCE_EXHAUSTED', async () => {
    const harness = await ready({ limits: { maxReadEntities: 100, maxReadsInFlight: 2 } });
    const tooMany = startRead(harness, Array.from({ length: 101 }, (_, i) => ({ register_entry: { register_id: bigId, index: { index: i } } })));
    const refused = await tooMany.ended;
    expect(refused.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(refused.details).toMatch(/101 entities.*at most 100 per ReadRequest.*split it/);
    // Two big reads hold both slots (paused, so they stay in flight); a third is refused at once.
    const holding = [startRead(harness, [{ register_entry: {} }]), startRead(harness, [{ register_entry: {} }])];
    await until('both reads to stream', () => holding.every((r) => r.received > 0));
    for (const r of holding) r.call.pause();
    const third = await startRead(harness, [{ register_entry: { register_id: bigId, index: { index: 0 } } }]).ended;
    expect(third.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(third.details).toMatch(/limit 2.*retry when one has finished/);
    for (const r of holding) r.call.cancel();
    await Promise.all(holding.map((r) => r.ended));
    await until('the slots to free', () => harness.server.activeReads === 0);
    const after = startRead(harness, [{ register_entry: { register_id: bigId, index: { index: 0 } } }]);
    expect((await after.ended).code).toBe(grpc.status.OK);
    expect(after.received).toBe(1);
  });

  it('ends a read with ABORTED when the pipeline is replaced while it streams', async () => {
    const harness = await ready();
    const read = startRead(harness, [{ register_entry: {} }]);
    await until('the read to stream', () => read.received > 0);
    read.call.pause();
    await pushPipeline(harness.client, 1n, P4INFO);
    read.call.resume();
    const status = await read.ended;
    expect(status.code).toBe(grpc.status.ABORTED);
    expect(status.details).toMatch(/pipeline was replaced during the read; read again/);
  });
});
