// Arbitration with several P4RuntimeClients on one switch, as the spec wants it
// (not BMv2's looser rule): the primary is the stream holding the highest
// election id ever seen for its (device, role); mastership changes reach every
// client as events; only the primary writes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { action, insert, isElectionIdUsed, isNotPrimary, table, type P4RuntimeClient } from '../../src/p4runtime/index.js';
import { fixtureP4Info } from './helpers/programs.js';
import { failedUpdates, rpcCode, rpcError } from './helpers/outcomes.js';
import { SwitchUnderTest, type ClientEvent } from './helpers/switch-under-test.js';
import { until } from './helpers/wait.js';

const P4INFO = fixtureP4Info('forwarding');
const entry = (last: number) => table('l2_exact', { dst_addr: `00:00:00:00:00:0${last}` }, action('forward', { port: last }));

let sw: SwitchUnderTest;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
});
afterEach(async () => {
  await sw.stop();
});

/** The mastership events a client has seen, as [type, primary's election id]. */
function mastership(client: P4RuntimeClient): [string, bigint | undefined][] {
  return sw.events(client).flatMap((e: ClientEvent) => (e.type === 'primary' || e.type === 'backup' ? [[e.type, e.arbitration.primaryElectionId] as [string, bigint | undefined]] : []));
}

async function seen(client: P4RuntimeClient, expected: [string, bigint | undefined][]): Promise<void> {
  await until(`events ${JSON.stringify(expected, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`, () => mastership(client).length >= expected.length);
  expect(mastership(client)).toEqual(expected);
}

