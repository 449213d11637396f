import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P4Schema } from '../../src/p4info/index.js';
import {
  action,
  allTables,
  defaultEntry,
  del,
  insert,
  isElectionIdUsed,
  isNotPrimary,
  modify,
  multicastGroup,
  MulticastGroupEntry,
  P4RuntimeClient,
  P4RuntimeError,
  P4StreamError,
  P4WriteError,
  register,
  RegisterEntry,
  table,
  TableEntry,
  type P4RuntimeClientOptions,
} from '../../src/p4runtime/index.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { FakeP4RuntimeServer } from './helpers/fake-p4runtime-server.js';

const p4info = kitchenSinkP4Info();
const quiet = pino({ level: 'silent' });
const deviceConfig = '{"program":"kitchen-sink"}';

let server: FakeP4RuntimeServer;
const clients: P4RuntimeClient[] = [];

function client(options: Partial<P4RuntimeClientOptions> = {}): P4RuntimeClient {
  const c = new P4RuntimeClient({ address: server.address, deviceId: 0, electionId: 10n, reconnect: { initialDelayMs: 5, maxDelayMs: 20 }, logger: quiet, ...options });
  clients.push(c);
  return c;
}

async function primaryWithPipeline(options: Partial<P4RuntimeClientOptions> = {}): Promise<P4RuntimeClient> {
  const c = client(options);
  await c.connect();
  await c.setPipeline({ p4info, deviceConfig });
  return c;
}

async function rejection(promise: Promise<unknown>): Promise<P4RuntimeError> {
  try {
    await promise;
  } catch (err) {
    return err as P4RuntimeError;
  }
  throw new Error('expected a rejection');
}

beforeEach(async () => {
  server = await FakeP4RuntimeServer.start();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.stop();
});

describe('arbitration', () => {
  it('the highest election id is primary; others are backups told who is primary', async () => {
    const a = client({ electionId: 10n });
    const primaryEvent = once(a, 'primary');
    expect(await a.connect()).toEqual({ primary: true });
    await primaryEvent;
    expect(a.isPrimary).toBe(true);

    const b = client({ electionId: { high: 0, low: 5 } });
    const backupEvent = once(b, 'backup');
    expect(await b.connect()).toEqual({ primary: false });
    expect((await backupEvent)[0]).toEqual({ primary: false, primaryElectionId: 10n, electionId: 5n });
    expect(b.isPrimary).toBe(false);
    expect(server.arbitrations.map((x) => x.election_id)).toEqual([
      { high: '0', low: '10' },
      { high: '0', low: '5' },
    ]);

    // The primary leaves: the backup is promoted.
    const promoted = once(b, 'primary');
    await a.close();
    await promoted;
    expect(b.isPrimary).toBe(true);
  });

  it('a listener that throws does not break the client', async () => {
    const a = client();
    a.on('primary', () => {
      throw new Error('listener bug');
    });
    expect(await a.connect()).toEqual({ primary: true });
    expect(a.isPrimary).toBe(true);
  });

  it('setElectionId re-arbitrates and takes mastership', async () => {
    const a = client({ electionId: 10n });
    await a.connect();
    const b = client({ electionId: 5n });
    await b.connect();
    const demoted = once(a, 'backup');
    expect(await b.setElectionId(20n)).toEqual({ primary: true });
    expect((await demoted)[0].primaryElectionId).toBe(20n);
    expect(b.isPrimary).toBe(true);
    expect(a.isPrimary).toBe(false);
  });

  it('connect rejects with typed errors: duplicate election id, unknown device, nothing listening', async () => {
    await client({ electionId: 7n }).connect();
    const dup = await rejection(client({ electionId: 7n }).connect());
    expect(dup.code).toBe('P4RUNTIME_INVALID_ARGUMENT');
    expect(isElectionIdUsed(dup)).toBe(true);

    const unknown = await rejection(client({ deviceId: 3, electionId: 8n }).connect());
    expect(unknown.code).toBe('P4RUNTIME_NOT_FOUND');

    server.answerArbitrations = false;
    const silent = await rejection(client({ electionId: 9n, arbitrationTimeoutMs: 50 }).connect());
    expect(silent.code).toBe('P4RUNTIME_DEADLINE_EXCEEDED');
    server.answerArbitrations = true;

    const gone = await FakeP4RuntimeServer.start();
    await gone.stop();
    const down = await rejection(client({ address: gone.address }).connect());
    expect(down).toBeInstanceOf(P4RuntimeError);
    expect(down.code).toBe('P4RUNTIME_UNAVAILABLE');
  });
});

