// Seeded, bounded fuzzing of P4Runtime requests against a whole switch over real
// gRPC on 127.0.0.1: random and mutated WriteRequests and ReadRequests (entities of
// every kind with ids, values, indexes and priorities drawn from the valid, the
// near-valid and the absurd), and requests whose encoded bytes are corrupted. The
// switch must answer every one (no crash, no hang) and never with INTERNAL; it
// must still serve a primary afterwards. Every run replays from its seed.
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMessage } from '../../src/proto/codec.js';
import type * as p4r from '../../src/proto/p4r.js';
import { idsOf, kitchenSinkWithProfiles } from '../conformance/helpers/programs.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { type Answer, DEVICE, isInternal, PRIMARY, type SwitchRig, switchRig, tally } from './rig.js';

const P4INFO = kitchenSinkWithProfiles();
const ids = idsOf(P4INFO);

let rig: SwitchRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const chance = (rng: Rng, p: number): boolean => rng() < p;

/** Ids of every kind, so that a table entry may name a counter, and the like. */
const ALL_IDS = [
  ...P4INFO.tables.map((t) => t.preamble!.id),
  ...P4INFO.actions.map((a) => a.preamble!.id),
  ...P4INFO.counters.map((c) => c.preamble!.id),
  ...P4INFO.meters.map((m) => m.preamble!.id),
  ...P4INFO.registers.map((r) => r.preamble!.id),
  ...P4INFO.digests.map((d) => d.preamble!.id),
  ...P4INFO.action_profiles.map((p) => p.preamble!.id),
  ...P4INFO.value_sets.map((v) => v.preamble!.id),
  ...P4INFO.direct_counters.map((c) => c.preamble!.id),
];

function id(rng: Rng, own: readonly number[]): number {
  const r = rng();
  if (r < 0.6 && own.length) return pick(rng, own);
  if (r < 0.75) return pick(rng, ALL_IDS);
  if (r < 0.85) return 0;
  return Math.floor(rng() * 0x1_0000_0000);
}

function bytes(rng: Rng): Buffer {
  const r = rng();
  const length = r < 0.1 ? 0 : r < 0.8 ? 1 + Math.floor(rng() * 6) : Math.floor(rng() * 40);
  return Buffer.from(Array.from({ length }, () => (chance(rng, 0.3) ? 0 : Math.floor(rng() * 256))));
}

function int64(rng: Rng): string {
  return pick(rng, ['0', '1', '3', '63', '64', '1023', '-1', '-9223372036854775808', '9223372036854775807', String(Math.floor(rng() * 2 ** 40))]);
}

function fieldMatch(rng: Rng): p4r.FieldMatch {
  const field_id = pick(rng, [1, 1, 2, 3, 0, 99]);
  switch (Math.floor(rng() * 6)) {
    case 0:
      return { field_id, exact: { value: bytes(rng) } };
    case 1:
      return { field_id, lpm: { value: bytes(rng), prefix_len: pick(rng, [0, 8, 24, 32, 48, 129, -1]) } };
    case 2:
      return { field_id, ternary: { value: bytes(rng), mask: bytes(rng) } };
    case 3:
      return { field_id, range: { low: bytes(rng), high: bytes(rng) } };
    case 4:
      return { field_id, optional: { value: bytes(rng) } };
    default:
      return { field_id, other: { type_url: 'x', value: bytes(rng) } };
  }
}

function tableAction(rng: Rng): p4r.TableAction {
  const action = () => ({
    action_id: id(rng, P4INFO.actions.map((a) => a.preamble!.id)),
    params: Array.from({ length: Math.floor(rng() * 3) }, () => ({ param_id: pick(rng, [1, 2, 0, 7]), value: bytes(rng) })),
  });
  switch (Math.floor(rng() * 4)) {
    case 0:
    case 1:
      return { action: action() };
    case 2:
      return chance(rng, 0.5) ? { action_profile_member_id: Math.floor(rng() * 10) } : { action_profile_group_id: Math.floor(rng() * 10) };
    default:
      return { action_profile_action_set: { action_profile_actions: Array.from({ length: Math.floor(rng() * 4) }, () => ({ action: action(), weight: pick(rng, [1, 2, 0, -1, 1000]) })) } };
  }
}

