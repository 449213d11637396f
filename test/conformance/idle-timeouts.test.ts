// Idle timeouts end to end (spec §Idle-timeout, §"Table Idle Timeout
// Notification"): a program whose table has `support_timeout = true` (P4Info
// NOTIFY_CONTROL), entries with TTLs written over gRPC, packets hitting them
// through the running switch, and IdleTimeoutNotifications read from the
// primary's stream. Time is a fake clock stepped by the test; a step with
// nothing to report is proven silent by the next notification, which the
// stream delivers in order.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../src/proto/p4r.js';
import { SwitchDevice } from '../../src/switch/device/switch-device.js';
import { PortSet } from '../../src/switch/ports/port-set.js';
import { CapturePort, compileCorpus } from '../switch/pipeline/harness.js';
import { b, PRIMARY } from './helpers/entities.js';
import { FakeIdleTimer } from './helpers/fake-idle-timer.js';
import { RawP4Runtime, type RawStream } from './helpers/raw-p4runtime.js';
import { quietLogger } from './helpers/switch-under-test.js';

const FLOWS = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers { eth_t eth; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  action set_port(bit<9> port) { sm.egress_spec = port; }
  action drop() { mark_to_drop(sm); }
  table flows {
    key = { h.eth.dst: exact; }
    actions = { set_port; drop; }
    default_action = drop();
    support_timeout = true;
  }
  apply { flows.apply(); }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

const program = compileCorpus('idle_flows', FLOWS);
const TABLE = program.schema.tables.get('I.flows').id;
const SET_PORT = program.schema.actions.get('I.set_port').id;
const MS = 1_000_000n; // ns

let timer: FakeIdleTimer;
let device: SwitchDevice;
let ports: CapturePort[];
let raw: RawP4Runtime;
let primary: RawStream;

const key = (dst: number): p4r.FieldMatch[] => [{ field_id: 1, exact: { value: b(dst) } }];
const entry = (dst: number, ttlMs: bigint, metadata = `flow ${dst}`): p4r.TableEntry => ({
  table_id: TABLE,
  match: key(dst),
  action: { action: { action_id: SET_PORT, params: [{ param_id: 1, value: b(1) }] } },
  metadata: Buffer.from(metadata),
  controller_metadata: String(dst),
  idle_timeout_ns: String(ttlMs * MS),
});
const write = (type: 'INSERT' | 'MODIFY' | 'DELETE', te: p4r.TableEntry): Promise<void> => raw.write([{ type, entity: { table_entry: te } }], { electionId: PRIMARY });

/** A frame to destination 00:…:dst into port 0: a hit on that entry. */
function hit(dst: number): void {
  ports[0]!.inject(Buffer.concat([b(0, 0, 0, 0, 0, dst), b(0, 0, 0, 0, 0, 0x99), b(0x12, 0x34)]));
  expect(ports[1]!.sent.splice(0)).toHaveLength(1); // it did hit: set_port(1)
}

/** The destinations (last byte) of the next idle-timeout notification on the primary's stream. */
async function nextExpired(): Promise<number[]> {
  const message = await primary.next();
  const n = message.idle_timeout_notification;
  if (!n) throw new Error(`expected an idle-timeout notification, got ${JSON.stringify(message)}`);
  expect(BigInt(n.timestamp)).toBeGreaterThan(0n);
  return n.table_entry.map((te) => te.match[0]!.exact!.value.at(-1)!);
}

async function timesSinceHit(): Promise<Record<number, bigint>> {
  const entities = await raw.read([{ table_entry: { table_id: TABLE, time_since_last_hit: {} } }]);
  return Object.fromEntries(entities.map((e) => [e.table_entry!.match[0]!.exact!.value.at(-1)!, BigInt(e.table_entry!.time_since_last_hit!.elapsed_ns)]));
}

beforeEach(async () => {
  timer = new FakeIdleTimer(1_000);
  ports = [new CapturePort(0), new CapturePort(1)];
  device = new SwitchDevice({ ports: new PortSet(ports), logger: quietLogger(), idleTimer: timer });
  const { port } = await device.start({ address: '127.0.0.1:0' });
  raw = new RawP4Runtime(`127.0.0.1:${port}`, 0);
  primary = raw.stream();
  primary.arbitrate(PRIMARY);
  expect((await primary.next()).arbitration?.status?.code).toBe(0);
  await raw.setPipeline({ action: 'VERIFY_AND_COMMIT', config: { p4info: program.p4info, p4_device_config: Buffer.from(program.irText) } }, { electionId: PRIMARY });
});

afterEach(async () => {
  raw.close();
  await device.stop();
});

describe('idle-timeout notifications', () => {
  it('the front end marks the table NOTIFY_CONTROL', () => {
    expect(program.p4info.tables.find((t) => t.preamble!.id === TABLE)!.idle_timeout_behavior).toBe('NOTIFY_CONTROL');
  });

  it('report an entry once per TTL of idleness, to the primary, with its key, metadata and TTL; hits postpone it; TTL 0 never expires', async () => {
    // t = 1000 ms: A (TTL 1 s), B (TTL 3 s), Z (no TTL).
    await write('INSERT', entry(0x0a, 1000n));
    await write('INSERT', entry(0x0b, 3000n));
    await write('INSERT', entry(0x0c, 0n));
    timer.advanceTo(1_999); // nothing is due
    timer.advanceTo(2_000); // A has been idle for its TTL
    const first = await primary.next();
    expect(first.idle_timeout_notification!.table_entry).toEqual([
      expect.objectContaining({ table_id: TABLE, match: [expect.objectContaining({ field_id: 1, exact: { value: b(0x0a) } })], priority: 0, controller_metadata: '10', metadata: Buffer.from('flow 10'), idle_timeout_ns: '1000000000' }),
    ]);

    // t = 2200: packets hit A and Z. time_since_last_hit is the time since the last hit, also for TTL 0.
    timer.advanceTo(2_200);
    hit(0x0a);
    hit(0x0c);
    expect(await timesSinceHit()).toEqual({ 0x0a: 0n, 0x0b: 1200n * MS, 0x0c: 0n });

    timer.advanceTo(3_000); // A was hit at 2200: not idle for 1 s yet; B is due at 4000
    timer.advanceTo(3_200); // A, one TTL after its hit
    expect(await nextExpired()).toEqual([0x0a]);
    timer.advanceTo(4_000); // B, one TTL after its insert (A is due again at 4200, not before)
    expect(await nextExpired()).toEqual([0x0b]);
    // Still idle one more TTL after its notification: the spec resets the timer and reports it again.
    timer.advanceTo(4_200);
    expect(await nextExpired()).toEqual([0x0a]);
    expect(await timesSinceHit()).toEqual({ 0x0a: 2000n * MS, 0x0b: 3200n * MS, 0x0c: 2000n * MS });
  });

  it('coalesce the entries that expire together, and follow TTL changes and deletes', async () => {
    await write('INSERT', entry(0x0a, 1000n));
    await write('INSERT', entry(0x0b, 1000n));
    timer.advanceTo(2_000);
    expect((await nextExpired()).sort()).toEqual([0x0a, 0x0b]);
    // A: TTL off. B: TTL shortened to 300 ms, counted from its notification at 2000.
    await write('MODIFY', entry(0x0a, 0n));
    await write('MODIFY', entry(0x0b, 300n));
    timer.advanceTo(2_300);
    expect(await nextExpired()).toEqual([0x0b]);
    await write('DELETE', entry(0x0b, 0n));
    // C is the marker: the next notification after B's is C's, so A (TTL 0) and B (deleted) were silent.
    await write('INSERT', entry(0x0d, 500n));
    timer.advanceTo(2_500);
    timer.advanceTo(10_000);
    expect(await nextExpired()).toEqual([0x0d]);
  });

  it('wait for a primary: an entry that expires while there is none is reported when one arrives', async () => {
    await write('INSERT', entry(0x0a, 1000n));
    primary.end();
    expect((await primary.status).code).toBe(0); // the server has ended the stream: there is no primary
    timer.advanceTo(5_000); // no primary: nothing is scanned
    primary = raw.stream();
    primary.arbitrate(PRIMARY + 1n);
    expect((await primary.next()).arbitration?.status?.code).toBe(0);
    timer.advanceTo(5_001);
    expect(await nextExpired()).toEqual([0x0a]);
  });

  it('refuse TTLs in tables without idle-timeout support and in default entries (INVALID_ARGUMENT)', async () => {
    const defaultEntry = { table_id: TABLE, is_default_action: true, action: { action: { action_id: SET_PORT, params: [{ param_id: 1, value: b(2) }] } }, idle_timeout_ns: '5' };
    await expect(raw.write([{ type: 'MODIFY', entity: { table_entry: defaultEntry } }], { electionId: PRIMARY })).rejects.toMatchObject({ itemCodes: ['INVALID_ARGUMENT'] });
  });
});
