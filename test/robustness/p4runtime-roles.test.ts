// Issue #11 item 3: a client that arbitrates for another role must not become a
// second writer. Over real gRPC: the default role's primary holds the switch; a
// named role without config may only read; with a stratum.P4RoleConfig it writes
// exactly the P4 ids listed, gets PacketIns only when the config says so; no named
// role replaces the pipeline; configs we cannot enforce, or that claim what another
// role holds exclusively, end the stream with INVALID_ARGUMENT. And a server bound
// to a non-loopback address without TLS logs a warning.
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../src/proto/p4r.js';
import { isLoopback, P4RuntimeServer } from '../../src/switch/runtime/server.js';
import { packRoleConfig } from '../../src/switch/runtime/role-config.js';
import { DeviceState } from '../../src/switch/state/device-state.js';
import { kitchenSink } from '../conformance/helpers/programs.js';
import { batchErrors, DEVICE_ID, read, electionId, type Harness, primaryStream, pushPipeline, startHarness, type StreamProbe, unary } from '../switch/runtime/harness.js';

const P4INFO = kitchenSink();
const id = (kind: 'tables' | 'registers' | 'counters', name: string): number => P4INFO[kind].find((o) => o.preamble!.name === name)!.preamble!.id;
const L2 = id('tables', 'ingress.l2');
const REGISTER = P4INFO.registers[0]!.preamble!.id;
const FORWARD = P4INFO.actions.find((a) => a.preamble!.name === 'ingress.forward')!;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function l2Entry(last: number): p4r.Entity {
  return {
    table_entry: {
      table_id: L2,
      match: [{ field_id: 1, exact: { value: Buffer.from([0, 0, 0, 0, 0, last]) } }],
      action: { action: { action_id: FORWARD.preamble!.id, params: [{ param_id: 1, value: Buffer.from([1]) }] } },
    },
  };
}
const registerCell = (value: number): p4r.Entity => ({ register_entry: { register_id: REGISTER, index: { index: 0 }, data: { bitstring: Buffer.from([value]) } } });

/** A stream arbitrating for `role` with `config`; resolves with its first notice's code or its end status. */
async function arbitrateRole(harness: Harness, role: string, election: bigint, config?: { type_url: string; value: Buffer }): Promise<{ stream: StreamProbe; code: number; details?: string }> {
  const stream = harness.stream();
  stream.send({ arbitration: { device_id: DEVICE_ID, election_id: electionId(election), role: { name: role, ...(config ? { config } : {}) } } });
  try {
    const [code] = await stream.nextArbitration();
    return { stream, code };
  } catch {
    const status = await stream.status;
    return { stream, code: status.code, details: status.details };
  }
}

function write(harness: Harness, role: string, election: bigint, updates: p4r.Update[], atomicity = 'CONTINUE_ON_ERROR') {
  return unary(harness.client, 'Write', { device_id: DEVICE_ID, role, election_id: electionId(election), updates, atomicity }).then(
    () => ({ code: grpc.status.OK, items: [] as number[], details: '' }),
    (err: grpc.ServiceError) => ({ code: err.code, details: err.details, items: err.metadata.get('grpc-status-details-bin').length ? batchErrors(err).map((e) => e.canonical_code) : [] }),
  );
}

async function ready(): Promise<{ harness: Harness; main: StreamProbe }> {
  h = await startHarness();
  const main = await primaryStream(h, 100n);
  await pushPipeline(h.client, 100n, P4INFO);
  return { harness: h, main };
}

