// A batch of 1,000 inserts with a few bad ones: every per-update error comes
// back tied to the index of the update that failed. Two mechanisms keep large
// batches working under grpc-js's 64 KiB limit on received headers: the client
// splits CONTINUE_ON_ERROR writes into requests of `maxUpdatesPerWrite` (256 by
// default), and the switch caps grpc-status-details-bin (see
// src/switch/runtime/grpc-failure.ts), dropping messages and then the details
// rather than sending a trailer the client could not take.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { action, insert, P4RuntimeError, P4WriteError, table, type P4RuntimeClient, type Update } from '../../src/p4runtime/index.js';
import { encodeUpdate } from '../../src/p4runtime/update.js';
import { P4Schema } from '../../src/p4info/index.js';
import { kitchenSink } from './helpers/programs.js';
import { rawError, rpcError, writeError } from './helpers/outcomes.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY } from './helpers/entities.js';

const P4INFO = kitchenSink();
const SCHEMA = new P4Schema(P4INFO);
const COUNT = 1000;

/** Route i: 10.(i>>8).(i&255).0/24 → drop. */
const route = (i: number, options: Parameters<typeof table>[3] = {}) =>
  table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': { value: (10 << 24) | (i << 8), prefixLen: 24 } }, action('ingress.drop'), options);

/** 1,000 inserts of distinct routes, except the bad ones: index → [update, code the switch must answer]. */
function mixedBatch(): { updates: Update[]; bad: Map<number, string> } {
  const updates: Update[] = Array.from({ length: COUNT }, (_, i) => insert(route(i)));
  const bad = new Map<number, [Update, string]>([
    [3, [insert(route(1)), 'ALREADY_EXISTS']], // same key as update 1
    [255, [insert(route(255, { idleTimeoutNs: 5 })), 'INVALID_ARGUMENT']], // the table has no idle timeout
    [256, [insert(route(100)), 'ALREADY_EXISTS']], // in the second request of 256, same key as one of the first
    [600, [insert(route(600, { isConst: true })), 'INVALID_ARGUMENT']],
    [999, [insert(route(999, { counterData: { packetCount: 1 } })), 'INVALID_ARGUMENT']], // the table has no direct counter
  ]);
  for (const [i, [update]] of bad) updates[i] = update;
  return { updates, bad: new Map([...bad].map(([i, [, code]]) => [i, code])) };
}

let sw: SwitchUnderTest;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
});
afterEach(async () => {
  await sw.stop();
});

async function primary(maxUpdatesPerWrite?: number): Promise<P4RuntimeClient> {
  return sw.primaryWith(P4INFO, { electionId: PRIMARY, ...(maxUpdatesPerWrite ? { maxUpdatesPerWrite } : {}) });
}

describe('a mixed batch of 1,000 inserts', () => {
  for (const maxUpdatesPerWrite of [undefined, 1000]) {
    it(`ties each error to its update (${maxUpdatesPerWrite ? 'one request of 1,000' : 'requests of 256'})`, async () => {
      const client = await primary(maxUpdatesPerWrite);
      const { updates, bad } = mixedBatch();
      const err = await writeError(client.write(updates));
      expect(err.total).toBe(COUNT);
      expect(err.failures.map((f) => [f.index, f.codeName])).toEqual([...bad]);
      for (const f of err.failures) expect(f.update).toBe(updates[f.index]);
      expect(err.failures[0]!.message).toMatch(/already has an entry/);
      expect(err.message).toMatch(/^Write failed for 5 of 1000 updates: #3 INSERT table entry ingress\.ipv4_lpm: ALREADY_EXISTS/);
      expect(await client.readAll(table('ingress.ipv4_lpm'))).toHaveLength(COUNT - 5);
    });
  }
});

describe('a large ROLLBACK_ON_ERROR batch with one bad update (sent in one request: it is atomic)', () => {
  const batch = (size: number, badAt: number): Update[] => Array.from({ length: size }, (_, i) => insert(route(i === badAt ? 0 : i)));

  it('keeps the reason of the update that failed when the other messages do not fit', async () => {
    const client = await primary();
    const updates = batch(500, 400);
    const err = await writeError(client.write(updates, { atomicity: 'ROLLBACK_ON_ERROR' }));
    expect(err.failures).toHaveLength(500);
    const cause = err.failures.filter((f) => f.codeName !== 'ABORTED');
    expect(cause.map((f) => [f.index, f.codeName])).toEqual([[400, 'ALREADY_EXISTS']]);
    expect(cause[0]!.message).toMatch(/already has an entry/);
    expect(err.message).toMatch(/^Write failed for 500 of 500 updates: #400 INSERT table entry ingress\.ipv4_lpm: ALREADY_EXISTS: .*already has an entry.*; #0 .*ABORTED/);
    expect(await client.readAll(table('ingress.ipv4_lpm'))).toEqual([]);
  });

  it('names the failed update and its reason when even the codes do not fit', async () => {
    const client = await primary();
    const err = await rpcError(client.write(batch(COUNT, 999), { atomicity: 'ROLLBACK_ON_ERROR' }));
    expect(err.grpcCodeName).toBe('UNKNOWN');
    expect(err.details).toMatch(/update 999: ALREADY_EXISTS: .*already has an entry/);
    expect(await client.readAll(table('ingress.ipv4_lpm'))).toEqual([]);
  });
});

describe('a batch of 1,000 failing updates', () => {
  const allBad = (): Update[] => Array.from({ length: COUNT }, (_, i) => insert(route(i, { idleTimeoutNs: 1 })));

  it('comes back as 1,000 failures when the client splits it (the default)', async () => {
    const client = await primary();
    const updates = allBad();
    const err = await writeError(client.write(updates));
    expect(err.failures.map((f) => f.index)).toEqual([...Array(COUNT).keys()]);
    expect(new Set(err.failures.map((f) => f.codeName))).toEqual(new Set(['INVALID_ARGUMENT']));
    // 256 messages of this length fit one trailer, so every failure keeps its message.
    expect(err.failures.every((f) => /does not support idle timeouts/.test(f.message))).toBe(true);
  });

  it('in one request: the switch leaves the per-update errors out rather than exceed the header limit', async () => {
    const client = await primary(COUNT);
    const err = await rpcError(client.write(allBad()));
    expect(err).not.toBeInstanceOf(P4WriteError);
    expect(err).toBeInstanceOf(P4RuntimeError);
    expect(err.grpcCodeName).toBe('UNKNOWN');
    expect(err.details).toMatch(/^1000 of 1000 updates failed; first: update 0: INVALID_ARGUMENT: .*send smaller batches/);
    expect(await client.readAll(table('ingress.ipv4_lpm'))).toEqual([]);
  });

  it('through the bare stub: all messages while they fit, then only the first, then none', async () => {
    await primary();
    const encoded = (n: number) => allBad().slice(0, n).map((u) => encodeUpdate(u, SCHEMA));
    const small = await rawError(sw.raw.write(encoded(10), { electionId: PRIMARY }));
    expect(small.errors!.map((e) => e.message !== '')).toEqual(Array(10).fill(true));
    const medium = await rawError(sw.raw.write(encoded(300), { electionId: PRIMARY }));
    expect(medium.errors).toHaveLength(300);
    expect(medium.errors!.filter((e) => e.message !== '')).toHaveLength(1);
    expect(medium.errors!.every((e) => e.canonical_code === 3 && e.space === 'p4ina')).toBe(true);
    const large = await rawError(sw.raw.write(encoded(COUNT), { electionId: PRIMARY }));
    expect(large.codeName).toBe('UNKNOWN');
    expect(large.errors).toBeUndefined();
  });
});
