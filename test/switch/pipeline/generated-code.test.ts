// The generated fast paths of the executor: per-layout header readers and
// writers against readBits/writeBits, and programs whose statements run as
// generated JavaScript (number arithmetic, long statement lists split into
// functions, exit inside them, controls applied by reference and with
// aliased arguments, inline register access, reused multicast replicas).
import { afterEach, describe, expect, it } from 'vitest';
import { readBits, writeBits } from '../../../src/switch/pipeline/bits.js';
import { headerReader, headerWriter } from '../../../src/switch/pipeline/header-codec.js';
import type { Bits } from '../../../src/switch/pipeline/values.js';
import { observesTimestamps } from '../../../src/switch/pipeline/timestamp-use.js';
import { SeededRandom } from '../../../src/util/seeded-random.js';
import { compileCorpus, hex, rig, type Rig } from './harness.js';

/** A seeded generator, so a failure replays. */
function seeded(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.nextFloat();
}

describe('generated header readers and writers', () => {
  it('read and write every field as readBits/writeBits do, at any offset and width', () => {
    const random = seeded(4);
    for (let round = 0; round < 200; round++) {
      // A layout of 1..12 fields of 1..80 bits, padded to whole bytes like a header.
      const fields: { bitOffset: number; width: number }[] = [];
      let offset = 0;
      for (let n = 1 + Math.floor(random() * 12); n > 0; n--) {
        const width = random() < 0.3 ? [8, 16, 32, 48, 64][Math.floor(random() * 5)]! : 1 + Math.floor(random() * 80);
        fields.push({ bitOffset: offset, width });
        offset += width;
      }
      if (offset % 8 !== 0) fields.push({ bitOffset: offset, width: 8 - (offset % 8) });
      const bytes = Math.ceil(fields.reduce((s, f) => s + f.width, 0) / 8);
      const at = Math.floor(random() * 3);
      const buf = Buffer.from(Array.from({ length: bytes + at + 2 }, () => Math.floor(random() * 256)));
      const layout = { fields };

      const got: Bits[] = [];
      headerReader(layout)(buf, at, got);
      const want = fields.map((f) => readBits(buf, at * 8 + f.bitOffset, f.width));
      expect(got).toEqual(want);

      // Fresh values written over a copy of the bytes: the same bytes as writeBits gives, nothing outside touched.
      const values = fields.map((f) => {
        const big = BigInt(Math.floor(random() * 2 ** 32)) * 2n ** 32n + BigInt(Math.floor(random() * 2 ** 32));
        const v = BigInt.asUintN(f.width, big);
        return f.width > 32 ? v : Number(v);
      });
      const a = Buffer.from(buf);
      const b = Buffer.from(buf);
      headerWriter(layout)(a, at, values);
      fields.forEach((f, i) => writeBits(b, at * 8 + f.bitOffset, f.width, values[i]!));
      expect(a.toString('hex')).toBe(b.toString('hex'));
    }
  });
});

const PRELUDE = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
`;

/** A header `v_t` of 60 bytes, so that a long run of assignments can fill it. */
const VALUES = `header v_t { ${Array.from({ length: 60 }, (_, i) => `bit<8> b${i};`).join(' ')} }`;

const PROGRAM = `${PRELUDE}
header p_t { bit<8> x; bit<8> y; }
header n_t { bit<16> a; bit<16> b; bit<4> c; bit<4> d; bit<32> e; }
header r_t { bit<16> sum; bit<16> diff; bit<16> prod; bit<16> shl; bit<16> shr; bit<16> inv; bit<8> lo; bit<4> hi; bit<4> flag; bit<32> cat; bit<32> reg; bit<32> oob; }
${VALUES}
struct headers { eth_t eth; p_t p; p_t q; n_t n; r_t r; v_t v; }
struct metadata { bit<8> stop; }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.p); pkt.extract(h.q); pkt.extract(h.n); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control Alias(inout p_t a, inout p_t b) { apply { a.x = 1; b.y = b.x; } }
control Replace(inout p_t a, in p_t b) { apply { a = b; } }
control Fill(inout v_t v, in bit<8> stop) {
  apply {
    v.setValid();
    ${Array.from({ length: 30 }, (_, i) => `v.b${i} = ${i + 1};`).join('\n    ')}
    if (stop == 1) { exit; }
    ${Array.from({ length: 30 }, (_, i) => `v.b${i + 30} = ${i + 31};`).join('\n    ')}
  }
}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  register<bit<32>>(4) cells;
  register<bit<32>>(4) wide_cells;
  Alias() alias;
  Replace() replace;
  Fill() fill;
  apply {
    h.r.setValid();
    h.r.sum = h.n.a + h.n.b;
    h.r.diff = h.n.a - h.n.b;
    h.r.prod = h.n.a * h.n.b;
    h.r.shl = h.n.a << 4;
    h.r.shr = h.n.a >> 3;
    h.r.inv = ~h.n.a;
    h.r.lo = h.n.e[7:0];
    h.r.hi = h.n.e[31:28];
    h.r.flag = (bit<4>)(h.n.c > h.n.d ? 1w1 : 1w0) + (bit<4>)(h.n.c == 4w15 ? 1w1 : 1w0);
    h.r.cat = h.n.a ++ h.n.b;
    cells.write(1, h.n.e);
    cells.write(7, 99);
    cells.read(h.r.reg, 1);
    cells.read(h.r.oob, 9);
    h.r.reg = h.r.reg + 1;
    alias.apply(h.p, h.p);
    replace.apply(h.q, h.p);
    h.p.x = 0x77;
    m.stop = h.eth.type[7:0];
    fill.apply(h.v, m.stop);
    sm.egress_spec = 1;
    if (h.eth.type == 0x2222) { sm.mcast_grp = 1; }
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply { h.q.y = h.q.y + (bit<8>)sm.egress_rid; }
}
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.p); pkt.emit(h.q); pkt.emit(h.r); pkt.emit(h.v); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

