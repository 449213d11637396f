// The generated deparser (src/switch/pipeline/generate-deparser.ts) of an
// emit-only deparser against the spec's rule (every valid header, in emit
// order, then the unparsed payload) written out by hand, and against the
// general path the same program takes when its deparser has one statement
// that is not an emit: headers, a header stack with holes, headers nested
// in a struct, fields of odd widths and a 48-bit one.
import { afterEach, describe, expect, it } from 'vitest';
import { compileCorpus, hex, rig, type Rig } from './harness.js';

const program = (deparser: string): string => `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
header s_t { bit<32> v; }
header o_t { bit<4> a; bit<12> b; bit<48> mac; }
struct inner_t { o_t o1; o_t o2; }
struct headers { eth_t eth; s_t[5] s; inner_t inner; o_t last; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.s.next); pkt.extract(h.s.next); pkt.extract(h.s.next); pkt.extract(h.s.next); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    sm.egress_spec = 1;
    if (h.eth.type[0:0] == 1) { h.s[1].setInvalid(); }
    if (h.eth.type[1:1] == 1) { h.s[4].setValid(); h.s[4].v = 0x44444444; }
    if (h.eth.type[2:2] == 1) { h.inner.o2.setValid(); h.inner.o2.a = 0xa; h.inner.o2.b = 0x123; h.inner.o2.mac = 0x0102030405f6; }
    if (h.eth.type[3:3] == 1) { h.last.setValid(); h.last.a = 1; h.last.b = 0xfff; h.last.mac = 0xffffffffffff; }
    if (h.eth.type[4:4] == 1) { h.eth.setInvalid(); }
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { ${deparser} } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

const EMITS = 'pkt.emit(h.eth); pkt.emit(h.s); pkt.emit(h.inner); pkt.emit(h.last);';
const EMIT_ONLY = program(EMITS);
// The same emits behind an `if`: not an emit-only deparser, so the general path runs it.
const GENERAL = program(`if (h.eth.isValid() || !h.eth.isValid()) { ${EMITS} }`);

const eth = (type: number): Buffer => hex(`000000000002 000000000001 ${type.toString(16).padStart(4, '0')}`);
const stack = hex('00000000 11111111 22222222 33333333');
const payload = Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 7) & 255));

describe('the generated deparser of an emit-only deparser', () => {
  let rigs: Rig[] = [];
  afterEach(async () => {
    for (const r of rigs) await r.device.stop();
    rigs = [];
  });

  /** What each program's switch sends for a frame with `type` (its flag bits) and `tail` after the parsed headers. */
  function outputs(type: number, tail: Buffer): Buffer[] {
    return rigs.map((r) => {
      r.send(0, Buffer.concat([eth(type), stack, tail]));
      const sent = r.ports.get(1)!.sent.splice(0);
      expect(sent).toHaveLength(1);
      return sent[0]!;
    });
  }

  it('is the one that runs: the IR gives an emit order only for the emit-only program', () => {
    expect(compileCorpus('gen_deparser_emits', EMIT_ONLY).ir.deparserEmitOrder).toHaveLength(4);
    expect(compileCorpus('gen_deparser_general', GENERAL).ir.deparserEmitOrder).toBeNull();
  });

  it('writes every valid header in emit order, then the payload, as the spec says and as the general path does', () => {
    rigs = [rig('gen_deparser_emits', [0, 1], { text: EMIT_ONLY }), rig('gen_deparser_general', [0, 1], { text: GENERAL })];
    // Written out by hand: s[1] invalid (a hole in the stack), s[4] valid, inner.o2 and last valid; o1 never is.
    const [generated, general] = outputs(0b1111, payload);
    const want = Buffer.concat([
      eth(0b1111),
      hex('00000000 22222222 33333333 44444444'),
      hex('a123 0102030405f6'), // inner.o2: 4 + 12 bits, then the 48-bit MAC
      hex('1fff ffffffffffff'), // last
      payload,
    ]);
    expect(generated!.toString('hex')).toBe(want.toString('hex'));
    expect(general!.toString('hex')).toBe(want.toString('hex'));
    // Every combination of the flags, with short and long payloads (copied byte by byte or by Buffer.copy).
    for (let type = 0; type < 32; type++) {
      for (const tail of [Buffer.alloc(0), payload.subarray(0, 5), payload]) {
        const [a, b] = outputs(type, tail);
        expect(a!.toString('hex'), `type ${type}, ${tail.length} payload bytes`).toBe(b!.toString('hex'));
      }
    }
  });
});