describe('pipeline', () => {
  it('pushes with a cookie, skips the push when the cookie matches, pushes again when forced', async () => {
    const c = client();
    await c.connect();
    const first = await c.setPipeline({ p4info, deviceConfig });
    expect(first.pushed).toBe(true);
    expect(server.setPipelineCalls).toHaveLength(1);
    expect(server.setPipelineCalls[0]!.action).toBe('VERIFY_AND_COMMIT');
    expect(server.pipeline!.cookie!.cookie).toBe(first.cookie!.toString());
    expect(server.pipeline!.p4_device_config.toString()).toBe(deviceConfig);
    expect(c.schema?.tables.get('l2').name).toBe('ingress.l2');

    expect(await c.setPipeline({ p4info, deviceConfig })).toEqual({ pushed: false, cookie: first.cookie });
    expect(server.setPipelineCalls).toHaveLength(1);
    expect((await c.setPipeline({ p4info, deviceConfig, force: true })).pushed).toBe(true);
    expect((await c.setPipeline({ p4info, deviceConfig: '{}' })).pushed).toBe(true);
    expect(server.setPipelineCalls).toHaveLength(3);
  });

  it('getPipeline loads the schema from the device', async () => {
    await primaryWithPipeline();
    const backup = client({ electionId: 1n });
    expect(backup.schema).toBeUndefined();
    const config = await backup.getPipeline();
    expect(config.deviceConfig?.toString()).toBe(deviceConfig);
    expect(backup.schema).toBeInstanceOf(P4Schema);
    expect(backup.schema!.registers.get('slots').size).toBe(64);
    expect(Object.keys(await backup.getPipeline('COOKIE_ONLY'))).toEqual(['cookie']);
  });

  it('a backup cannot push: PERMISSION_DENIED', async () => {
    await client({ electionId: 10n }).connect();
    const b = client({ electionId: 1n });
    await b.connect();
    const err = await rejection(b.setPipeline({ p4info, deviceConfig, force: true }));
    expect(isNotPrimary(err)).toBe(true);
  });
});