describe('programs running as generated code', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  const frame = (type: string): Buffer =>
    Buffer.concat([hex(`000000000002 000000000001 ${type}`), hex('0503'), hex('0a0b'), hex('fff0 0020 f4 80000081'), hex('cafe')]);
  // From n = {a 0xfff0, b 0x0020, c 0xf, d 0x4, e 0x80000081}:
  const results = hex([
    '0010', // a + b wraps in 16 bits
    'ffd0', // a - b
    'fe00', // a * b = 0x1ffe00 in 16 bits
    'ff00', // a << 4 in 16 bits
    '1ffe', // a >> 3
    '000f', // ~a
    '81', // e[7:0]
    '8' + '2', // e[31:28] = 8; flag = (c > d) + (c == 15) = 2
    'fff00020', // a ++ b
    '80000082', // cells[1] = e, read back + 1
    '00000000', // a read out of range gives 0
  ].join(''));
  // alias.apply(h.p, h.p): copy-in twice, a.x = 1, b.y = b.x (the copy: 5), copy-out a then b: p = {5, 5};
  // replace.apply(h.q, h.p): q = p = {5, 5}, and setting p.x afterwards leaves q alone.
  const p = hex('7705');
  const q = hex('0505');
  const all = Buffer.from(Array.from({ length: 60 }, (_, i) => i + 1));
  const half = Buffer.concat([Buffer.from(Array.from({ length: 30 }, (_, i) => i + 1)), Buffer.alloc(30)]);

  it('computes, applies controls with copy-in/copy-out semantics, and runs long statement lists to the end', () => {
    r = rig('generated_code', [0, 1, 2, 3], { text: PROGRAM });
    r.send(0, frame('1200'));
    const out = Buffer.concat([hex('000000000002 000000000001 1200'), p, q, results, all, hex('cafe')]);
    expect(r.take()).toEqual({ 1: [out.toString('hex')] });
  });

  it('stops at an exit in the middle of a long statement list (and still copies out)', () => {
    r = rig('generated_code', [0, 1, 2, 3], { text: PROGRAM });
    r.send(0, frame('1201'));
    // exit leaves the whole ingress: egress_spec stays 0, so the packet leaves on port 0.
    const out = Buffer.concat([hex('000000000002 000000000001 1201'), p, q, results, half, hex('cafe')]);
    expect(r.take()).toEqual({ 0: [out.toString('hex')] });
  });

  it('gives every multicast replica its own copy of the packet state, packet after packet', () => {
    r = rig('generated_code', [0, 1, 2, 3], { text: PROGRAM });
    r.write([
      {
        type: 'INSERT',
        entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [1, 2, 3].map((port) => ({ port: Buffer.from([port]), instance: port * 16 })) } } },
      },
    ]);
    for (let n = 0; n < 3; n++) {
      r.send(0, frame('2222'));
      const taken = r.take();
      // Egress adds the replica's rid to q.y: each replica sees q.y = 5 from ingress, never another replica's sum.
      for (const port of [1, 2, 3]) {
        const out = Buffer.concat([hex('000000000002 000000000001 2222'), p, hex('05'), Buffer.from([5 + port * 16]), results, all, hex('cafe')]);
        expect(taken[port]).toEqual([out.toString('hex')]);
      }
    }
  });
});

describe('whether a program can see the timestamps', () => {
  let r2: Rig | undefined;
  afterEach(async () => {
    await r2?.device.stop();
    r2 = undefined;
  });

  const program = (ingress: string, controls = ''): string => `${PRELUDE}
header t_t { bit<48> t; }
struct headers { eth_t eth; t_t t; }
struct metadata { bit<48> copy; }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) { state start { pkt.extract(h.eth); transition accept; } }
control V(inout headers h, inout metadata m) { apply { } }
control Fwd(inout standard_metadata_t s) { apply { s.egress_spec = 1; } }
${controls}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  Fwd() fwd;
  ${controls ? 'Peek() peek;' : ''}
  apply { ${ingress} }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.t); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

  const peek = 'control Peek(inout t_t t, in standard_metadata_t s) { apply { t.t = s.egress_global_timestamp; } }';
  it.each([
    ['passing standard_metadata on and dropping', 'fwd.apply(sm); if (h.eth.type == 0) { mark_to_drop(sm); }', '', false],
    ['reading a timestamp field', 'm.copy = sm.ingress_global_timestamp; fwd.apply(sm);', '', true],
    ['reading a 32-bit one', 'h.t.setValid(); h.t.t = (bit<48>)sm.enq_timestamp; fwd.apply(sm);', '', true],
    ['reading one in a nested control', 'h.t.setValid(); peek.apply(h.t, sm); fwd.apply(sm);', peek, true],
  ])('%s', (what, ingress, controls, expected) => {
    const compiled = compileCorpus(`timestamps_${what.replace(/\W+/g, '_')}`, program(ingress, controls));
    expect(observesTimestamps(compiled.ir)).toBe(expected);
  });

  it('a program that reads one gets the clock', () => {
    r2 = rig('timestamps_emit', [0, 1], { text: program('h.t.setValid(); h.t.t = sm.ingress_global_timestamp; fwd.apply(sm);') });
    r2.send(0, hex('000000000002 000000000001 1234'));
    const out = r2.take()[1]![0]!;
    expect(out.slice(28)).not.toBe('000000000000');
  });
});
