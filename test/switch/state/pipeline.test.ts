import { status as grpcStatus } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { DeviceState, type InstalledPipeline } from '../../../src/switch/state/device-state.js';
import { Code, OK } from '../../../src/switch/state/status.js';
import { b, decoded, expectOk, id, pipelineConfig, quietLogger, read, readStatus, snapshot, testP4Info, update, write1, writeAll } from './helpers.js';

const L2 = id.table('ingress.l2');
const FORWARD = id.action('ingress.forward');
const mac = (last: number): Buffer => b(0xaa, 0xbb, 0xcc, 0xdd, 0xee, last);
const l2Entry = (last: number, port = 1): object => ({
  table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(last) } }], action: { action: { action_id: FORWARD, params: [{ param_id: 1, value: b(port) }] } } },
});

function device(): DeviceState {
  return new DeviceState({ logger: quietLogger() });
}

/** The test P4Info without ingress.l2 (a program change that drops a table). */
function withoutL2(): ReturnType<typeof testP4Info> {
  const p4info = testP4Info();
  return { ...p4info, tables: p4info.tables.filter((t) => t.preamble!.name !== 'ingress.l2'), direct_counters: [] };
}

describe('status codes', () => {
  it('uses the numbers of grpc-js', () => {
    expect(Code.NOT_FOUND).toBe(grpcStatus.NOT_FOUND);
    expect(Code.UNIMPLEMENTED).toBe(grpcStatus.UNIMPLEMENTED);
    expect(Code.RESOURCE_EXHAUSTED).toBe(grpcStatus.RESOURCE_EXHAUSTED);
    expect(OK).toEqual({ code: grpcStatus.OK, message: '' });
  });
});

describe('before any pipeline', () => {
  it('refuses writes and reads with FAILED_PRECONDITION and returns no config', () => {
    const d = device();
    expect(d.write([update('INSERT', l2Entry(1))], 'CONTINUE_ON_ERROR')).toMatchObject({ code: Code.FAILED_PRECONDITION });
    expect(readStatus(d, { table_entry: {} }).code).toBe(Code.FAILED_PRECONDITION);
    expect(d.getPipeline('ALL')).toEqual({ status: OK });
    expect(d.pipeline).toBeUndefined();
    expect(d.digestConfig(1)).toBeUndefined();
  });
});