describe('write and read', () => {
  it('writes the README example and reads it back decoded', async () => {
    const c = await primaryWithPipeline();
    await c.write([
      insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:ff' }, action('ingress.forward', { port: 2 }))),
      insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.drop'))),
      insert(
        table(
          'ingress.acl',
          { 'hdr.ipv4.src_addr': { value: '10.0.0.1', mask: '255.255.255.0' }, 'hdr.udp.dst_port': { low: 1000, high: 2000 } },
          action('ingress.drop'),
          { priority: 10 },
        ),
      ),
      modify(defaultEntry('ingress.l2', action('ingress.drop'))),
      insert(multicastGroup(1, [{ port: 1, instance: 0 }, { port: 2, instance: 1 }])),
      modify(register('ingress.slots', { index: 3, value: 42 })),
    ]);
    expect(server.writes).toHaveLength(1);
    expect(server.writes[0]!.updates).toHaveLength(6);

    const l2 = await c.readAll(table('ingress.l2'));
    expect(l2).toEqual([
      new TableEntry({ table: 'ingress.l2', match: { 'hdr.ethernet.dst_addr': 0xaabbccddeeff }, action: action('ingress.forward', { port: 2 }) }),
      new TableEntry({ table: 'ingress.l2', isDefault: true, action: action('ingress.drop') }),
    ]);
    expect(await c.readAll(allTables())).toHaveLength(4);
    expect(await c.readAll(multicastGroup())).toEqual([new MulticastGroupEntry(1, [{ port: 1, instance: 0 }, { port: 2, instance: 1 }])]);
    const seen: RegisterEntry[] = [];
    for await (const r of c.read(register('slots'))) seen.push(r);
    expect(seen).toEqual([new RegisterEntry({ register: 'ingress.slots', index: 3, value: 42 })]);
  });

  it('maps per-update failures back to the updates passed, across split batches', async () => {
    const c = await primaryWithPipeline({ maxUpdatesPerWrite: 2 });
    const updates = [1, 2, 3, 4, 5].map((n) => insert(table('l2', { dst_addr: n }, action('forward', { port: n }))));
    server.failUpdate = (u) =>
      u.entity!.table_entry!.match[0]!.exact!.value.equals(Buffer.from([4])) ? { code: grpc.status.RESOURCE_EXHAUSTED, message: 'table full' } : undefined;
    const err = await rejection(c.write(updates));
    expect(err).toBeInstanceOf(P4WriteError);
    expect(server.writes.map((w) => w.updates.length)).toEqual([2, 2, 1]);
    const { failures } = err as P4WriteError;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ index: 3, code: grpc.status.RESOURCE_EXHAUSTED, codeName: 'RESOURCE_EXHAUSTED', message: 'table full', space: 'fake' });
    expect(failures[0]!.update).toBe(updates[3]);

    server.failUpdate = undefined;
    const again = (await rejection(c.write(updates.slice(0, 2)))) as P4WriteError;
    expect(again.failures.map((f) => [f.index, f.codeName])).toEqual([
      [0, 'ALREADY_EXISTS'],
      [1, 'ALREADY_EXISTS'],
    ]);
    await c.write(updates.filter((_, i) => i !== 3).map((u) => del(u.entity)));
    expect(await c.readAll(table('l2'))).toEqual([]);
  });

  it('atomic writes are never split', async () => {
    const c = await primaryWithPipeline({ maxUpdatesPerWrite: 2 });
    const updates = [1, 2, 3, 4, 5].map((n) => insert(table('l2', { dst_addr: n }, action('forward', { port: n }))));
    await c.write(updates, { atomicity: 'ROLLBACK_ON_ERROR' });
    expect(server.writes.map((w) => [w.updates.length, w.atomicity])).toEqual([[5, 'ROLLBACK_ON_ERROR']]);
  });

  it('a garbage details trailer gives a plain P4RuntimeError', async () => {
    const c = await primaryWithPipeline();
    server.failUpdate = () => ({ code: grpc.status.INTERNAL, message: 'x' });
    server.trailerOverride = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
    const err = await rejection(c.write(insert(table('l2', { dst_addr: 1 }, action('forward', { port: 1 })))));
    expect(err).not.toBeInstanceOf(P4WriteError);
    expect(err.code).toBe('P4RUNTIME_UNKNOWN');
  });

  it('encoding errors are thrown before anything is sent; writes of backups are refused', async () => {
    const c = await primaryWithPipeline();
    const err = await rejection(c.write([insert(table('l2', { dst_addr: 1 }, action('forward', { port: 1 }))), insert(table('acl', {}, action('drop')))]));
    expect(err.code).toBe('ENTITY_PRIORITY_REQUIRED');
    expect(err.message).toMatch(/^update #1 \(INSERT table entry acl\): table ingress.acl: /);
    expect(server.writes).toHaveLength(0);
    expect(() => c.read(table('nope'))).toThrow(/no table "nope"/);

    const b = client({ electionId: 1n });
    await b.connect();
    b.useP4Info(p4info);
    expect(isNotPrimary(await rejection(b.write(modify(register('slots', { index: 1, value: 1 })))))).toBe(true);
  });

  it('capabilities and reads need no stream', async () => {
    const c = client();
    expect(await c.capabilities()).toEqual({ apiVersion: '1.4.0' });
    expect((await rejection(Promise.resolve().then(() => c.readAll(table('l2'))))).code).toBe('P4RUNTIME_NO_P4INFO');
  });
});

