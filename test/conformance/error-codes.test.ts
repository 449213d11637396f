// The error-code table of the P4Runtime notes (§1 "Error codes"), first half:
// ALREADY_EXISTS, NOT_FOUND and INVALID_ARGUMENT, each listed case (the rest is
// in error-codes-access-and-limits.test.ts), as a user sees them:
// P4WriteError.failures tied to the update that failed, or the gRPC code of a
// P4RuntimeError. What the client refuses to send goes through the bare stub,
// and then the switch's per-update code is checked.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  action,
  actionProfileGroup,
  actionProfileMember,
  cloneSession,
  counter,
  defaultEntry,
  del,
  digestEntry,
  insert,
  isElectionIdUsed,
  memberRef,
  meter,
  modify,
  multicastGroup,
  table,
} from '../../src/p4runtime/index.js';
import { idsOf, kitchenSinkWithProfiles } from './helpers/programs.js';
import { clientRefusal, failedUpdates, rawError, rawItemCodes, rpcCode, rpcError } from './helpers/outcomes.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY, b, mac, l2 } from './helpers/entities.js';

const P4INFO = kitchenSinkWithProfiles();
const ids = idsOf(P4INFO);

let sw: SwitchUnderTest;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
});
afterEach(async () => {
  await sw.stop();
});

describe('ALREADY_EXISTS: a duplicate INSERT', () => {
  it('names the second of two identical inserts, for every kind that can be inserted', async () => {
    const client = await sw.primaryWith(P4INFO);
    const updates = [
      insert(l2(1)),
      insert(l2(1, 2)),
      insert(multicastGroup(1, [{ port: 1 }])),
      insert(multicastGroup(1, [{ port: 2 }])),
      insert(cloneSession(5, [{ port: 3 }])),
      insert(cloneSession(5, [{ port: 4 }])),
      insert(digestEntry('learn', { maxListSize: 1 })),
      insert(digestEntry('learn', { maxListSize: 2 })),
      insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.drop'))),
      insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.drop'))),
    ];
    expect(await failedUpdates(client.write(updates))).toEqual([
      [1, 'ALREADY_EXISTS'],
      [3, 'ALREADY_EXISTS'],
      [5, 'ALREADY_EXISTS'],
      [7, 'ALREADY_EXISTS'],
      [9, 'ALREADY_EXISTS'],
    ]);
  });
});