describe('SetForwardingPipelineConfig', () => {
  it('VERIFY checks without installing; a missing or inconsistent config is INVALID_ARGUMENT', () => {
    const d = device();
    expect(d.setPipeline('VERIFY', pipelineConfig())).toEqual(OK);
    expect(d.pipeline).toBeUndefined();
    expect(d.setPipeline('VERIFY', null)).toMatchObject({ code: Code.INVALID_ARGUMENT });
    expect(d.setPipeline('VERIFY', decoded<p4r.ForwardingPipelineConfig__Output>('p4.v1.ForwardingPipelineConfig', {}))).toMatchObject({
      code: Code.INVALID_ARGUMENT,
      message: expect.stringMatching(/no p4info/) as unknown,
    });
    const p4info = testP4Info();
    const broken = { ...p4info, tables: [...p4info.tables, p4info.tables[0]!] };
    expect(d.setPipeline('VERIFY', pipelineConfig(broken))).toMatchObject({ code: Code.INVALID_ARGUMENT, message: expect.stringMatching(/id 0x[0-9a-f]{8} is used twice/) as unknown });
    const huge = { ...p4info, registers: [{ ...p4info.registers[0]!, size: 1 << 30 }] };
    expect(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(huge))).toMatchObject({ code: Code.INVALID_ARGUMENT });
    expect(d.setPipeline('UNSPECIFIED', pipelineConfig())).toMatchObject({ code: Code.INVALID_ARGUMENT });
    expect(d.setPipeline('', pipelineConfig())).toMatchObject({ code: Code.INVALID_ARGUMENT });
    expect(d.pipeline).toBeUndefined();
  });

  it('VERIFY_AND_COMMIT realizes the config, keeps the cookie (absent ≠ 0) and clears forwarding state', () => {
    const d = device();
    const seen: (InstalledPipeline | undefined)[] = [];
    const stop = d.onPipelineChange((p) => seen.push(p));
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(testP4Info(), '18446744073709551615')));
    expect(d.pipeline?.cookie).toBe('18446744073709551615');
    expect(d.pipeline?.deviceConfig.toString()).toBe('{"program":"test"}');
    expect(seen).toEqual([d.pipeline]);
    expectOk(write1(d, 'INSERT', l2Entry(1)));
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(testP4Info(), 0)));
    expect(d.pipeline?.cookie).toBe('0');
    expect(read(d, { table_entry: {} })).toEqual([]);
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig()));
    expect(d.pipeline?.cookie).toBeUndefined();
    expect(seen).toHaveLength(3);
    stop();
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig()));
    expect(seen).toHaveLength(3);
  });

  it('GetForwardingPipelineConfig honours every response type', () => {
    const d = device();
    const p4info = testP4Info();
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info, 42)));
    const all = d.getPipeline('ALL');
    expect(all.status).toEqual(OK);
    expect(all.config).toEqual({ p4info, p4_device_config: Buffer.from('{"program":"test"}'), cookie: { cookie: '42' } });
    expect(d.getPipeline('COOKIE_ONLY').config).toEqual({ cookie: { cookie: '42' } });
    expect(d.getPipeline('P4INFO_AND_COOKIE').config).toEqual({ p4info, cookie: { cookie: '42' } });
    expect(d.getPipeline('DEVICE_CONFIG_AND_COOKIE').config).toEqual({ p4_device_config: Buffer.from('{"program":"test"}'), cookie: { cookie: '42' } });
    expect(d.getPipeline('NONSENSE').status.code).toBe(Code.INVALID_ARGUMENT);
    // The config is encodable as the gRPC server will send it.
    const wire = decoded<p4r.ForwardingPipelineConfig__Output>('p4.v1.ForwardingPipelineConfig', all.config!);
    expect(wire.cookie?.cookie).toBe('42');
    expect(wire.p4info?.tables.length).toBe(p4info.tables.length);
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)));
    expect(d.getPipeline('COOKIE_ONLY').config).toEqual({});
  });

  it('VERIFY_AND_SAVE then COMMIT: reads and writes use the saved P4Info, the data plane keeps the old until COMMIT', () => {
    const d = device();
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(testP4Info(), 1)));
    expectOk(write1(d, 'INSERT', l2Entry(1)));
    const before = d.forwarding!;
    expectOk(d.setPipeline('VERIFY_AND_SAVE', pipelineConfig(withoutL2(), 2)));
    expect(d.pipeline?.cookie).toBe('1');
    expect(d.getPipeline('COOKIE_ONLY').config).toEqual({ cookie: { cookie: '2' } });
    // ingress.l2 is gone from the saved P4Info.
    expect(write1(d, 'INSERT', l2Entry(2)).code).toBe(Code.NOT_FOUND);
    expect(readStatus(d, { table_entry: { table_id: L2 } }).code).toBe(Code.NOT_FOUND);
    const mcast = { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 5, replicas: [{ port: b(1), instance: 0 }] } } };
    expectOk(write1(d, 'INSERT', mcast));
    // The data plane still runs the committed state, untouched.
    expect(d.forwarding).toBe(before);
    expect(before.pre.multicastGroups.size).toBe(0);
    expect(before.tables.lookup(L2).size).toBe(1);
    expectOk(d.setPipeline('COMMIT', null));
    expect(d.pipeline?.cookie).toBe('2');
    expect(d.forwarding!.pre.multicastGroups.get(5)?.replicas).toEqual([{ port: 1, instance: 0, portForm: 'port' }]);
    expect(d.forwarding!.tables.find(L2)).toBeUndefined();
    expect(d.setPipeline('COMMIT', null)).toMatchObject({ code: Code.NOT_FOUND });
  });

  it('COMMIT refuses a config and needs a saved one', () => {
    const d = device();
    expect(d.setPipeline('COMMIT', null)).toMatchObject({ code: Code.NOT_FOUND });
    expectOk(d.setPipeline('VERIFY_AND_SAVE', pipelineConfig()));
    expect(d.setPipeline('COMMIT', pipelineConfig())).toMatchObject({ code: Code.INVALID_ARGUMENT });
    // A save alone is enough for writes to be accepted.
    expectOk(write1(d, 'INSERT', l2Entry(1)));
    expect(d.pipeline).toBeUndefined();
    expectOk(d.setPipeline('COMMIT', null));
    expect(read(d, { table_entry: { table_id: L2 } })).toHaveLength(1);
  });
});

