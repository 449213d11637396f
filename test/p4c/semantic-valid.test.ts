// Valid programs the checker must accept without a diagnostic: the
// tutorial idioms and the corners of width inference.
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, memoryFileSystem, nodeFileSystem } from '../../src/p4c/index.js';
import { V1MODEL } from './helpers.js';

const PROGRAM = `${V1MODEL}
const bit<16> TYPE_IPV4 = 0x800;
const int OFFSET = 3 + 4 * 2;
const bit<8> FROM_INT = OFFSET - 1;
#define SESSION 5
enum bit<8> Proto { TCP = 6, UDP = 17 }
enum Colour { Red, Green }
typedef bit<9> port_t;
type bit<32> tag_t;
header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t { bit<4> version; bit<4> ihl; bit<8> tos; bit<16> len; bit<16> id; bit<3> flags; bit<13> frag;
                bit<8> ttl; bit<8> proto; bit<16> csum; bit<32> src; bit<32> dst; }
header label_t { bit<20> label; bit<3> tc; bit<1> bos; bit<8> ttl; }
struct inner_t { bit<8> a; bool b; }
struct headers_t { ethernet_t ethernet; ipv4_t ipv4; label_t[3] labels; }
struct meta_t { bit<32> hash; bit<16> l4; inner_t inner; Colour colour; tag_t tag; int<8> delta; bit<8> proto; }
parser P(packet_in pk, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.ethernet);
        transition select(hdr.ethernet.type) {
            TYPE_IPV4: parse_ipv4;
            0x8847: parse_label;
            0x9000 &&& 0xff00: accept;
            0xa000 .. 0xa0ff: reject;
            default: accept;
        }
    }
    state parse_label {
        pk.extract(hdr.labels.next);
        transition select(hdr.labels.last.bos) { 1: parse_ipv4; default: parse_label; }
    }
    state parse_ipv4 {
        pk.extract(hdr.ipv4);
        verify(hdr.ipv4.ihl >= 5, error.HeaderTooShort);
        meta.l4 = pk.lookahead<bit<16>>();
        pk.advance(32);
        transition select(hdr.ipv4.proto, hdr.ipv4.ttl) {
            (6, _): accept;
            (Proto.UDP, 0 .. 3): reject;
            default: accept;
        }
    }
}
control V(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(), { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.len, hdr.ipv4.id,
            hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl, hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst }, hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    register<bit<32>>(1024) regs;
    counter(64, CounterType.packets) hits;
    direct_meter<bit<2>>(MeterType.bytes) dm;
    bit<2> colour_bits;
    action drop() { mark_to_drop(sm); }
    action fwd(port_t port, bit<48> dmac) {
        sm.egress_spec = port;
        hdr.ethernet.src = hdr.ethernet.dst;
        hdr.ethernet.dst = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl |-| 1;
        dm.read(colour_bits);
    }
    action set_inner(inout inner_t i, bit<8> v) { i.a = v; i.b = v == 0; }
    table lpm {
        key = { hdr.ipv4.dst: lpm; hdr.ipv4.isValid(): exact; meta.proto: ternary; }
        actions = { fwd; drop; set_inner(meta.inner); NoAction; }
        meters = dm;
        const default_action = drop();
    }
    table acl {
        key = { hdr.ipv4.src: ternary; hdr.ipv4.proto: range; }
        actions = { drop; NoAction; }
        entries = {
            priority = 10: (0x0a000000 &&& 0xff000000, 6 .. 17): drop();
            priority = 5: (_, _): NoAction();
        }
    }
    apply {
        bit<32> value;
        bit<8> small = 8w0xff;
        hash(meta.hash, HashAlgorithm.crc32, 32w0, { hdr.ipv4.src, hdr.ipv4.dst, hdr.ipv4.proto }, 32w65536);
        regs.read(value, meta.hash & 1023);
        regs.write(meta.hash & 1023, value + 1);
        hits.count((bit<32>)sm.ingress_port);
        value = value << 2 >> 1;
        value[3:0] = 4w0b1010;
        small = ~small ^ (bit<8>)(hdr.ipv4.len >> 8);
        meta.delta = -(int<8>)small;
        meta.delta = meta.delta |+| 8s1;
        meta.tag = (tag_t)value;
        meta.colour = Colour.Green;
        meta.proto = Proto.TCP;
        meta.inner = { a = 1, b = true };
        if (meta.colour == Colour.Red || sm.parser_error != error.NoError) { exit; }
        if (hdr.ipv4.proto == Proto.TCP && hdr.labels[0].isValid()) { hdr.labels.pop_front(1); }
        if (hdr.ethernet.src == 48w0) { return; }
        small = hdr.ipv4.ttl > 64 ? 8w1 : FROM_INT;
        switch (lpm.apply().action_run) {
            fwd: { hdr.ipv4.setValid(); }
            drop:
            NoAction: { }
            default: { hdr.ipv4.setInvalid(); }
        }
        if (!acl.apply().miss) {
            clone(CloneType.I2E, SESSION);
        } else {
            digest<inner_t>(1, meta.inner);
        }
        sm.mcast_grp = hdr.ipv4.id[7:0] ++ 8w0;
        random(meta.l4, 16w0, 16w100);
        meta.proto = (8w200 + 8w100) >> 1;
    }
}
control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 1) { recirculate_preserving_field_list(0); }
        truncate(64);
    }
}
control C(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(), { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.len, hdr.ipv4.id,
            hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl, hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst }, hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}
control D(packet_out pk, in headers_t hdr) {
    apply { pk.emit(hdr.ethernet); pk.emit(hdr.labels); pk.emit(hdr.ipv4); }
}
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

describe('valid programs', () => {
  it('accepts the tutorial idioms and width inference corners, and lowers them', () => {
    const result = compileProgram('valid.p4', { text: PROGRAM, fileSystem: memoryFileSystem({ 'valid.p4': PROGRAM }, nodeFileSystem) });
    expect(formatDiagnostics(result.diagnostics)).toBe("");
    expect(result.ir).not.toBeNull();
    const acl = result.ir!.tables.find((t) => t.name === 'I.acl')!;
    expect(acl.entries.map((e) => [e.priority, e.keys])).toEqual([
      [10, [{ kind: 'mask', value: '167772160', mask: '4278190080' }, { kind: 'range', low: '6', high: '17' }]],
      [5, [{ kind: 'default' }, { kind: 'default' }]],
    ]);
    const ingress = result.ir!.blocks.find((b) => b.name === 'I')!;
    // bit<8> arithmetic wraps at every step: (200 + 100) mod 256 = 44, >> 1 = 22.
    expect(ingress.apply.at(-1)).toMatchObject({ kind: 'assign', value: { op: 'const', value: '22', type: { kind: 'bits', width: 8 } } });
    expect(result.p4info!.tables!.find((t) => t.preamble!.name === 'I.lpm')!.match_fields!.map((f) => [f.name, f.bitwidth])).toEqual([
      ['hdr.ipv4.dst', 32], ['hdr.ipv4.$valid$', 1], ['meta.proto', 8],
    ]);
  });
});