describe('NOT_FOUND', () => {
  it('refuses a client of an unknown device at connect, and its reads and pipeline requests', async () => {
    const stranger = sw.client({ electionId: 1n, deviceId: 99 });
    const err = await rpcError(stranger.connect());
    expect(err.grpcCodeName).toBe('NOT_FOUND');
    expect(err.code).toBe('P4RUNTIME_NOT_FOUND');
    expect(await rpcCode(stranger.getPipeline())).toBe('NOT_FOUND');
    stranger.useP4Info(P4INFO);
    expect(await rpcCode(stranger.readAll(table('ingress.l2')))).toBe('NOT_FOUND');
    expect(await rpcCode(stranger.write(insert(l2(1))))).toBe('NOT_FOUND');
    expect(await rpcCode(stranger.setPipeline({ p4info: P4INFO }))).toBe('NOT_FOUND');
  });

  it('refuses MODIFY and DELETE of missing entities of every kind', async () => {
    const client = await sw.primaryWith(P4INFO);
    const updates = [
      modify(l2(1)),
      del(l2(1)),
      modify(multicastGroup(3, [{ port: 1 }])),
      del(multicastGroup(3)),
      modify(cloneSession(3, [{ port: 1 }])),
      del(cloneSession(3)),
      modify(digestEntry('learn', { maxListSize: 1 })),
      del(digestEntry('learn')),
      modify(actionProfileMember('ingress.ecmp_selector', 4, action('ingress.drop'))),
      del(actionProfileMember('ingress.ecmp_selector', 4)),
      del(actionProfileGroup('ingress.ecmp_selector', 4)),
    ];
    const failures = await failedUpdates(client.write(updates));
    expect(failures).toEqual(updates.map((_, i) => [i, 'NOT_FOUND']));
  });

  it('refuses references to an unknown action profile member or group', async () => {
    const client = await sw.primaryWith(P4INFO);
    await client.write(insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.drop'))));
    const updates = [
      insert(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.0.0.1' }, memberRef(7))),
      insert(actionProfileGroup('ingress.ecmp_selector', 2, [{ memberId: 1 }, { memberId: 8 }])),
      insert(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.0.0.2' }, memberRef(1))),
    ];
    expect(await failedUpdates(client.write(updates))).toEqual([
      [0, 'NOT_FOUND'],
      [1, 'NOT_FOUND'],
    ]);
  });

  it('refuses COMMIT when nothing was saved', async () => {
    const client = await sw.connect({ electionId: PRIMARY });
    expect(await rpcCode(client.setPipeline({ action: 'COMMIT' }))).toBe('NOT_FOUND');
  });

  it('refuses writes for a role nobody arbitrated for', async () => {
    await sw.primaryWith(P4INFO);
    const other = sw.client({ electionId: PRIMARY, role: 'sdn.monitor' });
    other.useP4Info(P4INFO);
    expect(await rpcCode(other.write(insert(l2(1))))).toBe('NOT_FOUND');
  });

  it('refuses unknown table, counter, meter, register and digest ids (p4ina answers NOT_FOUND; PI answers INVALID_ARGUMENT)', async () => {
    await sw.primaryWith(P4INFO);
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'INSERT', entity: { table_entry: { table_id: 0x02000bad, match: [{ field_id: 1, exact: { value: b(1) } }], action: { action: { action_id: ids.action('ingress.drop') } } } } },
          { type: 'MODIFY', entity: { counter_entry: { counter_id: 0x12000bad, data: {} } } },
          { type: 'MODIFY', entity: { meter_entry: { meter_id: 0x14000bad } } },
          { type: 'MODIFY', entity: { register_entry: { register_id: 0x16000bad, data: { bitstring: b(1) } } } },
          { type: 'INSERT', entity: { digest_entry: { digest_id: 0x17000bad, config: {} } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND']);
  });
});

describe('INVALID_ARGUMENT', () => {
  it('refuses malformed entities the client lets through, naming each update', async () => {
    const client = await sw.primaryWith(P4INFO);
    const updates = [
      insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': mac(1) }, action('ingress.forward', { port: 1 }), { isConst: true })),
      insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': mac(2) }, action('ingress.forward', { port: 1 }), { idleTimeoutNs: 1_000_000 })),
      insert(table('ingress.acl', { 'hdr.ipv4.protocol': 6 }, action('ingress.drop'), { priority: 1, counterData: { packetCount: 1 } })),
      modify(meter('ingress.port_meter', { index: 0, config: { cir: 1, cburst: 1, pir: 2, pburst: 2, eburst: 5 } })),
      modify(counter('ingress.port_packets', { index: 0, data: { packetCount: -1 } })),
      insert(digestEntry('learn', { maxListSize: -1 })),
      insert(l2(3)),
    ];
    expect(await failedUpdates(client.write(updates))).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i, 'INVALID_ARGUMENT']));
  });

  it('refuses priority misuse and INSERT of default, counter and meter entries (sent raw: the client refuses them)', async () => {
    const client = await sw.primaryWith(P4INFO);
    expect(await clientRefusal(client.write(insert(defaultEntry('ingress.l2', action('ingress.drop')))))).toBe('ENTITY_UPDATE_NOT_ALLOWED');
    expect(await clientRefusal(client.write(insert(counter('ingress.port_packets', { index: 1, data: {} }))))).toBe('ENTITY_UPDATE_NOT_ALLOWED');
    const drop = { action: { action_id: ids.action('ingress.drop') } };
    const l2Match = [{ field_id: 1, exact: { value: b(1) } }];
    const aclMatch = [{ field_id: 3, optional: { value: b(6) } }];
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'INSERT', entity: { table_entry: { table_id: ids.table('ingress.acl'), match: aclMatch, action: drop } } },
          { type: 'INSERT', entity: { table_entry: { table_id: ids.table('ingress.l2'), match: l2Match, action: drop, priority: 10 } } },
          { type: 'INSERT', entity: { table_entry: { table_id: ids.table('ingress.l2'), is_default_action: true, action: drop } } },
          { type: 'DELETE', entity: { table_entry: { table_id: ids.table('ingress.l2'), is_default_action: true } } },
          { type: 'INSERT', entity: { counter_entry: { counter_id: ids.counter('ingress.port_packets'), index: { index: 1 }, data: {} } } },
          { type: 'INSERT', entity: { meter_entry: { meter_id: ids.meter('ingress.port_meter'), index: { index: 1 } } } },
          { type: 'DELETE', entity: { register_entry: { register_id: ids.register('ingress.slots'), index: { index: 1 } } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(Array(7).fill('INVALID_ARGUMENT'));
  });

  it('refuses id 0 in PRE writes (sent raw: the client refuses them)', async () => {
    const client = await sw.primaryWith(P4INFO);
    expect(await clientRefusal(client.write(insert(multicastGroup(0, [{ port: 1 }]))))).toBe('ENTITY_BAD_ID');
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'INSERT', entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 0, replicas: [{ port: b(1) }] } } } },
          { type: 'INSERT', entity: { packet_replication_engine_entry: { clone_session_entry: { session_id: 0, replicas: [{ port: b(1) }] } } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
  });

  it('refuses a duplicate election id at connect', async () => {
    await sw.connect({ electionId: 7n });
    const err = await rpcError(sw.client({ electionId: 7n }).connect());
    expect(err.grpcCodeName).toBe('INVALID_ARGUMENT');
    expect(isElectionIdUsed(err)).toBe(true);
  });

  it('refuses an atomicity the protocol does not define', async () => {
    await sw.primaryWith(P4INFO);
    const err = await rawError(sw.raw.write([], { electionId: PRIMARY }, 7 as unknown as 'CONTINUE_ON_ERROR'));
    expect(err.codeName).toBe('INVALID_ARGUMENT');
  });
});