function tableEntry(rng: Rng): p4r.TableEntry {
  return {
    table_id: id(rng, P4INFO.tables.map((t) => t.preamble!.id)),
    match: Array.from({ length: Math.floor(rng() * 3) }, () => fieldMatch(rng)),
    ...(chance(rng, 0.8) ? { action: tableAction(rng) } : {}),
    priority: pick(rng, [0, 0, 1, 10, -5, 2 ** 31 - 1]),
    is_default_action: chance(rng, 0.1),
    ...(chance(rng, 0.2) ? { meter_config: { cir: int64(rng), cburst: int64(rng), pir: int64(rng), pburst: int64(rng) } } : {}),
    ...(chance(rng, 0.2) ? { counter_data: { byte_count: int64(rng), packet_count: int64(rng) } } : {}),
    ...(chance(rng, 0.1) ? { idle_timeout_ns: int64(rng) } : {}),
    ...(chance(rng, 0.1) ? { time_since_last_hit: { elapsed_ns: int64(rng) } } : {}),
    ...(chance(rng, 0.1) ? { is_const: true } : {}),
    metadata: chance(rng, 0.1) ? bytes(rng) : Buffer.alloc(0),
  };
}

const index = (rng: Rng): p4r.Index | null => (chance(rng, 0.3) ? null : { index: int64(rng) });

function entity(rng: Rng): p4r.Entity {
  switch (Math.floor(rng() * 12)) {
    case 0:
    case 1:
    case 2:
      return { table_entry: tableEntry(rng) };
    case 3:
      return { counter_entry: { counter_id: id(rng, [ids.counter('ingress.port_packets')]), index: index(rng), ...(chance(rng, 0.7) ? { data: { byte_count: int64(rng), packet_count: int64(rng) } } : {}) } };
    case 4:
      return { meter_entry: { meter_id: id(rng, P4INFO.meters.map((m) => m.preamble!.id)), index: index(rng), ...(chance(rng, 0.7) ? { config: { cir: int64(rng), cburst: int64(rng), pir: int64(rng), pburst: int64(rng) } } : {}) } };
    case 5:
      return { register_entry: { register_id: id(rng, P4INFO.registers.map((r) => r.preamble!.id)), index: index(rng), ...(chance(rng, 0.8) ? { data: chance(rng, 0.8) ? { bitstring: bytes(rng) } : { bool: true } } : {}) } };
    case 6:
      return { direct_counter_entry: { table_entry: chance(rng, 0.8) ? tableEntry(rng) : null, ...(chance(rng, 0.7) ? { data: { byte_count: int64(rng), packet_count: int64(rng) } } : {}) } };
    case 7:
      return { direct_meter_entry: { table_entry: chance(rng, 0.8) ? tableEntry(rng) : null, ...(chance(rng, 0.7) ? { config: { cir: int64(rng), cburst: int64(rng), pir: int64(rng), pburst: int64(rng) } } : {}) } };
    case 8: {
      const profile = id(rng, [ids.profile('ingress.ecmp_selector')]);
      return chance(rng, 0.5)
        ? { action_profile_member: { action_profile_id: profile, member_id: Math.floor(rng() * 10), action: tableAction(rng).action ?? null } }
        : { action_profile_group: { action_profile_id: profile, group_id: Math.floor(rng() * 10), members: Array.from({ length: Math.floor(rng() * 4) }, () => ({ member_id: Math.floor(rng() * 10), weight: pick(rng, [1, 0, -3, 5]) })), max_size: pick(rng, [0, 2, 4, 100]) } };
    }
    case 9: {
      const replicas = Array.from({ length: Math.floor(rng() * 4) }, () => ({ port: bytes(rng), instance: pick(rng, [0, 1, 1, 2, 70000]) }));
      return chance(rng, 0.5)
        ? { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: pick(rng, [0, 1, 2, 3, 2 ** 32 - 1]), replicas } } }
        : { packet_replication_engine_entry: { clone_session_entry: { session_id: pick(rng, [0, 1, 2, 400]), replicas, class_of_service: pick(rng, [0, 3, 8]), packet_length_bytes: pick(rng, [0, 64, -1]) } } };
    }
    case 10:
      return { digest_entry: { digest_id: id(rng, P4INFO.digests.map((d) => d.preamble!.id)), ...(chance(rng, 0.7) ? { config: { max_timeout_ns: int64(rng), max_list_size: pick(rng, [0, 1, 100, -1]), ack_timeout_ns: int64(rng) } } : {}) } };
    default:
      return chance(rng, 0.8)
        ? { value_set_entry: { value_set_id: id(rng, [ids.valueSet('parser.tpids')]), members: Array.from({ length: Math.floor(rng() * 5) }, () => ({ match: Array.from({ length: Math.floor(rng() * 3) }, () => fieldMatch(rng)) })) } }
        : chance(rng, 0.5)
          ? { extern_entry: { extern_type_id: Math.floor(rng() * 3), extern_id: Math.floor(rng() * 3) } }
          : {};
  }
}

function writeRequest(rng: Rng): p4r.WriteRequest {
  return {
    device_id: chance(rng, 0.95) ? DEVICE : 7,
    election_id: chance(rng, 0.93) ? { high: '0', low: PRIMARY.toString() } : pick(rng, [null, { high: '0', low: '3' }]),
    ...(chance(rng, 0.05) ? { role: 'other' } : {}),
    updates: Array.from({ length: 1 + Math.floor(rng() * 6) }, () => ({ type: pick(rng, ['INSERT', 'INSERT', 'MODIFY', 'DELETE', 'UNSPECIFIED']), entity: entity(rng) })),
    atomicity: pick(rng, ['CONTINUE_ON_ERROR', 'CONTINUE_ON_ERROR', 'ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC']),
  };
}

