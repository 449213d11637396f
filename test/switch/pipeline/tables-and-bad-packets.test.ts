import { afterEach, describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { Code } from '../../../src/switch/state/status.js';
import { SeededRandom } from '../../../src/util/seeded-random.js';
import { ip, ipv4Frame } from './frames.js';
import { hex, rig, tableEntry, type Rig } from './harness.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

const MATCHES = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
header k_t { bit<32> addr; bit<16> port; bit<8> proto; bit<8> result; }
struct headers { eth_t eth; k_t k; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.k); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  action tag(bit<8> v) { h.k.result = v; }
  table tern {
    key = { h.k.addr: ternary; h.k.port: range; h.k.proto: optional; }
    actions = { tag; NoAction; }
    default_action = tag(0xff);
  }
  table lpm {
    key = { h.k.addr: lpm; }
    actions = { tag; NoAction; }
    default_action = NoAction();
    size = 16384;
  }
  apply {
    sm.egress_spec = 1;
    if (h.eth.type == 1) { tern.apply(); } else { lpm.apply(); }
  }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.k); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

function probe(type: number, addr: string, port: number, proto: number): Buffer {
  const k = Buffer.alloc(8);
  ip(addr).copy(k, 0);
  k.writeUInt16BE(port, 4);
  k[6] = proto;
  return Buffer.concat([hex('000000000002 000000000001'), Buffer.from([0, type]), k]);
}

function resultOf(r: Rig): number[] {
  return (r.take()[1] ?? []).map((h) => Buffer.from(h, 'hex')[21]!);
}