describe('stream messages', () => {
  it('packets in by name, packets out by name', async () => {
    const c = await primaryWithPipeline();
    const packets = c.packets();
    server.sendToPrimary({ packet: { payload: Buffer.from('hello'), metadata: [{ metadata_id: 1, value: Buffer.from([5]) }, { metadata_id: 2, value: Buffer.from([0]) }] } });
    const { value } = await packets.next();
    expect(value).toEqual({ payload: Buffer.from('hello'), metadata: { ingress_port: 5, _pad: 0 } });

    await c.packetOut(Buffer.from('out'), { egress_port: 3 });
    await expect.poll(() => server.streamMessages.length).toBe(1);
    expect(server.streamMessages[0]!.packet).toMatchObject({ payload: Buffer.from('out'), metadata: [{ metadata_id: 1, value: Buffer.from([3]) }, { metadata_id: 2, value: Buffer.from([0]) }] });
  });

  it('digests decode by the P4Info struct and can be acked', async () => {
    const c = await primaryWithPipeline();
    const digests = c.digests();
    const digestId = c.schema!.digests.get('learn').id;
    const struct = { struct: { members: [{ bitstring: Buffer.from('aabbccddeeff', 'hex') }, { bitstring: Buffer.from([0, 4]) }] } };
    server.sendToPrimary({ digest: { digest_id: digestId, list_id: '77', data: [struct], timestamp: '123' } });
    const { value } = await digests.next();
    expect(value).toMatchObject({ digestId, name: 'learn', listId: 77n, timestamp: 123n, data: [{ src_addr: 0xaabbccddeeff, port: 4 }] });
    await value!.ack();
    await expect.poll(() => server.streamMessages.length).toBe(1);
    expect(server.streamMessages[0]!.digest_ack).toEqual({ digest_id: digestId, list_id: '77' });
  });

  it('StreamErrors become error events; iterators end on close', async () => {
    const c = await primaryWithPipeline();
    const errorEvent = once(c, 'error');
    server.sendToPrimary({ error: { canonical_code: grpc.status.INVALID_ARGUMENT, message: 'bad packet out', space: '', code: 0 } });
    const [err] = (await errorEvent) as [P4StreamError];
    expect(err).toBeInstanceOf(P4StreamError);
    expect(err.code).toBe('P4RUNTIME_STREAM_ERROR');
    expect(err.details).toBe('bad packet out');

    const packets = c.packets();
    const seen: unknown[] = [];
    const loop = (async () => {
      for await (const p of packets) seen.push(p);
    })();
    expect(c.unclaimed.packets).toBe(0);
    await c.close();
    await loop;
    expect(seen).toEqual([]);
    expect(c.packets().closed).toBe(true);
  });
});

describe('reconnection', () => {
  it('reconnects with backoff after the stream breaks, re-sending arbitration', async () => {
    const c = await primaryWithPipeline();
    const disconnected = once(c, 'disconnect');
    const reconnected = once(c, 'reconnect');
    const primaryAgain = once(c, 'primary');
    server.refuseArbitrations = 2;
    server.breakStreams();
    const [error] = (await disconnected) as [P4RuntimeError];
    expect(error.code).toBe('P4RUNTIME_UNAVAILABLE');
    expect(c.isPrimary).toBe(false);
    const [info] = await reconnected;
    expect(info).toEqual({ attempt: 3, primary: true });
    await primaryAgain;
    expect(c.isPrimary).toBe(true);
    expect(server.arbitrations).toHaveLength(4); // the first, two refused, the one that worked
    await c.write(modify(register('slots', { index: 1, value: 1 })));
  });

  it('gives up after maxAttempts with an error event', async () => {
    const c = await primaryWithPipeline({ reconnect: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 } });
    const gaveUp = once(c, 'error');
    server.refuseArbitrations = 5;
    server.breakStreams();
    const [err] = (await gaveUp) as [Error & { code: string }];
    expect(err.code).toBe('P4RUNTIME_RECONNECT_GAVE_UP');
    expect(server.arbitrations).toHaveLength(3);
    expect(c.isPrimary).toBe(false);
  });

  it('with reconnect: false the client stays down and says so', async () => {
    const c = await primaryWithPipeline({ reconnect: false });
    const disconnected = once(c, 'disconnect');
    server.breakStreams();
    await disconnected;
    expect(c.isPrimary).toBe(false);
    expect((await rejection(c.packetOut(Buffer.from('x'), { egress_port: 1 }))).code).toBe('P4RUNTIME_NOT_CONNECTED');
    expect(server.arbitrations).toHaveLength(1);
  });
});
