// A Read the switch refuses comes back as a P4ReadError naming the entity of the
// caller's query that failed and why, decoded from grpc-status-details-bin. The
// client checks what it can before sending, so these tests give it a P4Info whose
// arrays are larger than the switch's (as after a pipeline change it has not seen).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counter, P4ReadError, register, table, type P4RuntimeClient } from '../../src/p4runtime/index.js';
import { kitchenSink } from './helpers/programs.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  const p4info = kitchenSink();
  client = await sw.primaryWith(p4info);
  const stale = structuredClone(p4info);
  for (const r of stale.registers) r.size = 1000;
  for (const c of stale.counters) c.size = '100000';
  client.useP4Info(stale);
});
afterEach(async () => {
  await sw.stop();
});

describe('read errors', () => {
  it('ties an index past the end of a register to the entity that asked for it', async () => {
    const query = [table('ingress.l2'), register('ingress.slots', { index: 64 })];
    const err = await client.readAll(query).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(P4ReadError);
    const failures = (err as P4ReadError).failures;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ index: 1, codeName: 'OUT_OF_RANGE', entity: query[1] });
    expect((err as P4ReadError).message).toMatch(/#1 .*slots.*OUT_OF_RANGE/);
  });

  it('reports every failing entity of one request', async () => {
    const err = await client.readAll([register('ingress.slots', { index: 100 }), counter('ingress.port_packets', { index: 9999 })]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(P4ReadError);
    expect((err as P4ReadError).failures.map((f) => [f.index, f.codeName])).toEqual([
      [0, 'OUT_OF_RANGE'],
      [1, 'OUT_OF_RANGE'],
    ]);
  });
});
