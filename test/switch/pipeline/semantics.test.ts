import { afterEach, describe, expect, it } from 'vitest';
import { hex, rig, type Rig } from './harness.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

const PRELUDE = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
`;

const OPS = `${PRELUDE}
header in_t { bit<8> a; bit<8> b; int<8> s; bit<64> w; bit<64> v; }
header out_t {
  bit<8> sat_add; bit<8> sat_sub; int<8> sat_neg; int<8> ashr; bit<8> shl; bit<4> slice; bit<12> concat;
  bit<64> wsum; bit<64> wmul; bit<8> cast_down; bit<16> sext; bit<8> sum_wrap; bit<8> cmp; bit<8> err;
}
struct headers { eth_t eth; in_t i; out_t o; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.i); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    h.o.setValid();
    h.o.sat_add = h.i.a |+| h.i.b;
    h.o.sat_sub = h.i.b |-| h.i.a;
    h.o.sat_neg = h.i.s |-| 8s100;
    h.o.ashr = h.i.s >> 2;
    h.o.shl = h.i.a << 4;
    h.o.slice = h.i.a[7:4];
    h.o.concat = h.i.a[3:0] ++ h.i.b;
    h.o.wsum = h.i.w + h.i.v;
    h.o.wmul = h.i.w * h.i.v;
    h.o.cast_down = (bit<8>)h.i.w;
    h.o.sext = (bit<16>)(int<16>)h.i.s;
    h.o.sum_wrap = h.i.a + h.i.b;
    h.o.cmp = (h.i.s < 0 ? 8w1 : 8w0) | (h.i.a > h.i.b ? 8w2 : 8w0);
    h.o.err = (bit<8>)(h.i.w[0:0]);
    sm.egress_spec = 1;
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.i); pkt.emit(h.o); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

describe('expression semantics (widths, signedness, saturation, wide values)', () => {
  it('computes exactly as P4 says, numbers and bigints alike', () => {
    r = rig('ops_test', [0, 1], { text: OPS });
    const eth = hex('000000000002 000000000001 1234');
    const input = hex('f0 20 f6 ffffffffffffffff 0000000000000003');
    r.send(0, Buffer.concat([eth, input, hex('deadbeef')]));
    const out = Buffer.concat([
      hex('ff'), // 0xf0 |+| 0x20 saturates
      hex('00'), // 0x20 |-| 0xf0 saturates at 0
      hex('92'), // -10 |-| 100 = -110, in range
      hex('fd'), // -10 >> 2 = -3 (arithmetic)
      hex('00'), // 0xf0 << 4 in 8 bits
      // slice 0xf (4 bits) ++ concat 0x020 (12 bits) share two bytes: f 0 20 → 0xf020
      hex('f020'),
      hex('0000000000000002'), // 2^64-1 + 3 wraps to 2
      hex('fffffffffffffffd'), // (2^64-1) * 3 mod 2^64
      hex('ff'), // low byte of w
      hex('fff6'), // sign-extended -10
      hex('10'), // 0xf0 + 0x20 wraps
      hex('03'), // s < 0 and a > b
      hex('01'), // bit 0 of w
    ]);
    expect(r.take()).toEqual({ 1: [Buffer.concat([eth, input, out, hex('deadbeef')]).toString('hex')] });
  });
});

