// The fast WriteRequest decoder against proto-loader's (protobufjs decode + toObject with the
// conversion options of load.ts), the reference: the same objects, keys in the same order, for
// the requests it reads, and the reference's answer (or its exception) for everything else,
// including mutated and truncated bytes.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { messageType, p4RuntimeGrpc } from '../../src/proto/load.js';
import { NOT_PLAIN } from '../../src/proto/wire-reader.js';
import { decodeWriteRequest, writeRequestDeserializer } from '../../src/proto/write-request-decoder.js';

const reference = p4RuntimeGrpc().p4.v1.P4Runtime.service.Write.requestDeserialize as (bytes: Buffer) => unknown;
const WriteRequest = messageType('p4.v1.WriteRequest');
const encode = (request: object): Buffer => Buffer.from(WriteRequest.encode(WriteRequest.fromObject(request)).finish());

/** Objects as [key, value] lists in key order, Buffers as hex: equal shapes have equal keys in equal order. */
function shape(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { buffer: value.toString('hex') };
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, shape(v)]);
  return value;
}

function expectSameAsReference(bytes: Buffer, decoded: unknown): void {
  const expected = reference(bytes);
  expect(decoded).toStrictEqual(expected);
  expect(shape(decoded)).toStrictEqual(shape(expected));
}

const entry = (tableEntry: object) => ({ type: 'INSERT', entity: { table_entry: tableEntry } });
const direct = { action: { action_id: 7, params: [{ param_id: 1, value: Buffer.from([1, 2, 3, 4, 5, 6]) }, { param_id: 2, value: Buffer.from([9]) }] } };

/** Requests the fast decoder reads itself. */
const plain: Record<string, object> = {
  'an LPM insert': { device_id: 0, election_id: { high: 0, low: 1 }, updates: [entry({ table_id: 33, match: [{ field_id: 1, lpm: { value: Buffer.from([10, 0, 0, 0]), prefix_len: 24 } }], action: direct })] },
  'every match kind, priority, metadata, flags': {
    device_id: 3,
    role: 'rôle-✓',
    role_id: 5,
    atomicity: 'ROLLBACK_ON_ERROR',
    election_id: { high: '18446744073709551615', low: '9007199254740993' },
    updates: [
      entry({
        table_id: 4294967295,
        priority: 2147483647,
        match: [
          { field_id: 1, exact: { value: Buffer.from([1]) } },
          { field_id: 2, ternary: { value: Buffer.from([1, 0]), mask: Buffer.from([255, 0]) } },
          { field_id: 3, range: { low: Buffer.from([1]), high: Buffer.from([200]) } },
          { field_id: 4, optional: { value: Buffer.from([0]) } },
          { field_id: 5, lpm: { value: Buffer.from([0xfe]), prefix_len: 7 } },
        ],
        action: direct,
        controller_metadata: '18446744073709551615',
        idle_timeout_ns: '-5',
        metadata: Buffer.from('cookie'),
        is_default_action: true,
        is_const: true,
      }),
      { type: 'DELETE', entity: { table_entry: { table_id: 1, action: { action_profile_member_id: 0 } } } },
      { type: 'MODIFY', entity: { table_entry: { table_id: 1, action: { action_profile_group_id: 12 } } } },
    ],
  },
  'empty and default-valued parts': {
    updates: [
      {},
      { type: 'INSERT' },
      { type: 'INSERT', entity: {} },
      entry({}),
      entry({ match: [{}, { field_id: 2 }, { exact: {} }, { lpm: {} }, { ternary: {} }, { range: {} }], action: {} }),
      entry({ action: { action: {} } }),
      entry({ action: { action: { params: [{}] } }, metadata: Buffer.alloc(0), idle_timeout_ns: '9007199254740993' }),
    ],
  },
  'enum numbers the proto does not name': { atomicity: 7, updates: [{ type: 9, entity: { table_entry: { table_id: 1 } } }] },
  'no updates': { device_id: 1 },
};