describe('roles are enforced', () => {
  it('a named role without config may read, but neither write nor replace the pipeline while the default primary holds it', async () => {
    const { harness } = await ready();
    const intruder = await arbitrateRole(harness, 'intruder', 1n);
    expect(intruder.code).toBe(grpc.status.OK); // primary of its own role
    const w = await write(harness, 'intruder', 1n, [{ type: 'INSERT', entity: l2Entry(1) }]);
    expect(w.code).toBe(grpc.status.UNKNOWN);
    expect(w.items).toEqual([grpc.status.PERMISSION_DENIED]);
    expect(w.details).toMatch(/role "intruder" has no role config, so it may only read/);
    await expect(pushPipeline(harness.client, 1n, P4INFO).catch((e: grpc.ServiceError) => e.code)).resolves.toBe(grpc.status.PERMISSION_DENIED); // default role, not its primary
    const push = await unary(harness.client, 'SetForwardingPipelineConfig', {
      device_id: DEVICE_ID,
      role: 'intruder',
      election_id: electionId(1n),
      action: 'VERIFY_AND_COMMIT',
      config: { p4info: P4INFO, p4_device_config: Buffer.from('{}') },
    }).catch((e: grpc.ServiceError) => e);
    expect(push).toMatchObject({ code: grpc.status.PERMISSION_DENIED, details: expect.stringMatching(/only the primary of the default role/) as unknown });
    // The default role's primary still writes; the intruder reads what it wrote.
    expect((await write(harness, '', 100n, [{ type: 'INSERT', entity: l2Entry(2) }])).code).toBe(grpc.status.OK);
    const seen = await read(harness.client, { device_id: DEVICE_ID, role: 'intruder', entities: [{ table_entry: { table_id: L2 } }] });
    expect(seen.flatMap((r) => r.entities)).toHaveLength(1);
  });

  it('a role config grants writes to exactly the P4 ids it lists; atomic batches with a denied update change nothing', async () => {
    const { harness } = await ready();
    const stats = await arbitrateRole(harness, 'stats', 1n, packRoleConfig({ exclusive_p4_ids: [REGISTER] }));
    expect(stats.code).toBe(grpc.status.OK);
    expect((await write(harness, 'stats', 1n, [{ type: 'MODIFY', entity: registerCell(5) }])).code).toBe(grpc.status.OK);
    const mixed = await write(harness, 'stats', 1n, [
      { type: 'MODIFY', entity: registerCell(6) },
      { type: 'INSERT', entity: l2Entry(3) },
      { type: 'INSERT', entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1 } } } },
    ]);
    expect(mixed.items).toEqual([grpc.status.OK, grpc.status.PERMISSION_DENIED, grpc.status.PERMISSION_DENIED]);
    const atomic = await write(harness, 'stats', 1n, [{ type: 'MODIFY', entity: registerCell(7) }, { type: 'INSERT', entity: l2Entry(4) }], 'ROLLBACK_ON_ERROR');
    expect(atomic.items).toEqual([grpc.status.ABORTED, grpc.status.PERMISSION_DENIED]);
    const [cell] = await read(harness.client, { device_id: DEVICE_ID, entities: [{ register_entry: { register_id: REGISTER, index: { index: 0 } } }] });
    expect(cell!.entities[0]!.register_entry!.data!.bitstring).toEqual(Buffer.from([6]));
  });

  it('refuses configs it cannot enforce, and configs that claim what another role holds exclusively, ending the stream', async () => {
    const { harness } = await ready();
    const cases: [string, { type_url: string; value: Buffer }, RegExp][] = [
      ['a', { type_url: 'type.googleapis.com/vendor.Policy', value: Buffer.alloc(0) }, /cannot be enforced here; send type\.googleapis\.com\/stratum\.P4RoleConfig/],
      ['b', packRoleConfig({ can_push_pipeline: true }), /only the default role's primary sets the pipeline/],
      ['c', { type_url: 'type.googleapis.com/stratum.P4RoleConfig', value: Buffer.from([0x0a, 0xff]) }, /not a valid P4RoleConfig/],
    ];
    for (const [role, config, message] of cases) {
      const r = await arbitrateRole(harness, role, 1n, config);
      expect(r.code, role).toBe(grpc.status.INVALID_ARGUMENT);
      expect(r.details).toMatch(message);
    }
    const owner = await arbitrateRole(harness, 'owner', 1n, packRoleConfig({ exclusive_p4_ids: [L2] }));
    expect(owner.code).toBe(grpc.status.OK);
    const thief = await arbitrateRole(harness, 'thief', 1n, packRoleConfig({ shared_p4_ids: [L2] }));
    expect(thief.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(thief.details).toMatch(/already held by role "owner"/);
    const onDefault = await arbitrateRole(harness, '', 5n, packRoleConfig({ exclusive_p4_ids: [REGISTER] }));
    expect(onDefault.code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('gives PacketIns to the default primary and to roles whose config asks for them (filtered by metadata), PacketOuts likewise', async () => {
    const { harness, main } = await ready();
    const header = P4INFO.controller_packet_metadata.find((c) => c.preamble!.name === 'packet_in')!;
    const field = header.metadata[0]!;
    const quiet = await arbitrateRole(harness, 'quiet', 1n);
    const port3 = await arbitrateRole(harness, 'port3', 1n, packRoleConfig({ receives_packet_ins: true, packet_in_filter: { metadata_id: field.id, value: Buffer.from([3]) } }));
    expect([quiet.code, port3.code]).toEqual([grpc.status.OK, grpc.status.OK]);
    const metadata = (v: number) => new Map(header.metadata.map((m) => [m.id, Buffer.from([m.id === field.id ? v : 0])]));
    expect(harness.server.emitPacketIn(Buffer.from('aa', 'hex'), metadata(3))).toBe(2); // main and port3
    expect(harness.server.emitPacketIn(Buffer.from('bb', 'hex'), metadata(4))).toBe(1); // main only
    expect((await main.next()).packet?.payload).toEqual(Buffer.from('aa', 'hex'));
    expect((await port3.stream.next()).packet?.payload).toEqual(Buffer.from('aa', 'hex'));
    // A role without packet I/O gets a StreamError for its PacketOut, and nothing reaches the data plane.
    quiet.stream.send({ packet: { payload: Buffer.from('cc', 'hex'), metadata: [] } });
    const error = await quiet.stream.next();
    expect(error.error).toMatchObject({ canonical_code: grpc.status.PERMISSION_DENIED });
    expect(harness.packetIo.packets).toHaveLength(0);
  });
});

describe('the warning for plaintext P4Runtime on a reachable address', () => {
  it('tells loopback addresses apart', () => {
    expect(['127.0.0.1:9559', '127.1.2.3:1', 'localhost:9559', '[::1]:9559'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['0.0.0.0:9559', '[::]:9559', '10.0.0.1:9559', 'switch.lab:9559'].map(isLoopback)).toEqual([false, false, false, false]);
  });

  it('logs a warning when bound to 0.0.0.0 without TLS, and none on loopback', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) });
    for (const address of ['0.0.0.0:0', '127.0.0.1:0']) {
      const server = new P4RuntimeServer({ deviceId: 1, state: new DeviceState(), logger });
      await server.start({ address });
      await server.stop();
    }
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/without TLS on an address other hosts can reach.*--grpc-server-with-client-auth/);
  });
});
