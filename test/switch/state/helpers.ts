// Helpers for the device-state tests: a P4Info with one of everything, exact
// decoded messages (as the gRPC server hands them over) and a state snapshot to
// check that refused updates change nothing.
import { expect } from 'vitest';
import { assignIds } from '../../../src/p4info/ids.js';
import { rootLogger, type Logger } from '../../../src/log/logger.js';
import { IdPrefix, P4Schema } from '../../../src/p4info/schema.js';
import type * as p4i from '../../../src/proto/p4i.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { CONVERSION, messageType } from '../../../src/proto/load.js';
import { DeviceState, type Atomicity } from '../../../src/switch/state/device-state.js';
import { Code, type Status } from '../../../src/switch/state/status.js';
import { kitchenSinkP4Info } from '../../helpers/p4info-builder.js';

/** A message in exactly the shape the server decodes it to (snake_case, int64 as strings, oneof names…). */
export function decoded<T>(typeName: string, value: object): T {
  const type = messageType(typeName);
  return type.toObject(type.fromObject(value as Record<string, unknown>), CONVERSION) as T;
}

/** Normalizes what the state returns (input-typed objects) to decoded form, for comparisons. */
export function normalize(entities: Iterable<p4r.Entity>): p4r.Entity__Output[] {
  return [...entities].map((e) => decoded<p4r.Entity__Output>('p4.v1.Entity', e));
}

/**
 * The kitchen-sink program plus what it lacks: a parser value set, an action
 * selector with an indirect table, a 64-bit register and a table with idle
 * timeouts.
 */
export function testP4Info(): p4i.P4Info__Output {
  const base = kitchenSinkP4Info();
  const type = messageType('p4.config.v1.P4Info');
  const plain = type.toObject(type.fromObject(base as unknown as Record<string, unknown>), { ...CONVERSION, defaults: false }) as Record<string, unknown[]>;
  const setNhop = base.actions.find((a) => a.preamble!.name === 'ingress.set_nhop')!.preamble!.id;
  const forward = base.actions.find((a) => a.preamble!.name === 'ingress.forward')!.preamble!.id;
  const tableIds = assignIds(IdPrefix.TABLE, [...base.tables.map((t) => t.preamble!.name), 'ingress.ecmp', 'ingress.flows']);
  const ecmp = tableIds.get('ingress.ecmp')!;
  const flows = tableIds.get('ingress.flows')!;
  const selector = assignIds(IdPrefix.ACTION_PROFILE, ['ingress.ecmp_selector']).get('ingress.ecmp_selector')!;
  const valueSet = assignIds(IdPrefix.VALUE_SET, ['parser.trill_types']).get('parser.trill_types')!;
  const wide = assignIds(IdPrefix.REGISTER, ['ingress.slots', 'ingress.wide']).get('ingress.wide')!;
  plain.tables!.push(
    {
      preamble: { id: ecmp, name: 'ingress.ecmp', alias: 'ecmp' },
      match_fields: [{ id: 1, name: 'hdr.ipv4.dst_addr', bitwidth: 32, match_type: 'EXACT' }],
      action_refs: [{ id: setNhop }],
      implementation_id: selector,
      size: '128',
    },
    {
      preamble: { id: flows, name: 'ingress.flows', alias: 'flows' },
      match_fields: [{ id: 1, name: 'meta.flow_id', bitwidth: 16, match_type: 'EXACT' }],
      action_refs: [{ id: forward }],
      size: '16',
      idle_timeout_behavior: 'NOTIFY_CONTROL',
    },
  );
  plain.action_profiles = [
    { preamble: { id: selector, name: 'ingress.ecmp_selector', alias: 'ecmp_selector' }, table_ids: [ecmp], with_selector: true, size: '8', max_group_size: 4 },
  ];
  plain.value_sets = [
    {
      preamble: { id: valueSet, name: 'parser.trill_types', alias: 'trill_types' },
      match: [
        { id: 1, name: 'ether_type', bitwidth: 16, match_type: 'EXACT' },
        { id: 2, name: 'flags', bitwidth: 8, match_type: 'TERNARY' },
      ],
      size: 3,
    },
  ];
  plain.registers!.push({ preamble: { id: wide, name: 'ingress.wide', alias: 'wide' }, type_spec: { bitstring: { bit: { bitwidth: 64 } } }, size: 4 });
  return type.toObject(type.fromObject(plain), CONVERSION) as p4i.P4Info__Output;
}

