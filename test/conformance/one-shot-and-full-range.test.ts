// Over gRPC into the running switch, with packets through the data plane:
// one-shot action selector programming (spec §"One Shot Action Selector
// Programming": the set reads back as written, flows spread over its actions by
// the selector hash with the weights, mixing with members/groups refused), and
// a RANGE match over the whole range, which BMv2 accepts: it matches every
// packet and reads back as written.
import { afterEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../src/proto/p4r.js';
import { SwitchDevice } from '../../src/switch/device/switch-device.js';
import { PortSet } from '../../src/switch/ports/port-set.js';
import { CapturePort, compileCorpus, type CompiledCorpus } from '../switch/pipeline/harness.js';
import { b, PRIMARY } from './helpers/entities.js';
import { rawItemCodes } from './helpers/outcomes.js';
import { RawP4Runtime } from './helpers/raw-p4runtime.js';
import { quietLogger } from './helpers/switch-under-test.js';

const program = (apply: string, decls: string): string => `
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
  ${decls}
  apply { ${apply} }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

const ECMP = program(
  'if (!ecmp.apply().hit) { drop(); }',
  `action_selector(HashAlgorithm.crc16, 32w64, 32w8) sel;
  table ecmp {
    key = { h.eth.dst: exact; h.eth.src: selector; }
    actions = { set_port; drop; }
    implementation = sel;
    size = 64;
  }`,
);
const RANGES = program(
  'if (!by_type.apply().hit) { drop(); }',
  `table by_type {
    key = { h.eth.type: range; }
    actions = { set_port; drop; }
    size = 64;
  }`,
);

let device: SwitchDevice | undefined;
let raw: RawP4Runtime | undefined;
afterEach(async () => {
  raw?.close();
  await device?.stop();
  device = undefined;
  raw = undefined;
});

interface Running {
  readonly ports: CapturePort[];
  readonly raw: RawP4Runtime;
  readonly program: CompiledCorpus;
  write(updates: p4r.Update[]): Promise<void>;
  /** Sends a frame into port 0 and returns the port it left by (undefined: dropped). */
  send(dst: number, src: number, type?: number): number | undefined;
}

async function run(name: string, text: string): Promise<Running> {
  const compiled = compileCorpus(name, text);
  const ports = [0, 1, 2, 3].map((n) => new CapturePort(n));
  device = new SwitchDevice({ ports: new PortSet(ports), logger: quietLogger() });
  const { port } = await device.start({ address: '127.0.0.1:0' });
  const client = new RawP4Runtime(`127.0.0.1:${port}`, 0);
  raw = client;
  const stream = client.stream();
  stream.arbitrate(PRIMARY);
  expect((await stream.next()).arbitration?.status?.code).toBe(0);
  await client.setPipeline({ action: 'VERIFY_AND_COMMIT', config: { p4info: compiled.p4info, p4_device_config: Buffer.from(compiled.irText) } }, { electionId: PRIMARY });
  return {
    ports,
    raw: client,
    program: compiled,
    write: (updates) => client.write(updates, { electionId: PRIMARY }),
    send: (dst, src, type = 0x1234) => {
      ports[0]!.inject(Buffer.concat([b(0, 0, 0, 0, 0, dst), b(0, 0, 0, 0, src >> 8, src & 0xff), b(type >> 8, type & 0xff)]));
      const out = ports.filter((p) => p.sent.length > 0);
      for (const p of out) p.sent.length = 0;
      expect(out.length).toBeLessThanOrEqual(1);
      return out[0]?.number;
    },
  };
}

describe('one-shot action selector programming through the running switch', () => {
  it('spreads flows over the set by the selector hash, weighted, each flow sticking to one action; reads back the set as written', async () => {
    const sw = await run('one_shot_ecmp', ECMP);
    const tableId = sw.program.schema.tables.get('I.ecmp').id;
    const setPort = sw.program.schema.actions.get('I.set_port').id;
    const to = (port: number): p4r.Action => ({ action_id: setPort, params: [{ param_id: 1, value: b(port) }] });
    const entry = (set: [port: number, weight: number][]): p4r.TableEntry => ({
      table_id: tableId,
      match: [{ field_id: 1, exact: { value: b(0x0b) } }],
      action: { action_profile_action_set: { action_profile_actions: set.map(([port, weight]) => ({ action: to(port), weight })) } },
    });
    await sw.write([{ type: 'INSERT', entity: { table_entry: entry([[2, 1], [3, 3]]) } }]);

    const [read] = await sw.raw.read([{ table_entry: { table_id: tableId } }]);
    expect(read!.table_entry!.action!.action_profile_action_set!.action_profile_actions).toEqual([
      expect.objectContaining({ action: expect.objectContaining({ action_id: setPort, params: [expect.objectContaining({ param_id: 1, value: b(2) })] }), weight: 1 }),
      expect.objectContaining({ action: expect.objectContaining({ action_id: setPort, params: [expect.objectContaining({ param_id: 1, value: b(3) })] }), weight: 3 }),
    ]);
    // The hidden members and group are not there to read.
    const profileId = sw.program.schema.actionProfiles.get('I.sel').id;
    expect(await sw.raw.read([{ action_profile_member: { action_profile_id: profileId } }, { action_profile_group: { action_profile_id: profileId } }])).toEqual([]);

    // 256 flows whose sources differ in all 16 low bits (CRC is linear: sources differing only in a few bits can hit few slots).
    const sources = Array.from({ length: 256 }, (_, i) => (i * 40503 + 7) & 0xffff);
    const portOf = new Map<number, number | undefined>();
    for (const src of sources) portOf.set(src, sw.send(0x0b, src));
    const count = (port: number): number => [...portOf.values()].filter((p) => p === port).length;
    expect(count(2) + count(3)).toBe(256);
    expect(count(2)).toBeGreaterThan(0);
    // Weight 3 against 1: the heavier action takes most flows.
    expect(count(3)).toBeGreaterThan(count(2));
    for (const src of sources.slice(0, 32)) expect(sw.send(0x0b, src)).toBe(portOf.get(src));

    // MODIFY to another set: every flow follows it; members and groups cannot be mixed in.
    await sw.write([{ type: 'MODIFY', entity: { table_entry: entry([[1, 1]]) } }]);
    for (let src = 0; src < 32; src++) expect(sw.send(0x0b, src)).toBe(1);
    expect(
      await rawItemCodes(sw.write([{ type: 'INSERT', entity: { action_profile_member: { action_profile_id: profileId, member_id: 1, action: to(2) } } }])),
    ).toEqual(['INVALID_ARGUMENT']);
    // DELETE: the entry and its hidden group go; packets miss and are dropped.
    await sw.write([{ type: 'DELETE', entity: { table_entry: entry([]) } }]);
    expect(sw.send(0x0b, 1)).toBeUndefined();
    await sw.write([{ type: 'INSERT', entity: { action_profile_member: { action_profile_id: profileId, member_id: 1, action: to(2) } } }]);
  });
});

describe('a RANGE match over the whole range, as BMv2 accepts it', () => {
  it('matches every packet and reads back exactly as written', async () => {
    const sw = await run('full_range', RANGES);
    const tableId = sw.program.schema.tables.get('I.by_type').id;
    const setPort = sw.program.schema.actions.get('I.set_port').id;
    const match = [{ field_id: 1, range: { low: b(0), high: b(0xff, 0xff) } }];
    await sw.write([{ type: 'INSERT', entity: { table_entry: { table_id: tableId, match, priority: 1, action: { action: { action_id: setPort, params: [{ param_id: 1, value: b(2) }] } } } } }]);
    for (const type of [0x0000, 0x0800, 0x86dd, 0xffff]) expect(sw.send(1, 1, type)).toBe(2);
    const [read] = await sw.raw.read([{ table_entry: { table_id: tableId } }]);
    expect(read!.table_entry!.match).toEqual([expect.objectContaining({ field_id: 1, range: { low: b(0), high: b(0xff, 0xff) } })]);
  });
});