describe('RECONCILE_AND_COMMIT', () => {
  function populated(): DeviceState {
    const d = device();
    expectOk(d.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(testP4Info(), 1)));
    const ecmp = id.profile('ingress.ecmp_selector');
    const nhop = { action_id: id.action('ingress.set_nhop'), params: [{ param_id: 1, value: b(1) }, { param_id: 2, value: b(2) }] };
    const updates = [
      update('INSERT', { table_entry: { ...(l2Entry(1) as { table_entry: object }).table_entry, counter_data: { packet_count: 4, byte_count: 400 }, metadata: b(1) } }),
      update('MODIFY', { table_entry: { table_id: id.table('ingress.acl'), is_default_action: true, action: { action: { action_id: id.action('ingress.drop') } } } }),
      update('MODIFY', { direct_counter_entry: { table_entry: { table_id: L2, is_default_action: true }, data: { packet_count: 9 } } }),
      update('MODIFY', { counter_entry: { counter_id: id.counter('ingress.port_packets'), index: { index: 3 }, data: { packet_count: 1 } } }),
      update('MODIFY', { meter_entry: { meter_id: id.meter('ingress.port_meter'), index: { index: 1 }, config: { cir: 1, cburst: 2, pir: 3, pburst: 4 } } }),
      update('MODIFY', { register_entry: { register_id: id.register('ingress.slots'), index: { index: 2 }, data: { bitstring: b(7) } } }),
      update('INSERT', { packet_replication_engine_entry: { clone_session_entry: { session_id: 3, replicas: [{ egress_port: 4, instance: 1 }] } } }),
      update('INSERT', { digest_entry: { digest_id: id.digest('learn'), config: { max_list_size: 5 } } }),
      update('MODIFY', { value_set_entry: { value_set_id: id.valueSet('parser.trill_types'), members: [{ match: [{ field_id: 1, exact: { value: b(8, 6) } }] }] } }),
      update('INSERT', { action_profile_member: { action_profile_id: ecmp, member_id: 1, action: nhop } }),
    ];
    writeAll(d, updates).forEach(expectOk);
    writeAll(d, [update('INSERT', { action_profile_group: { action_profile_id: ecmp, group_id: 2, members: [{ member_id: 1, weight: 2 }] } })]).forEach(expectOk);
    writeAll(d, [update('INSERT', { table_entry: { table_id: id.table('ingress.ecmp'), match: [{ field_id: 1, exact: { value: b(1) } }], action: { action_profile_group_id: 2 } } })]).forEach(expectOk);
    return d;
  }

  it('keeps every entity when the new P4Info still fits it', () => {
    const d = populated();
    const before = snapshot(d);
    const old = d.forwarding;
    const seen: (InstalledPipeline | undefined)[] = [];
    d.onPipelineChange((p) => seen.push(p));
    expectOk(d.setPipeline('RECONCILE_AND_COMMIT', pipelineConfig(testP4Info(), 2)));
    expect(d.pipeline?.cookie).toBe('2');
    expect(d.forwarding).not.toBe(old);
    expect(seen).toEqual([d.pipeline]);
    expect(snapshot(d)).toEqual(before);
    expect(read(d, { direct_counter_entry: { table_entry: { table_id: L2, is_default_action: true } } })[0]!.direct_counter_entry!.data!.packet_count).toBe('9');
    expect(d.forwarding!.tables.lookup(id.table('ingress.acl')).defaultEntry.isProgramDefault).toBe(false);
  });

  it('fails with INVALID_ARGUMENT and keeps the old pipeline when an entity no longer fits', () => {
    const d = populated();
    const before = snapshot(d);
    const old = d.pipeline;
    const s = d.setPipeline('RECONCILE_AND_COMMIT', pipelineConfig(withoutL2(), 2));
    expect(s.code).toBe(Code.INVALID_ARGUMENT);
    expect(s.message).toMatch(/does not fit the new P4Info/);
    expect(d.pipeline).toBe(old);
    expect(snapshot(d)).toEqual(before);
  });

  it('without a pipeline, realizes the new one', () => {
    const d = device();
    expectOk(d.setPipeline('RECONCILE_AND_COMMIT', pipelineConfig()));
    expect(d.pipeline?.p4info.tables.length).toBe(pipelineConfig().p4info!.tables!.length);
    expect(d.setPipeline('RECONCILE_AND_COMMIT', null)).toMatchObject({ code: Code.INVALID_ARGUMENT });
  });
});