export const SCHEMA = new P4Schema(testP4Info());

/** P4Info ids by name, for building requests. */
export const id = {
  table: (name: string): number => SCHEMA.tables.get(name).id,
  action: (name: string): number => SCHEMA.actions.get(name).id,
  counter: (name: string): number => SCHEMA.counters.get(name).id,
  meter: (name: string): number => SCHEMA.meters.get(name).id,
  register: (name: string): number => SCHEMA.registers.get(name).id,
  digest: (name: string): number => SCHEMA.digests.get(name).id,
  valueSet: (name: string): number => SCHEMA.valueSets.get(name).id,
  profile: (name: string): number => SCHEMA.actionProfiles.get(name).id,
};

export function pipelineConfig(p4info: p4i.P4Info__Output = testP4Info(), cookie?: number | string): p4r.ForwardingPipelineConfig__Output {
  const value: Record<string, unknown> = { p4info, p4_device_config: Buffer.from('{"program":"test"}') };
  if (cookie !== undefined) value.cookie = { cookie };
  return decoded<p4r.ForwardingPipelineConfig__Output>('p4.v1.ForwardingPipelineConfig', value);
}

/** A logger that writes nothing, so test output stays readable. */
export function quietLogger(): Logger {
  return rootLogger().child({}, { level: 'silent' });
}

/** A device with the test pipeline committed. */
export function committedDevice(clock?: () => number): DeviceState {
  const device = new DeviceState({ logger: quietLogger(), ...(clock ? { clock } : {}) });
  const s = device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig());
  expect(s.code).toBe(Code.OK);
  return device;
}

export type UpdateKind = 'INSERT' | 'MODIFY' | 'DELETE' | 'UNSPECIFIED';

export function update(type: UpdateKind, entity: object): p4r.Update__Output {
  return decoded<p4r.Update__Output>('p4.v1.Update', { type, entity });
}

/** Writes a batch and returns the per-update statuses (fails the test on an RPC-wide status). */
export function writeAll(device: DeviceState, updates: p4r.Update__Output[], atomicity: Atomicity = 'CONTINUE_ON_ERROR'): Status[] {
  const result = device.write(updates, atomicity);
  if (!Array.isArray(result)) throw new Error(`RPC-wide failure: ${JSON.stringify(result)}`);
  return result;
}

/** Writes one update and returns its status. */
export function write1(device: DeviceState, type: UpdateKind, entity: object): Status {
  return writeAll(device, [update(type, entity)])[0]!;
}

export function expectOk(s: Status): void {
  expect(s, s.message).toEqual({ code: Code.OK, message: '' });
}

/** Reads entities (given as plain request objects); fails the test on an error status. */
export function read(device: DeviceState, ...requests: object[]): p4r.Entity__Output[] {
  const result = device.read(requests.map((r) => decoded<p4r.Entity__Output>('p4.v1.Entity', r)));
  if (!(Symbol.iterator in result)) throw new Error(`read failed: ${JSON.stringify(result)}`);
  return normalize(result);
}

export function readStatus(device: DeviceState, ...requests: object[]): Status {
  const result = device.read(requests.map((r) => decoded<p4r.Entity__Output>('p4.v1.Entity', r)));
  if (Symbol.iterator in result) return { code: Code.OK, message: '' };
  return result;
}

/** Everything the device holds, in read form: to compare before and after a refused update. */
export function snapshot(device: DeviceState): p4r.Entity__Output[] {
  return read(
    device,
    { table_entry: { counter_data: {}, meter_config: {} } },
    { table_entry: { is_default_action: true, counter_data: {}, meter_config: {} } },
    { action_profile_member: {} },
    { action_profile_group: {} },
    { counter_entry: {} },
    { meter_entry: {} },
    { register_entry: {} },
    { packet_replication_engine_entry: {} },
    { digest_entry: {} },
    { value_set_entry: {} },
  );
}

/** Expects a refused update with `code`, and no change to the device. */
export function expectRefused(device: DeviceState, type: UpdateKind, entity: object, code: number, messagePart?: string | RegExp): Status {
  const before = snapshot(device);
  const s = write1(device, type, entity);
  expect(s.code, s.message).toBe(code);
  if (messagePart) expect(s.message).toMatch(messagePart);
  expect(snapshot(device)).toEqual(before);
  return s;
}

export const b = (...bytes: number[]): Buffer => Buffer.from(bytes);