/** Requests it leaves to the generic decoder. */
const generic: Record<string, object> = {
  'another entity kind': { updates: [{ type: 'MODIFY', entity: { counter_entry: { counter_id: 1 } } }] },
  'a direct counter value': { updates: [entry({ table_id: 1, counter_data: { byte_count: 1, packet_count: 2 } })] },
  'a meter config': { updates: [entry({ table_id: 1, meter_config: { cir: 1, cburst: 2, pir: 3, pburst: 4 } })] },
  'an action set': {
    updates: [entry({ table_id: 1, action: { action_profile_action_set: { action_profile_actions: [{ action: { action_id: 1 }, weight: 1 }] } } })],
  },
  'an architecture-specific match': { updates: [entry({ table_id: 1, match: [{ field_id: 1, other: { type_url: 'x', value: Buffer.from([1]) } }] })] },
  'a negative priority (a 10-byte varint)': { updates: [entry({ table_id: 1, priority: -1 })] },
};

describe('fast WriteRequest decoder', () => {
  for (const [name, request] of Object.entries(plain)) {
    it(`reads ${name} as proto-loader does`, () => {
      const bytes = encode(request);
      expectSameAsReference(bytes, decodeWriteRequest(bytes));
    });
  }

  for (const [name, request] of Object.entries(generic)) {
    it(`leaves ${name} to the generic decoder, with its result`, () => {
      const bytes = encode(request);
      expect(() => decodeWriteRequest(bytes)).toThrow(NOT_PLAIN);
      expectSameAsReference(bytes, writeRequestDeserializer(reference as never)(bytes));
    });
  }

  it('leaves two members of one oneof, unknown fields and repeated scalars to the generic decoder', () => {
    const w = () => protobuf.Writer.create();
    const lpm = w().uint32(0x0a).bytes(Buffer.from([10])).uint32(0x10).int32(8).finish();
    const exact = w().uint32(0x0a).bytes(Buffer.from([1])).finish();
    const twoMembers = w().uint32(0x08).uint32(1).uint32(0x12).bytes(exact).uint32(0x22).bytes(lpm).finish();
    const withMatch = (fm: Uint8Array) => w().uint32(0x12).bytes(w().uint32(0x12).bytes(fm).finish()).finish(); // Entity{table_entry{match}}
    const request = (entity: Uint8Array) => Buffer.from(w().uint32(0x22).bytes(w().uint32(0x08).int32(1).uint32(0x12).bytes(entity).finish()).finish());
    const unknownField = w().uint32(0x08).uint32(1).uint32((99 << 3) | 0).uint32(5).finish();
    for (const bytes of [request(withMatch(twoMembers)), request(withMatch(unknownField))]) {
      expect(() => decodeWriteRequest(bytes)).toThrow(NOT_PLAIN);
      expectSameAsReference(bytes, writeRequestDeserializer(reference as never)(bytes));
    }
    // A scalar given twice: the last one counts, in both decoders.
    const twice = Buffer.concat([encode({ device_id: 1 }), encode({ device_id: 2, updates: [entry({ table_id: 3 })] }), encode({ updates: [entry({ table_id: 4 })] })]);
    expectSameAsReference(twice, decodeWriteRequest(twice));
  });

  it('gives the reference result or its exception for mutated and truncated requests', () => {
    const deserialize = writeRequestDeserializer(reference as never);
    const seeds = [...Object.values(plain), ...Object.values(generic)].map(encode);
    let state = 12345;
    const random = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    let fastRead = 0;
    for (let i = 0; i < 4000; i++) {
      const bytes = Buffer.from(seeds[i % seeds.length]!);
      if (bytes.length === 0) continue;
      for (let k = 0, n = 1 + random(3); k < n; k++) bytes[random(bytes.length)] = random(256);
      const input = random(4) === 0 ? bytes.subarray(0, random(bytes.length)) : bytes;
      let expectedError: unknown;
      try {
        reference(input);
      } catch (e) {
        expectedError = e;
      }
      if (expectedError) {
        expect(() => deserialize(input)).toThrow((expectedError as Error).message);
        continue;
      }
      expectSameAsReference(input, deserialize(input));
      try {
        decodeWriteRequest(input);
        fastRead++;
      } catch {
        // left to the generic decoder
      }
    }
    // The mutations must exercise the fast path too, not only the fallback.
    expect(fastRead).toBeGreaterThan(300);
  });
});