describe('arbitration between P4RuntimeClients', () => {
  it('makes the first client primary, hands primacy to a higher id and tells the old primary', async () => {
    const a = sw.client({ electionId: 10n });
    expect(await a.connect()).toEqual({ primary: true });
    await seen(a, [['primary', 10n]]);
    await a.setPipeline({ p4info: P4INFO, deviceConfig: '{}' });
    await a.write(insert(entry(1)));

    const b = sw.client({ electionId: 20n });
    expect(await b.connect()).toEqual({ primary: true });
    await seen(a, [
      ['primary', 10n],
      ['backup', 20n],
    ]);
    expect(a.isPrimary).toBe(false);
    expect(b.isPrimary).toBe(true);

    // A newly connected lower id is a backup, told alone.
    const c = sw.client({ electionId: 5n });
    expect(await c.connect()).toEqual({ primary: false });
    await seen(c, [['backup', 20n]]);
    expect(mastership(a)).toHaveLength(2);
    expect(mastership(b)).toEqual([['primary', 20n]]);
  });

  it('lets a backup read but not write or set the pipeline', async () => {
    const primary = await sw.primaryWith(P4INFO, { electionId: 20n });
    await primary.write(insert(entry(1)));
    const backup = await sw.connect({ electionId: 10n });
    expect(backup.isPrimary).toBe(false);

    // Reads, GetForwardingPipelineConfig and Capabilities are open to backups.
    const config = await backup.getPipeline();
    expect(config.p4info?.tables.map((t) => t.preamble?.name)).toEqual(P4INFO.tables.map((t) => t.preamble?.name));
    expect(await backup.readAll(table('l2_exact'))).toHaveLength(1);
    expect((await backup.capabilities()).apiVersion).toBe('1.5.0');

    const err = await rpcError(backup.write(insert(entry(2))));
    expect(err.grpcCodeName).toBe('PERMISSION_DENIED');
    expect(isNotPrimary(err)).toBe(true);
    expect(await rpcCode(backup.setPipeline({ p4info: P4INFO, deviceConfig: 'other' }))).toBe('PERMISSION_DENIED');
    expect(await backup.readAll(table('l2_exact'))).toHaveLength(1);
  });

  it('tells the backups there is no primary when the primary leaves, and keeps primacy for the highest id', async () => {
    const primary = await sw.primaryWith(P4INFO, { electionId: 20n });
    const backup = await sw.connect({ electionId: 10n });
    backup.useP4Info(P4INFO);
    await primary.close();
    // The client surfaces "no primary" as a backup event without a primary election id.
    await seen(backup, [
      ['backup', 20n],
      ['backup', undefined],
    ]);
    expect(backup.isPrimary).toBe(false);
    expect(await rpcCode(backup.write(insert(entry(1))))).toBe('PERMISSION_DENIED');

    // Primacy stays with id 20 although nobody holds it: 15 does not become primary.
    const lower = await sw.connect({ electionId: 15n });
    expect(lower.isPrimary).toBe(false);
    await seen(lower, [['backup', undefined]]);

    // The highest id reconnecting regains primacy, and everyone is told.
    const back = await sw.connect({ electionId: 20n });
    expect(back.isPrimary).toBe(true);
    await seen(backup, [
      ['backup', 20n],
      ['backup', undefined],
      ['backup', 20n],
    ]);
    await seen(lower, [
      ['backup', undefined],
      ['backup', 20n],
    ]);
    back.useP4Info(P4INFO);
    await back.write(insert(entry(1)));
  });

  it('refuses a duplicate election id at connect and leaves its holder primary', async () => {
    const first = await sw.primaryWith(P4INFO, { electionId: 7n });
    const err = await rpcError(sw.client({ electionId: 7n }).connect());
    expect(err.grpcCodeName).toBe('INVALID_ARGUMENT');
    expect(isElectionIdUsed(err)).toBe(true);
    expect(first.isPrimary).toBe(true);
    await first.write(insert(entry(1)));
    expect(mastership(first)).toEqual([['primary', 7n]]);
  });

  it('re-elects when a client changes its election id', async () => {
    const a = await sw.primaryWith(P4INFO, { electionId: 20n });
    const b = await sw.connect({ electionId: 10n });
    expect(await b.setElectionId(30n)).toEqual({ primary: true });
    await seen(a, [
      ['primary', 20n],
      ['backup', 30n],
    ]);
    b.useP4Info(P4INFO);
    await b.write(insert(entry(1)));
    expect(await rpcCode(a.write(insert(entry(2))))).toBe('PERMISSION_DENIED');

    // The primary lowering its id gives up primacy: nobody is primary until 30 or more arrives.
    expect(await b.setElectionId(5n)).toEqual({ primary: false });
    await seen(a, [
      ['primary', 20n],
      ['backup', 30n],
      ['backup', undefined],
    ]);
    expect(await a.setElectionId(40n)).toEqual({ primary: true });
    await a.write(insert(entry(2)));
    await seen(b, [
      ['backup', 20n],
      ['primary', 30n],
      ['backup', undefined],
      ['backup', 40n],
    ]);
  });

  it('refuses a change to an election id another client holds, and reconnects with the old id', async () => {
    const a = await sw.primaryWith(P4INFO, { electionId: 20n });
    const b = await sw.connect({ electionId: 10n, reconnect: { initialDelayMs: 20, maxDelayMs: 100 } });
    const err = await rpcError(b.setElectionId(20n));
    expect(isElectionIdUsed(err)).toBe(true);
    expect(b.electionId).toBe(10n);
    await until('b reconnected', () => sw.events(b).some((e) => e.type === 'reconnect'));
    expect(sw.events(b).find((e) => e.type === 'reconnect')).toMatchObject({ attempt: 1, primary: false });
    expect(a.isPrimary).toBe(true);
  });

  it('keeps a primary per role, and the same election id may be used in different roles', async () => {
    const main = await sw.primaryWith(P4INFO, { electionId: 20n });
    const monitor = await sw.connect({ electionId: 20n, role: 'sdn.monitor' });
    expect(monitor.isPrimary).toBe(true);
    monitor.useP4Info(P4INFO);
    // A named role without a role config is primary of its role but may only read (role-config.ts).
    expect(await failedUpdates(monitor.write(insert(entry(1))))).toEqual([[0, 'PERMISSION_DENIED']]);
    await main.write(insert(entry(2)));
    expect(await monitor.readAll(table('*'))).toHaveLength(1);
    expect(mastership(main)).toEqual([['primary', 20n]]);
  });

  it('compares election ids as 128-bit numbers, and {0, 0} is an id like any other', async () => {
    const zero = await sw.connect({ electionId: 0n });
    expect(zero.isPrimary).toBe(true);
    const low = await sw.connect({ electionId: (1n << 64n) - 1n });
    expect(low.isPrimary).toBe(true);
    const high = await sw.connect({ electionId: { high: 1, low: 0 } });
    expect(high.isPrimary).toBe(true);
    await seen(low, [
      ['primary', (1n << 64n) - 1n],
      ['backup', 1n << 64n],
    ]);
    await seen(zero, [
      ['primary', 0n],
      ['backup', (1n << 64n) - 1n],
      ['backup', 1n << 64n],
    ]);
  });

  it('lets a client refused for a duplicate id connect again with another one', async () => {
    await sw.connect({ electionId: 7n });
    const second = sw.client({ electionId: 7n });
    expect(isElectionIdUsed(await rpcError(second.connect()))).toBe(true);
    await second.setElectionId(8n);
    expect(await second.connect()).toEqual({ primary: true });
  });

  it('answers UNAVAILABLE when nothing listens', async () => {
    const address = sw.address;
    await sw.server.stop();
    const err = await rpcError(sw.client({ electionId: 1n, address }).connect());
    expect(err.code).toBe('P4RUNTIME_UNAVAILABLE');
  });

  it('never makes a stream without an election id primary', async () => {
    const stream = sw.raw.stream();
    stream.arbitrate(undefined);
    const answer = await stream.next();
    expect(answer.arbitration?.status?.code).toBe(5 /* NOT_FOUND: there is no primary */);
    expect(answer.arbitration?.election_id).toBeNull();
  });
});

describe('reconnection', () => {
  it('reconnects with backoff when the switch restarts on the same address, and arbitrates again', async () => {
    const client = await sw.connect({ electionId: 3n, reconnect: { initialDelayMs: 20, maxDelayMs: 200 } });
    const port = sw.port;
    await sw.server.stop();
    await until('the disconnect event', () => sw.events(client).some((e) => e.type === 'disconnect'));
    expect(client.isPrimary).toBe(false);
    // The port was just released; retry the bind for a bounded time in case the OS holds it a moment.
    const restarted = await until('the port to be bound again', () => SwitchUnderTest.start({ address: `127.0.0.1:${port}` }).catch(() => undefined));
    try {
      await until('the reconnect event', () => sw.events(client).some((e) => e.type === 'reconnect'));
      expect(sw.events(client).find((e) => e.type === 'reconnect')).toMatchObject({ primary: true });
      expect(client.isPrimary).toBe(true);
      await client.setPipeline({ p4info: P4INFO, deviceConfig: '{}' });
      await client.write(insert(entry(1)));
      expect(await restarted.raw.read([{ table_entry: {} }])).toHaveLength(1);
    } finally {
      await client.close();
      await restarted.stop();
    }
  });
});
