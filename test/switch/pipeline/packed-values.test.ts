// Header stacks whose fields are all ≤ 32 bits keep their values in one
// Uint32Array, each element a view of its part, and structs of such bit
// strings keep theirs in one too (src/switch/pipeline/values.ts). Stack
// elements are then written in place rather than replaced. The same
// operations run on a packed stack (s: bit<8> + bit<24>) and on one that is
// not packed (w: bit<48> + bit<8>), with every output worked out by hand
// from the P4-16 spec: element assignment by a constant and by a run-time
// index, push_front, pop_front, wrapping sums with the top bit set, a stack
// copied through metadata and back, multicast replicas changed per port in
// egress, and a packet that parses no stack after one that did.
import { afterEach, describe, expect, it } from 'vitest';
import { hex, rig, type Rig } from './harness.js';

const PROGRAM = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
header s_t { bit<8> tag; bit<24> v; }
header w_t { bit<48> mac; bit<8> x; }
struct headers { eth_t eth; s_t[4] s; w_t[4] w; }
struct acc_t { bit<32> acc; bit<32> other; }
struct metadata { s_t[4] saved; acc_t a; }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); transition select(h.eth.type) { 7: only_w; default: both; } }
  state both { pkt.extract(h.s.next); pkt.extract(h.s.next); pkt.extract(h.s.next); pkt.extract(h.s.next); transition only_w; }
  state only_w { pkt.extract(h.w.next); pkt.extract(h.w.next); pkt.extract(h.w.next); pkt.extract(h.w.next); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    sm.egress_spec = 1;
    bit<2> idx = h.eth.src[1:0];
    if (h.eth.type == 1) { h.s[2] = h.s[0]; h.w[2] = h.w[0]; h.s[3].v = h.s[2].v + 1; h.w[3].x = h.w[2].x + 1; }
    if (h.eth.type == 2) { h.s[idx] = h.s[1]; h.w[idx] = h.w[1]; }
    if (h.eth.type == 3) { h.s.push_front(1); h.w.push_front(1); h.s[1].v = h.s[1].v + 1; h.w[1].x = h.w[1].x + 1; }
    if (h.eth.type == 4) { h.s.pop_front(2); h.w.pop_front(2); }
    if (h.eth.type == 5) { h.s[0].v = h.s[0].v + h.s[1].v; h.s[0].tag = h.s[0].tag + h.s[1].tag; }
    if (h.eth.type == 6) {
      m.saved = h.s;
      h.s[0].setInvalid();
      h.s[1] = m.saved[0];
      m.a.acc = 0xffffffff;
      m.a.acc = m.a.acc + (bit<32>)h.s[2].v;
      h.s[2].v = (bit<24>)m.a.acc;
    }
    if (h.eth.type == 8) { sm.mcast_grp = 1; }
    if (h.eth.type == 9) { h.s[3] = h.s[0]; h.w[3] = h.w[0]; sm.mcast_grp = 1; }
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    if (sm.egress_rid != 0) { h.s[1].v = (bit<24>)sm.egress_port; h.w[1].x = (bit<8>)sm.egress_port; }
  }
}
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.s); pkt.emit(h.w); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

type S = readonly [tag: number, v: number];
const s = ([tag, v]: S): string => tag.toString(16).padStart(2, '0') + v.toString(16).padStart(6, '0');
// w elements: a MAC ending in n, and x.
const w = (n: number, x: number): string => `0a00000000${n.toString(16).padStart(2, '0')}${x.toString(16).padStart(2, '0')}`;
const eth = (type: number): string => `000000000002000000000003${type.toString(16).padStart(4, '0')}`;

const S_IN: S[] = [
  [1, 0x11],
  [2, 0x22],
  [3, 0x33],
  [4, 0x44],
];
const W_IN = [w(1, 1), w(2, 2), w(3, 3), w(4, 4)];
const frame = (type: number, stack: readonly S[] = S_IN): Buffer => hex(eth(type) + stack.map(s).join('') + W_IN.join(''));

