// The error-code table of the P4Runtime notes (§1 "Error codes"), second half:
// PERMISSION_DENIED, FAILED_PRECONDITION, UNIMPLEMENTED, RESOURCE_EXHAUSTED and
// OUT_OF_RANGE (the first half is in error-codes.test.ts), as a user sees them:
// P4WriteError.failures tied to the update that failed, or the gRPC code of a
// P4RuntimeError. What the client refuses to send goes through the bare stub.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  action,
  actionProfileGroup,
  actionProfileMember,
  actionSet,
  counter,
  defaultEntry,
  del,
  directMeter,
  insert,
  isNotPrimary,
  isPipelineMissing,
  meter,
  modify,
  multicastGroup,
  table,
} from '../../src/p4runtime/index.js';
import { buildP4Info } from '../helpers/p4info-builder.js';
import { editedP4Info, idsOf, kitchenSinkWithProfiles } from './helpers/programs.js';
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

describe('PERMISSION_DENIED', () => {
  it('refuses writes and pipeline pushes from a backup, and from a client without a stream', async () => {
    await sw.primaryWith(P4INFO);
    const backup = await sw.connect({ electionId: 5n });
    backup.useP4Info(P4INFO);
    const err = await rpcError(backup.write(insert(l2(1))));
    expect(err.grpcCodeName).toBe('PERMISSION_DENIED');
    expect(isNotPrimary(err)).toBe(true);
    expect(await rpcCode(backup.setPipeline({ p4info: P4INFO, force: true }))).toBe('PERMISSION_DENIED');
    const streamless = sw.client({ electionId: 500n });
    streamless.useP4Info(P4INFO);
    expect(await rpcCode(streamless.write(insert(l2(1))))).toBe('PERMISSION_DENIED');
  });

  it('refuses writes to const tables and const default actions (sent raw: the client refuses them)', async () => {
    const client = await sw.primaryWith(P4INFO);
    expect(await clientRefusal(client.write(insert(table('ingress.fixed', { 'hdr.ipv4.ttl': 1 }, action('ingress.drop')))))).toBe('ENTITY_CONST_TABLE');
    expect(await clientRefusal(client.write(modify(defaultEntry('ingress.tiny', action('ingress.set_mark', { mark: 1 })))))).toBe('ENTITY_CONST_DEFAULT_ACTION');
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'INSERT', entity: { table_entry: { table_id: ids.table('ingress.fixed'), match: [{ field_id: 1, exact: { value: b(1) } }], action: { action: { action_id: ids.action('ingress.drop') } } } } },
          { type: 'MODIFY', entity: { table_entry: { table_id: ids.table('ingress.tiny'), is_default_action: true, action: { action: { action_id: ids.action('ingress.set_mark'), params: [{ param_id: 1, value: b(1) }] } } } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['PERMISSION_DENIED', 'PERMISSION_DENIED']);
  });

  it('refuses actions used against their scope (sent raw: the client refuses them)', async () => {
    const client = await sw.primaryWith(P4INFO);
    expect(await clientRefusal(client.write(insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': mac(1) }, action('NoAction')))))).toBe('ENTITY_ACTION_SCOPE');
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'INSERT', entity: { table_entry: { table_id: ids.table('ingress.l2'), match: [{ field_id: 1, exact: { value: b(1) } }], action: { action: { action_id: ids.action('NoAction') } } } } },
          { type: 'MODIFY', entity: { table_entry: { table_id: ids.table('ingress.acl'), is_default_action: true, action: { action: { action_id: ids.action('ingress.to_cpu') } } } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['PERMISSION_DENIED', 'PERMISSION_DENIED']);
  });
});

describe('FAILED_PRECONDITION', () => {
  it('refuses writes and reads before a pipeline is set', async () => {
    const client = await sw.connect({ electionId: PRIMARY });
    client.useP4Info(P4INFO);
    const err = await rpcError(client.write(insert(l2(1))));
    expect(err.grpcCodeName).toBe('FAILED_PRECONDITION');
    expect(isPipelineMissing(err)).toBe(true);
    expect(await rpcCode(client.readAll(table('*')))).toBe('FAILED_PRECONDITION');
  });

  it('ends a stream whose arbitration changes device or role', async () => {
    for (const change of [{ deviceId: sw.deviceId + 1 }, { role: 'sdn.other' }]) {
      const stream = sw.raw.stream();
      stream.arbitrate(3n);
      expect((await stream.next()).arbitration?.status?.code).toBe(0);
      stream.arbitrate(3n, change);
      expect(await stream.status).toMatchObject({ code: 9 /* FAILED_PRECONDITION */ });
    }
  });

  it('refuses to delete an action profile member that a group still uses', async () => {
    const client = await sw.primaryWith(P4INFO);
    await client.write([insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.drop'))), insert(actionProfileGroup('ingress.ecmp_selector', 1, [{ memberId: 1 }]))]);
    expect(await failedUpdates(client.write(del(actionProfileMember('ingress.ecmp_selector', 1))))).toEqual([[0, 'FAILED_PRECONDITION']]);
  });
});

describe('UNIMPLEMENTED: what this switch does not implement', () => {
  it('refuses backup replicas, meter colour counters and watch ports (in groups and in one-shot action sets)', async () => {
    const client = await sw.primaryWith(P4INFO);
    await client.write(insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.drop'))));
    const updates = [
      insert(multicastGroup(1, [{ port: 1, backups: [{ port: 2 }] }])),
      modify(meter('ingress.port_meter', { index: 0, counterData: { green: { packetCount: 1 } } })),
      insert(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.0.0.1' }, actionSet([{ action: action('ingress.drop'), watchPort: 3 }]))),
      insert(actionProfileGroup('ingress.ecmp_selector', 1, [{ memberId: 1, watchPort: 3 }])),
    ];
    expect(await failedUpdates(client.write(updates))).toEqual([0, 1, 2, 3].map((i) => [i, 'UNIMPLEMENTED']));
  });

  it('refuses extern entries and architecture-specific stream messages', async () => {
    await sw.primaryWith(P4INFO);
    expect(await rawItemCodes(sw.raw.write([{ type: 'INSERT', entity: { extern_entry: { extern_type_id: 0x81, extern_id: 1 } } }], { electionId: PRIMARY }))).toEqual(['UNIMPLEMENTED']);
    const stream = sw.raw.stream();
    stream.arbitrate(PRIMARY + 1n);
    await stream.next();
    stream.send({ other: { type_url: 'type.googleapis.com/vendor.Thing', value: b(1) } });
    expect((await stream.next()).error?.canonical_code).toBe(12 /* UNIMPLEMENTED */);
  });

  it('refuses architecture-specific match kinds and registers of non-bitstring types (bare stub)', async () => {
    const base = buildP4Info({ actions: [{ name: 'NoAction' }], tables: [{ name: 'ingress.t', keys: [['meta.k', 'EXACT', 8]], actions: ['NoAction'] }], registers: [{ name: 'ingress.r', size: 2, bitwidth: 8 }] });
    const p4info = editedP4Info(base, (plain) => {
      const [t] = plain.tables as { match_fields: Record<string, unknown>[] }[];
      t!.match_fields[0] = { id: 1, name: 'meta.k', bitwidth: 8, other_match_type: 'vendor_kind' };
      (plain.registers![0] as Record<string, unknown>).type_spec = { bool: {} };
    });
    const client = await sw.primaryWith(p4info);
    const t = client.schema!.tables.get('ingress.t').id;
    const r = client.schema!.registers.get('ingress.r').id;
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'INSERT', entity: { table_entry: { table_id: t, match: [{ field_id: 1, other: { type_url: 'x', value: b(1) } }], action: { action: { action_id: client.schema!.actions.get('NoAction').id } } } } },
          { type: 'MODIFY', entity: { register_entry: { register_id: r, index: { index: 0 }, data: { bool: true } } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['UNIMPLEMENTED', 'UNIMPLEMENTED']);
    expect((await rawError(sw.raw.read([{ register_entry: { register_id: r } }]))).itemCodes).toEqual(['UNIMPLEMENTED']);
  });

  it('implements every atomicity and RECONCILE_AND_COMMIT (so neither answers UNIMPLEMENTED)', async () => {
    const client = await sw.primaryWith(P4INFO);
    await client.write([insert(l2(1))], { atomicity: 'ROLLBACK_ON_ERROR' });
    await client.write([insert(l2(2))], { atomicity: 'DATAPLANE_ATOMIC' });
    await client.setPipeline({ p4info: P4INFO, deviceConfig: 'v2', action: 'RECONCILE_AND_COMMIT' });
    expect((await client.readAll(table('ingress.l2'))).length).toBe(2);
  });
});

describe('RESOURCE_EXHAUSTED and OUT_OF_RANGE', () => {
  it('refuses a stream beyond the per-role limit at connect', async () => {
    const small = await SwitchUnderTest.start({ limits: { maxStreamsPerRole: 2 } });
    try {
      await small.connect({ electionId: 1n });
      await small.connect({ electionId: 2n });
      expect(await rpcCode(small.client({ electionId: 3n }).connect())).toBe('RESOURCE_EXHAUSTED');
      // Another role has room of its own.
      expect((await small.connect({ electionId: 3n, role: 'sdn.other' })).isPrimary).toBe(true);
    } finally {
      await small.stop();
    }
  });


  it('refuses the insert that overflows a full table (ingress.tiny holds 4)', async () => {
    const client = await sw.primaryWith(P4INFO);
    const updates = [1, 2, 3, 4, 5].map((t) => insert(table('ingress.tiny', { 'hdr.ethernet.ether_type': t }, action('ingress.set_mark', { mark: t }))));
    expect(await failedUpdates(client.write(updates))).toEqual([[4, 'RESOURCE_EXHAUSTED']]);
    expect((await client.readAll(table('ingress.tiny'))).length).toBe(4);
  });

  it('refuses an index past the end of counters, meters and registers (sent raw: the client refuses them)', async () => {
    const client = await sw.primaryWith(P4INFO);
    expect(await clientRefusal(client.write(modify(counter('ingress.port_packets', { index: 512, data: {} }))))).toBe('ENTITY_BAD_INDEX');
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'MODIFY', entity: { counter_entry: { counter_id: ids.counter('ingress.port_packets'), index: { index: 512 }, data: {} } } },
          { type: 'MODIFY', entity: { meter_entry: { meter_id: ids.meter('ingress.port_meter'), index: { index: 64 } } } },
          { type: 'MODIFY', entity: { register_entry: { register_id: ids.register('ingress.slots'), index: { index: 64 }, data: { bitstring: b(1) } } } },
          { type: 'MODIFY', entity: { register_entry: { register_id: ids.register('ingress.slots'), index: { index: -1 }, data: { bitstring: b(1) } } } },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['OUT_OF_RANGE', 'OUT_OF_RANGE', 'OUT_OF_RANGE', 'INVALID_ARGUMENT']);
    const read = await rawError(sw.raw.read([{ register_entry: { register_id: ids.register('ingress.slots'), index: { index: 64 } } }]));
    expect(read.itemCodes).toEqual(['OUT_OF_RANGE']);
  });
});

describe('meters on direct resources', () => {
  it('refuses colour counters on a direct meter too', async () => {
    const client = await sw.primaryWith(P4INFO);
    await client.write(insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.drop'))));
    const entry = table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' });
    expect(await failedUpdates(client.write(modify(directMeter(entry, undefined, { red: { packetCount: 1 } }))))).toEqual([[0, 'UNIMPLEMENTED']]);
  });
});