const PARSER_ERRORS = `${PRELUDE}
header h_t { bit<8> kind; bit<8> x; }
header report_t { bit<8> parser_error; bit<8> checksum_error; bit<8> kind_valid; bit<8> x_valid; }
struct headers { eth_t eth; h_t h; h_t h2; report_t rep; }
struct metadata { }
error { KindZero }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start {
    pkt.extract(h.eth);
    transition select(h.eth.type) { 0x1000 &&& 0xf000: one; 0x2000 .. 0x2fff: two; 0x3333: accept; }
  }
  state one { pkt.extract(h.h); verify(h.h.kind != 0, error.KindZero); transition accept; }
  state two { pkt.extract(h.h); pkt.extract(h.h2); transition accept; }
}
control V(inout headers h, inout metadata m) {
  apply { verify_checksum(h.h.isValid(), { h.h.kind }, h.h.x, HashAlgorithm.identity); }
}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    h.rep.setValid();
    if (sm.parser_error == error.NoError) { h.rep.parser_error = 0; }
    else if (sm.parser_error == error.PacketTooShort) { h.rep.parser_error = 1; }
    else if (sm.parser_error == error.NoMatch) { h.rep.parser_error = 2; }
    else if (sm.parser_error == error.KindZero) { h.rep.parser_error = 3; }
    else { h.rep.parser_error = 9; }
    h.rep.checksum_error = (bit<8>)sm.checksum_error;
    if (h.h.isValid()) { h.rep.kind_valid = 1; }
    if (h.h2.isValid()) { h.rep.x_valid = 1; }
    sm.egress_spec = 1;
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.rep); pkt.emit(h.eth); pkt.emit(h.h); pkt.emit(h.h2); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

describe('parser errors and checksum errors do not drop: ingress sees them', () => {
  const eth = (type: string): Buffer => hex(`000000000002 000000000001 ${type}`);

  it('masked and range select cases, NoMatch, PacketTooShort with earlier headers kept, verify, checksum_error', () => {
    r = rig('parser_errors', [0, 1], { text: PARSER_ERRORS });
    // Masked case, good checksum (identity of kind = x).
    r.send(0, Buffer.concat([eth('1abc'), hex('0505 99')]));
    // Masked case, checksum mismatch: checksum_error 1.
    r.send(0, Buffer.concat([eth('1abc'), hex('0506')]));
    // verify fails: KindZero; h stays valid.
    r.send(0, Buffer.concat([eth('1000'), hex('0000 77')]));
    // Range case, second header cut short: PacketTooShort, first stays valid, the last byte is payload.
    r.send(0, Buffer.concat([eth('2500'), hex('0707 08')]));
    // No case matches: NoMatch, the rest is payload.
    r.send(0, Buffer.concat([eth('4444'), hex('aabb')]));
    expect(r.take()).toEqual({
      1: [
        Buffer.concat([hex('00000100'), eth('1abc'), hex('0505 99')]),
        Buffer.concat([hex('00010100'), eth('1abc'), hex('0506')]),
        Buffer.concat([hex('03000100'), eth('1000'), hex('0000 77')]),
        Buffer.concat([hex('01000100'), eth('2500'), hex('0707 08')]),
        Buffer.concat([hex('02000000'), eth('4444'), hex('aabb')]),
      ].map((b) => b.toString('hex')),
    });
  });
});

const LOOPS = `${PRELUDE}
header tag_t { bit<8> passes; bit<8> rid; bit<8> itype; }
struct headers { eth_t eth; tag_t tag; }
struct metadata { @field_list(1) bit<8> kept; bit<8> lost; }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.tag); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    if (h.eth.type == 0x0001) {
      // Resubmit once, keeping field list 1.
      if (sm.instance_type == 0) { m.kept = 42; m.lost = 7; resubmit_preserving_field_list(1); }
      else { h.tag.passes = m.kept + m.lost; h.tag.itype = (bit<8>)sm.instance_type; sm.egress_spec = 1; }
    } else if (h.eth.type == 0x0002) {
      // Recirculate until 3 passes.
      sm.egress_spec = 2;
    } else if (h.eth.type == 0x0003) {
      // Forever: the switch must stop it.
      sm.egress_spec = 3;
    } else {
      sm.egress_spec = 1;
      clone(CloneType.I2E, 9);
      h.tag.passes = 0xee;
    }
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    h.tag.itype = (bit<8>)sm.instance_type;
    h.tag.rid = (bit<8>)sm.egress_rid;
    if (sm.egress_port == 2 && h.tag.passes < 3) { h.tag.passes = h.tag.passes + 1; recirculate_preserving_field_list(1); }
    if (sm.egress_port == 3) { recirculate_preserving_field_list(1); }
  }
}
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.tag); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

describe('resubmit, recirculate and clone paths', () => {
  const frame = (type: string, tag = '000000'): Buffer => Buffer.concat([hex(`000000000002 000000000001 ${type}`), hex(tag)]);

  it('resubmit keeps only the preserved field list and marks instance_type RESUBMIT (6)', () => {
    r = rig('loops', [0, 1, 2, 3, 4], { text: LOOPS });
    r.send(0, frame('0001'));
    // passes = kept (42) + lost (reset to 0); egress overwrites itype with 6 again.
    expect(r.take()).toEqual({ 1: [frame('0001', '2a0006').toString('hex')] });
  });

  it('recirculates the deparsed packet until the program stops, and bounds endless loops', () => {
    r = rig('loops', [0, 1, 2, 3, 4], { text: LOOPS });
    r.send(0, frame('0002'));
    expect(r.take()).toEqual({ 2: [frame('0002', '030004').toString('hex')] });
    r.send(0, frame('0003'));
    expect(r.take()).toEqual({});
    // The drop is counted on the port the last pass entered from (the recirculation port).
    expect(r.device.portStats()[3]!.dropped).toBe(1);
  });

  it('an I2E clone carries the packet as it entered ingress to each session replica', () => {
    r = rig('loops', [0, 1, 2, 3, 4], { text: LOOPS });
    r.write([{ type: 'INSERT', entity: { packet_replication_engine_entry: { clone_session_entry: { session_id: 9, replicas: [{ egress_port: 4, instance: 5 }] } } } }]);
    r.send(0, frame('0009', '111111'));
    expect(r.take()).toEqual({
      1: [frame('0009', 'ee0000').toString('hex')],
      4: [frame('0009', '110501').toString('hex')],
    });
  });
});