function readRequest(rng: Rng): p4r.ReadRequest {
  return { device_id: chance(rng, 0.95) ? DEVICE : 9, entities: Array.from({ length: 1 + Math.floor(rng() * 4) }, () => entity(rng)) };
}

/** The encoded request with a few bytes changed, dropped or added. */
function corrupt(rng: Rng, encoded: Uint8Array): Buffer {
  const out = Array.from(encoded);
  for (let n = 1 + Math.floor(rng() * 4); n > 0 && out.length; n--) {
    const at = Math.floor(rng() * out.length);
    const r = rng();
    if (r < 0.5) out[at] = Math.floor(rng() * 256);
    else if (r < 0.75) out.splice(at, 1 + Math.floor(rng() * 4));
    else out.splice(at, 0, Math.floor(rng() * 256));
  }
  return Buffer.from(out);
}

const identity = (b: Buffer): Buffer => b;

/** A call with bytes as they are (no encoding), as a broken client would send them. */
function rawCall(stub: grpc.Client, method: 'Write' | 'Read', body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const deadline = Date.now() + 10_000;
    if (method === 'Write') {
      stub.makeUnaryRequest('/p4.v1.P4Runtime/Write', identity, identity, body, { deadline }, (err) => resolve(err ? err.code : grpc.status.OK));
    } else {
      const call = stub.makeServerStreamRequest('/p4.v1.P4Runtime/Read', identity, identity, body, { deadline });
      call.on('data', () => undefined);
      call.on('error', () => undefined);
      call.on('status', (s: grpc.StatusObject) => resolve(s.code));
    }
  });
}

describe('P4Runtime request fuzzing (seeded)', () => {
  it.each([11, 2024])('answers random, mutated and corrupted Write/Read requests without crashing or INTERNAL (seed %i)', async (seed) => {
    rig = await switchRig();
    expect((await rig.push(P4INFO, Buffer.from('{}'))).code).toBe(grpc.status.OK);
    const rng = mulberry32(seed);
    const codes: number[] = [];
    const itemCodes: number[] = [];
    const internal: string[] = [];
    let unanswered = 0;
    const raw = new grpc.Client(`127.0.0.1:${rig.port}`, grpc.credentials.createInsecure());
    const started = Date.now();
    try {
      for (let batch = 0; batch < 100; batch++) {
        const requests = Array.from({ length: 20 }, async () => {
          const r = rng();
          let kind: string;
          let answer: Answer;
          if (r < 0.45) {
            kind = 'Write';
            answer = await rig!.call('Write', writeRequest(rng));
          } else if (r < 0.75) {
            kind = 'Read';
            answer = await rig!.read(readRequest(rng));
          } else {
            kind = r < 0.9 ? 'corrupted Write' : 'corrupted Read';
            const message = r < 0.9 ? encodeMessage('p4.v1.WriteRequest', writeRequest(rng)) : encodeMessage('p4.v1.ReadRequest', readRequest(rng));
            answer = { code: await rawCall(raw, r < 0.9 ? 'Write' : 'Read', corrupt(rng, message)), details: '', items: [] };
          }
          codes.push(answer.code);
          itemCodes.push(...answer.items);
          if (isInternal(answer)) internal.push(`${kind}: ${answer.details}`);
          if (answer.code === grpc.status.DEADLINE_EXCEEDED || answer.code === grpc.status.UNAVAILABLE) unanswered++;
        });
        await Promise.all(requests);
      }
    } finally {
      raw.close();
    }
    // Still a working switch: the primary reads and writes.
    const alive = await rig.call('Capabilities', {});
    const readAll = await rig.read({ device_id: DEVICE, entities: [{ table_entry: {} }, { register_entry: {} }, { counter_entry: {} }] });
    const crashes = (alive.code === grpc.status.OK ? 0 : 1) + (readAll.code === grpc.status.OK ? 0 : 1);
    console.log(
      `p4runtime fuzz seed ${seed}: ${codes.length} requests in ${Date.now() - started} ms; crashes ${crashes}, INTERNAL ${internal.length}, unanswered ${unanswered}; answers: ${tally(codes)}; items of failed batches: ${tally(itemCodes)}`,
    );
    expect(internal).toEqual([]);
    expect(crashes).toBe(0);
    expect(unanswered).toBe(0);
    // The fuzz reaches the state: some writes and reads succeed, most are refused.
    expect(codes.filter((c) => c === grpc.status.OK).length).toBeGreaterThan(20);
  }, 30_000);
});
