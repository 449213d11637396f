import { afterEach, describe, expect, it } from 'vitest';
import { createHashFunction } from '../../../src/switch/externs/index.js';
import { ip, ipv4Frame } from './frames.js';
import { rig, tableEntry, type Rig } from './harness.js';

describe('registers_counters.p4: registers, counters, direct counters, hash', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  it('counts per flow in the register and counter the control plane reads, and per entry in the direct counter', () => {
    r = rig('registers_counters');
    const p = r.program;
    r.write([tableEntry(p, 'StatsIngress.forwarding', { 'hdr.ipv4.dstAddr': { lpm: [ip('10.0.2.0'), 24] } }, 'StatsIngress.forward', { port: Buffer.from([3]) })]);
    const frame = ipv4Frame({ srcIp: '10.0.1.1', dstIp: '10.0.2.2', protocol: 17 });
    for (let i = 0; i < 3; i++) r.send(1, frame);
    expect(r.take()).toEqual({ 3: [frame, frame, frame].map((f) => f.toString('hex')) });

    const key = Buffer.concat([ip('10.0.1.1'), ip('10.0.2.2'), Buffer.from([17])]);
    const index = createHashFunction('crc32').hashNumber(key) % 1024;
    const forwarding = r.device.state.pipeline!.forwarding;
    const packets = forwarding.registers.find(p.schema.registers.get('StatsIngress.flow_packets').id)!;
    expect(packets.cells[index]).toBe(3);
    const counter = forwarding.counters.find(p.schema.counters.get('StatsIngress.flow_counter').id)!;
    expect(counter.packets[index]).toBe(3);
    expect(counter.bytes[index]).toBe(3 * frame.length);
    const table = forwarding.tables.find(p.schema.tables.get('StatsIngress.forwarding').id)!;
    const [entry] = [...table.entries()];
    expect(entry!.counter).toEqual({ packets: 3, bytes: 3 * frame.length });
  });

  it('a register written over P4Runtime is what the next packet reads', () => {
    r = rig('registers_counters');
    const p = r.program;
    r.write([tableEntry(p, 'StatsIngress.forwarding', { 'hdr.ipv4.dstAddr': { lpm: [ip('10.0.0.0'), 8] } }, 'StatsIngress.forward', { port: Buffer.from([2]) })]);
    const key = Buffer.concat([ip('10.0.1.1'), ip('10.0.2.2'), Buffer.from([17])]);
    const index = createHashFunction('crc32').hashNumber(key) % 1024;
    const regId = p.schema.registers.get('StatsIngress.flow_packets').id;
    r.write([{ type: 'MODIFY', entity: { register_entry: { register_id: regId, index: { index: String(index) }, data: { bitstring: Buffer.from([0x10]) } } } }]);
    r.send(1, ipv4Frame({ srcIp: '10.0.1.1', dstIp: '10.0.2.2', protocol: 17 }));
    expect(r.device.state.pipeline!.forwarding.registers.find(regId)!.cells[index]).toBe(0x11);
  });

  it('meter colours come from the P4Runtime meter config: RED drops, an unconfigured cell is GREEN', () => {
    r = rig('registers_counters');
    const p = r.program;
    r.write([
      tableEntry(p, 'StatsIngress.forwarding', { 'hdr.ipv4.dstAddr': { lpm: [ip('10.0.0.0'), 8] } }, 'StatsIngress.forward', { port: Buffer.from([3]) }),
      {
        type: 'MODIFY',
        entity: { meter_entry: { meter_id: p.schema.meters.get('StatsIngress.port_meter').id, index: { index: '1' }, config: { cir: '1', cburst: '1', pir: '1', pburst: '1' } } },
      },
    ]);
    const frame = ipv4Frame({ dstIp: '10.0.2.2' });
    r.send(1, frame); // metered through cell 1: a frame longer than the 1-byte burst is RED
    r.send(2, frame); // cell 2 unconfigured: GREEN
    expect(r.take()).toEqual({ 3: [frame.toString('hex')] });
    expect(r.device.portStats()[1]!.dropped).toBe(1);
  });

  it('a non-IPv4 frame returns from ingress early and leaves on port 0 (egress_spec starts at 0)', () => {
    r = rig('registers_counters');
    const arp = Buffer.concat([Buffer.alloc(12, 1), Buffer.from([0x08, 0x06]), Buffer.alloc(28, 2)]);
    r.send(2, arp);
    expect(r.take()).toEqual({ 0: [arp.toString('hex')] });
  });
});

const DIRECT_METER = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
header color_t { bit<8> color; }
struct headers { eth_t eth; color_t c; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.c); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  direct_meter<bit<8>>(MeterType.packets) dm;
  action metered() { dm.read(h.c.color); sm.egress_spec = 1; }
  table t {
    key = { h.eth.dst: exact; }
    actions = { metered; NoAction; }
    meters = dm;
    default_action = NoAction();
  }
  apply { t.apply(); }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.c); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

describe('direct meters', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  it('colour each packet by its entry\'s meter config: GREEN within the burst, then RED', () => {
    r = rig('direct_meter', [0, 1], { text: DIRECT_METER });
    const p = r.program;
    const dst = Buffer.from('000000000002', 'hex');
    const entry = tableEntry(p, 'I.t', { 'h.eth.dst': { exact: dst } }, 'I.metered');
    r.write([entry]);
    const te = entry.entity!.table_entry!;
    r.write([{ type: 'MODIFY', entity: { direct_meter_entry: { table_entry: { table_id: te.table_id, match: te.match }, config: { cir: '1', cburst: '2', pir: '1', pburst: '2' } } } }]);
    const frame = Buffer.concat([dst, Buffer.from('0000000000011234ff', 'hex')]);
    for (let i = 0; i < 3; i++) r.send(0, frame);
    const colours = (r.take()[1] ?? []).map((h) => Buffer.from(h, 'hex')[14]);
    expect(colours).toEqual([0, 0, 2]);
  });
});