describe('match kinds', () => {
  it('ternary/range/optional: the highest priority matching entry wins, whatever the insertion order', () => {
    r = rig('matches', [0, 1], { text: MATCHES });
    const p = r.program;
    r.write([
      tableEntry(p, 'I.tern', { 'h.k.addr': { ternary: [ip('10.0.0.0'), ip('255.0.0.0')] } }, 'I.tag', { v: hex('01') }, 10),
      tableEntry(p, 'I.tern', { 'h.k.addr': { ternary: [ip('10.1.0.0'), ip('255.255.0.0')] }, 'h.k.port': { range: [hex('0050'), hex('0050')] } }, 'I.tag', { v: hex('02') }, 30),
      tableEntry(p, 'I.tern', { 'h.k.port': { range: [hex('0000'), hex('03ff')] }, 'h.k.proto': { optional: hex('06') } }, 'I.tag', { v: hex('03') }, 20),
    ]);
    r.send(0, probe(1, '10.1.2.3', 80, 6)); // all three match: priority 30
    r.send(0, probe(1, '10.1.2.3', 81, 6)); // 10/8 (10) and port<1024+tcp (20)
    r.send(0, probe(1, '10.1.2.3', 2000, 6)); // only 10/8
    r.send(0, probe(1, '11.0.0.1', 22, 17)); // none: default
    r.send(0, probe(1, '11.0.0.1', 22, 6)); // optional proto 6
    expect(resultOf(r)).toEqual([2, 3, 1, 0xff, 3]);
  });

  it('LPM: the longest prefix wins, inserted in any order; /0 catches the rest', () => {
    r = rig('matches', [0, 1], { text: MATCHES });
    const p = r.program;
    r.write([
      tableEntry(p, 'I.lpm', { 'h.k.addr': { lpm: [ip('10.1.2.0'), 24] } }, 'I.tag', { v: hex('18') }),
      tableEntry(p, 'I.lpm', { 'h.k.addr': { lpm: [ip('10.1.2.3'), 32] } }, 'I.tag', { v: hex('20') }),
      tableEntry(p, 'I.lpm', { 'h.k.addr': { lpm: [ip('10.0.0.0'), 8] } }, 'I.tag', { v: hex('08') }),
      tableEntry(p, 'I.lpm', {}, 'I.tag', { v: hex('77') }),
    ]);
    r.send(0, probe(2, '10.1.2.3', 0, 0));
    r.send(0, probe(2, '10.1.2.4', 0, 0));
    r.send(0, probe(2, '10.200.0.1', 0, 0));
    r.send(0, probe(2, '192.168.0.1', 0, 0));
    expect(resultOf(r)).toEqual([0x20, 0x18, 0x08, 0x77]);
  });

  it('LPM agrees with a brute-force longest-prefix reference over many random prefixes', () => {
    r = rig('matches', [0, 1], { text: MATCHES });
    const p = r.program;
    const rng = new SeededRandom(3);
    const routes = new Map<string, { value: number; length: number; tag: number }>();
    while (routes.size < 300) {
      const length = 1 + Math.floor(rng.nextFloat() * 32);
      const mask = length === 32 ? 0xffffffff : (~(0xffffffff >>> length)) >>> 0;
      const value = (Math.floor(rng.nextFloat() * 2 ** 32) & mask) >>> 0;
      routes.set(`${value}/${length}`, { value, length, tag: 1 + (routes.size % 250) });
    }
    const addr = (v: number): Buffer => Buffer.from([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
    r.write([...routes.values()].map((x) => tableEntry(p, 'I.lpm', { 'h.k.addr': { lpm: [addr(x.value), x.length] } }, 'I.tag', { v: Buffer.from([x.tag]) })));
    const expected: number[] = [];
    for (let i = 0; i < 300; i++) {
      const route = [...routes.values()][i % routes.size]!;
      const probeAddr = i % 2 === 0 ? (route.value | Math.floor(rng.nextFloat() * 2 ** (32 - route.length))) >>> 0 : Math.floor(rng.nextFloat() * 2 ** 32);
      let best: { length: number; tag: number } | undefined;
      for (const x of routes.values()) {
        const mask = x.length === 32 ? 0xffffffff : (~(0xffffffff >>> x.length)) >>> 0;
        if (((probeAddr & mask) >>> 0) === x.value && (!best || x.length > best.length)) best = x;
      }
      expected.push(best?.tag ?? 0);
      r.send(0, probe(2, addr(probeAddr).join('.'), 0, 0));
    }
    expect(resultOf(r)).toEqual(expected);
  });

  it('LPM follows inserts, deletes, MODIFYs and rolled-back batches between packets, and more changes than its journal keeps', () => {
    r = rig('matches', [0, 1], { text: MATCHES });
    const rig0 = r;
    const p = r.program;
    const rng = new SeededRandom(11);
    const u32 = (): number => Math.floor(rng.nextFloat() * 2 ** 32);
    const addr = (v: number): Buffer => Buffer.from([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
    const maskOf = (length: number): number => (length === 0 ? 0 : length === 32 ? 0xffffffff : (~(0xffffffff >>> length)) >>> 0);
    /** The routes the switch should hold: "value/length" → tag. */
    const routes = new Map<string, number>();
    const route = (value: number, length: number, tag: number, type: 'INSERT' | 'MODIFY' | 'DELETE'): p4r.Update => {
      const u = tableEntry(p, 'I.lpm', length ? { 'h.k.addr': { lpm: [addr(value), length] } } : {}, 'I.tag', { v: Buffer.from([tag]) });
      return { ...u, type, entity: type === 'DELETE' ? { table_entry: { ...u.entity!.table_entry!, action: undefined } } : u.entity };
    };
    const newRoute = (): [number, number] => {
      for (;;) {
        const length = Math.floor(rng.nextFloat() * 33);
        const value = (u32() & maskOf(length)) >>> 0;
        if (!routes.has(`${value}/${length}`)) return [value, length];
      }
    };
    const write = (updates: p4r.Update[], atomicity: 'CONTINUE_ON_ERROR' | 'ROLLBACK_ON_ERROR'): number[] => {
      const decoded = updates.map((u) => decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', u)));
      return (rig0.device.state.write(decoded, atomicity) as { code: number }[]).map((x) => x.code);
    };
    const insertSome = (n: number): void => {
      const batch: [number, number][] = [];
      const tags: number[] = [];
      for (let i = 0; i < n; i++) {
        const [v, l] = newRoute();
        batch.push([v, l]);
        tags.push(1 + Math.floor(rng.nextFloat() * 250));
        routes.set(`${v}/${l}`, tags[i]!);
      }
      expect(write(batch.map(([v, l], i) => route(v, l, tags[i]!, 'INSERT')), 'CONTINUE_ON_ERROR').every((c) => c === Code.OK)).toBe(true);
    };
    const someRoutes = (n: number): [number, number][] => [...routes.keys()].filter(() => rng.nextFloat() < n / routes.size).map((k) => k.split('/').map(Number) as [number, number]);
    const check = (probes: number): void => {
      const list = [...routes].map(([k, tag]) => ({ value: Number(k.split('/')[0]), length: Number(k.split('/')[1]), tag }));
      const expected: number[] = [];
      for (let i = 0; i < probes; i++) {
        const near = list[Math.floor(rng.nextFloat() * list.length)];
        const probeAddr = near && i % 2 === 0 ? (near.value | (u32() & ~maskOf(near.length))) >>> 0 : u32();
        let best: { length: number; tag: number } | undefined;
        for (const x of list) if (((probeAddr & maskOf(x.length)) >>> 0) === x.value && (!best || x.length > best.length)) best = x;
        expected.push(best?.tag ?? 0);
        rig0.send(0, probe(2, addr(probeAddr).join('.'), 0, 0));
      }
      expect(resultOf(rig0)).toEqual(expected);
    };

    insertSome(200);
    check(40);
    for (let step = 0; step < 15; step++) {
      const gone = someRoutes(10);
      expect(write(gone.map(([v, l]) => route(v, l, 0, 'DELETE')), 'CONTINUE_ON_ERROR').every((c) => c === Code.OK)).toBe(true);
      for (const [v, l] of gone) routes.delete(`${v}/${l}`);
      const changed = someRoutes(10);
      const tags = changed.map(() => 1 + Math.floor(rng.nextFloat() * 250));
      expect(write(changed.map(([v, l], i) => route(v, l, tags[i]!, 'MODIFY')), 'CONTINUE_ON_ERROR').every((c) => c === Code.OK)).toBe(true);
      changed.forEach(([v, l], i) => routes.set(`${v}/${l}`, tags[i]!));
      insertSome(10);
      // A batch that inserts, modifies and deletes, then fails on a duplicate: all of it is undone.
      const [nv, nl] = newRoute();
      const [[mv, ml]] = someRoutes(5).length ? someRoutes(5) : [[0, 0]];
      const [[dv, dl]] = someRoutes(5).length ? someRoutes(5) : [[0, 0]];
      const [ev, el] = [...routes.keys()][0]!.split('/').map(Number) as [number, number];
      const codes = write([route(nv, nl, 7, 'INSERT'), route(mv!, ml!, 9, 'MODIFY'), route(dv!, dl!, 0, 'DELETE'), route(ev, el, 1, 'INSERT')], 'ROLLBACK_ON_ERROR');
      expect(codes).toContain(Code.ALREADY_EXISTS);
      check(20);
    }
    // More changes than the table's journal keeps between two packets: the index is rebuilt.
    insertSome(9000);
    check(60);
  });

  it('ternary agrees with a brute-force highest-priority reference over random 32-bit values and masks (top bit too)', () => {
    r = rig('matches', [0, 1], { text: MATCHES });
    const p = r.program;
    const rng = new SeededRandom(5);
    const u32 = (): number => Math.floor(rng.nextFloat() * 2 ** 32);
    const entries = Array.from({ length: 200 }, (_, i) => {
      // Masks of 1 to 6 random bits: entries overlap often, so priorities decide.
      let mask = 0;
      const bits = 1 + Math.floor(rng.nextFloat() * 6);
      for (let b = 0; b < bits; b++) mask = (mask | (1 << Math.floor(rng.nextFloat() * 32))) >>> 0;
      return { value: (u32() & mask) >>> 0, mask, priority: 1 + i, tag: 1 + (i % 250) };
    });
    const addr = (v: number): Buffer => Buffer.from([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
    r.write(entries.map((x) => tableEntry(p, 'I.tern', { 'h.k.addr': { ternary: [addr(x.value), addr(x.mask)] } }, 'I.tag', { v: Buffer.from([x.tag]) }, x.priority)));
    const expected: number[] = [];
    for (let i = 0; i < 300; i++) {
      const probeAddr = u32();
      let best: { priority: number; tag: number } | undefined;
      for (const x of entries) if (((probeAddr & x.mask) >>> 0) === x.value && (!best || x.priority > best.priority)) best = x;
      expected.push(best?.tag ?? 0xff);
      r.send(0, probe(1, addr(probeAddr).join('.'), 9999, 17));
    }
    expect(resultOf(r)).toEqual(expected);
  });
});

describe('bad packets', () => {
  it('truncated and random frames never throw in any corpus program', () => {
    const rng = new SeededRandom(7);
    for (const name of ['basic_forward', 'acl_clone', 'multicast', 'registers_counters', 'calc', 'source_routing', 'digest_learning']) {
      r = rig(name, [0, 1, 2, 3, 4], { cpuPort: name === 'digest_learning' ? 255 : undefined });
      const good = ipv4Frame({ dstIp: '10.0.2.2' });
      for (let n = 14; n <= good.length; n++) r.send(1, good.subarray(0, n));
      for (let i = 0; i < 200; i++) {
        const frame = Buffer.alloc(14 + Math.floor(rng.nextFloat() * 80));
        for (let j = 0; j < frame.length; j++) frame[j] = Math.floor(rng.nextFloat() * 256);
        if (i % 3 === 0) frame.writeUInt16BE([0x0800, 0x1234, 0x88b5][i % 9 === 0 ? 1 : 0]!, 12);
        r.send(1 + (i % 3), frame);
      }
      const stats = r.device.portStats();
      // `malformed` counts the frames the executor failed on: crashes.
      const crashes = Object.values(stats).reduce((n, s) => n + s.malformed, 0);
      const dropped = Object.values(stats).reduce((n, s) => n + s.dropped, 0);
      console.log(`frames fuzz ${name} (seed 7): ${good.length - 13 + 200} truncated and random frames: ${crashes} crashes, ${dropped} counted drops`);
      expect(crashes).toBe(0);
      // Shorter than an Ethernet header: the port refuses it and it is counted as malformed.
      r.send(1, Buffer.alloc(10));
      expect(r.device.portStats()[1]!.malformed).toBe(1);
      void r.device.stop();
      r = undefined;
    }
  });
});
