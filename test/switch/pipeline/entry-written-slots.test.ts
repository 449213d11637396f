// The per-packet reset and the multicast replica copy skip the parameter
// slots of nested controls that are written on entry (in/inout): P4's
// copy-in/copy-out says a nested control sees its arguments as the caller
// passes them, whatever its parameter held before. Checked with nested
// controls applied by reference and by copy, twice in one packet, in
// ingress and in every replica's egress, with outputs worked out by hand
// from the program; and the slot set itself, which must never hold the
// V1Switch slots or an `out` parameter.
import { afterEach, describe, expect, it } from 'vitest';
import { entryWrittenSlots } from '../../../src/switch/pipeline/entry-written-slots.js';
import { compileCorpus, hex, rig, type Rig } from './harness.js';

const PROGRAM = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
header s_t { bit<32> v; }
struct headers { eth_t eth; s_t[3] s; s_t extra; }
struct metadata { bit<32> seen; }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.s.next); pkt.extract(h.s.next); pkt.extract(h.s.next); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
// Applied by reference (its one argument names a location no other argument does).
control Bump(inout headers x) { apply { x.s[0].v = x.s[0].v + 1; } }
// Applied by copy: its arguments overlap (h and h.s[2]).
control Overlap(inout headers x, inout s_t y) { apply { y.v = x.s[1].v + y.v; } }
control Remember(in headers x, inout metadata mm) { apply { mm.seen = mm.seen + x.s[2].v; } }
control Make(out s_t o) { apply { o.setValid(); o.v = 0x55; } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  Bump() bump;
  Overlap() overlap;
  Remember() remember;
  Make() make;
  apply {
    bump.apply(h);
    bump.apply(h);
    overlap.apply(h, h.s[2]);
    remember.apply(h, m);
    if (h.eth.type == 1) { make.apply(h.extra); }
    sm.mcast_grp = 1;
  }
}
control Tag(inout headers x, in bit<9> port, in bit<32> seen) { apply { x.s[1].v = (bit<32>)port + seen; } }
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  Tag() tag;
  apply { tag.apply(h, sm.egress_port, m.seen); }
}
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.s); pkt.emit(h.extra); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

const eth = (type: number): string => `000000000002000000000001${type.toString(16).padStart(4, '0')}`;
const word = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');

describe('slots written on entry', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  it('are the in/inout parameters of nested blocks only', () => {
    const { ir } = compileCorpus('entry_written_slots', PROGRAM);
    const slotOf = (block: string, param: string): number => ir.blocks.find((b) => b.name === block)!.params.find((p) => p.name === param)!.slot;
    const written = entryWrittenSlots(ir);
    const expected = [
      slotOf('I.bump', 'x'),
      slotOf('I.overlap', 'x'),
      slotOf('I.overlap', 'y'),
      slotOf('I.remember', 'x'),
      slotOf('I.remember', 'mm'),
      slotOf('E.tag', 'x'),
      slotOf('E.tag', 'port'),
      slotOf('E.tag', 'seen'),
    ];
    expect([...written].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    // The out parameter keeps its per-packet reset; the V1Switch slots carry the packet.
    expect(written.has(slotOf('I.make', 'o'))).toBe(false);
    for (const s of [0, 1, 2]) expect(written.has(s)).toBe(false);
  });

  it('leave every packet and every replica as copy-in/copy-out says', () => {
    r = rig('entry_written_slots', [0, 1, 2, 3], { text: PROGRAM });
    r.write([
      {
        type: 'INSERT',
        entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [1, 2, 3].map((p) => ({ egress_port: p, instance: 1 })) } } },
      },
    ]);
    // Two packets in a row: nothing of the first may leak into the second through a nested
    // control's parameter (the second has other values, and does not apply `make`).
    const packets = [
      { type: 1, s: [10, 20, 30] },
      { type: 2, s: [1000, 2000, 3000] },
    ];
    for (const p of packets) {
      r.send(0, hex(eth(p.type) + p.s.map(word).join('')));
      const s0 = p.s[0]! + 2; // bumped twice
      const s2 = p.s[1]! + p.s[2]!; // overlap: y = x.s[1] + y, copied back into h.s[2]
      const seen = s2; // metadata starts at 0 for every packet
      const extra = p.type === 1 ? word(0x55) : '';
      const out = r.take();
      for (const port of [1, 2, 3]) {
        // Each replica's egress writes its own port (+ seen) into s[1].
        expect(out[port], `port ${port}, packet type ${p.type}`).toEqual([eth(p.type) + word(s0) + word(port + seen) + word(s2) + extra]);
      }
    }
  });
});