describe('packed header stacks and structs', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  function send(port: number, f: Buffer): Record<number, string[]> {
    r!.send(port, f);
    return r!.take();
  }

  it('give every stack operation the spec result, packed or not', () => {
    r = rig('packed_values', [0, 1, 2], { text: PROGRAM });
    const out = (type: number, stack: readonly S[], wOut: readonly string[]): string[] => [eth(type) + stack.map(s).join('') + wOut.join('')];
    // h.s[2] = h.s[0] (a constant index), then s[3].v = s[2].v + 1 reads the element just written.
    expect(send(0, frame(1))).toEqual({ 1: out(1, [S_IN[0]!, S_IN[1]!, S_IN[0]!, [4, 0x12]], [W_IN[0]!, W_IN[1]!, W_IN[0]!, w(4, 2)]) });
    // h.s[idx] = h.s[1] with idx = 3 from the source MAC, known only at run time.
    expect(send(0, frame(2))).toEqual({ 1: out(2, [S_IN[0]!, S_IN[1]!, S_IN[2]!, S_IN[1]!], [W_IN[0]!, W_IN[1]!, W_IN[2]!, W_IN[1]!]) });
    // push_front(1): everything moves up one, the first element is invalid (not emitted), the last falls off;
    // then s[1] (what was s[0]) gets 1 added.
    expect(send(0, frame(3))).toEqual({ 1: out(3, [[1, 0x12], S_IN[1]!, S_IN[2]!], [w(1, 2), W_IN[1]!, W_IN[2]!]) });
    // pop_front(2): elements 2 and 3 move to 0 and 1, the last two are invalid.
    expect(send(0, frame(4))).toEqual({ 1: out(4, [S_IN[2]!, S_IN[3]!], [W_IN[2]!, W_IN[3]!]) });
    // Sums wrap to the field's width: 0xf00000 + 0x200000 = 0x100000 in 24 bits, 0xf0 + 0x20 = 0x10 in 8.
    const high: S[] = [
      [0xf0, 0xf00000],
      [0x20, 0x200000],
      [0xff, 0xffffff],
      [0x80, 0x800000],
    ];
    expect(send(0, frame(5, high))).toEqual({ 1: out(5, [[0x10, 0x100000], high[1]!, high[2]!, high[3]!], W_IN) });
    // The stack copied into metadata and its first element back; a 32-bit metadata sum wraps (0xffffffff + 0x33 = 0x32).
    expect(send(0, frame(6))).toEqual({ 1: out(6, [S_IN[0]!, [3, 0x32], S_IN[3]!], W_IN) });
  });

  it('gives each multicast replica its own stack, and every packet fresh stacks', () => {
    r = rig('packed_values', [0, 1, 2], { text: PROGRAM });
    r.write([
      {
        type: 'INSERT',
        entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [1, 2].map((p) => ({ egress_port: p, instance: 1 })) } } },
      },
    ]);
    const got = send(0, frame(8));
    for (const port of [1, 2]) {
      const stack: S[] = [S_IN[0]!, [2, port], S_IN[2]!, S_IN[3]!];
      expect(got[port], `port ${port}`).toEqual([eth(8) + stack.map(s).join('') + [W_IN[0]!, w(2, port), W_IN[2]!, W_IN[3]!].join('')]);
    }
    // An element written in ingress reaches every replica.
    const written = send(0, frame(9));
    for (const port of [1, 2]) {
      const stack: S[] = [S_IN[0]!, [2, port], S_IN[2]!, S_IN[0]!];
      expect(written[port], `port ${port}`).toEqual([eth(9) + stack.map(s).join('') + [W_IN[0]!, w(2, port), W_IN[2]!, W_IN[0]!].join('')]);
    }
    // Type 7 parses no s: after the packets before it, every s element must be invalid again.
    expect(send(0, hex(eth(7) + W_IN.join('')))).toEqual({ 1: [eth(7) + W_IN.join('')] });
  });

  it('keeps signed and narrow metadata exact in a packed struct', () => {
    // sm_t has only <= 32-bit fields, so its value is a Uint32Array: negative int<W> values are held as
    // their W-bit patterns, as everywhere in the executor, and sign-extend and saturate as the spec says.
    const signed = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
header out_t { bit<8> x; bit<8> y; bit<4> n; bit<4> pad; bit<16> w; bit<8> gt; bit<32> big; }
struct headers { eth_t eth; out_t o; }
struct sm_t { int<8> a; int<8> b; bit<4> n; int<16> wide; bit<32> big; }
struct metadata { sm_t s; }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) { state start { pkt.extract(h.eth); transition accept; } }
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    m.s.a = -5;
    m.s.b = m.s.a - 100;
    m.s.n = 4w15 + 4w3;
    m.s.wide = (int<16>)m.s.b;
    m.s.a = m.s.a |-| 127;
    m.s.big = 0xfffffff0;
    m.s.big = m.s.big + 0x20;
    h.o.setValid();
    h.o.x = (bit<8>)m.s.a;
    h.o.y = (bit<8>)m.s.b;
    h.o.n = m.s.n;
    h.o.w = (bit<16>)m.s.wide;
    h.o.gt = m.s.b > m.s.a ? 8w1 : 8w0;
    h.o.big = m.s.big;
    sm.egress_spec = 1;
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.o); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;
    r = rig('packed_signed_struct', [0, 1], { text: signed });
    // a: -5 |-| 127 saturates at -128 (0x80); b: -5 - 100 = -105 (0x97); n: 15 + 3 wraps to 2;
    // wide: -105 sign-extended (0xff97); b > a (signed): 1; big: 0xfffffff0 + 0x20 wraps to 0x10.
    expect(send(0, hex(eth(1)))).toEqual({ 1: [eth(1) + '80' + '97' + '20' + 'ff97' + '01' + '00000010'] });
  });
});
