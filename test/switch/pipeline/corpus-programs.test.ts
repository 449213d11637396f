import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { ipv4Frame, mac } from './frames.js';
import { hex, rig, tableEntry, type Rig } from './harness.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

describe('calc.p4: lookahead, const entries, arithmetic', () => {
  const calc = (op: string, a: number, b: number): Buffer => {
    const h = Buffer.alloc(16);
    h.write('P4', 0, 'latin1');
    h[2] = 1;
    h[3] = op.charCodeAt(0);
    h.writeUInt32BE(a, 4);
    h.writeUInt32BE(b, 8);
    return Buffer.concat([mac('00:00:00:00:00:02'), mac('00:00:00:00:00:01'), Buffer.from([0x12, 0x34]), h]);
  };
  const answer = (op: string, a: number, b: number, res: number): string => {
    const f = calc(op, a, b);
    mac('00:00:00:00:00:01').copy(f, 0);
    mac('00:00:00:00:00:02').copy(f, 6);
    f.writeUInt32BE(res, 26);
    return f.toString('hex');
  };

  it('answers each operator back on the ingress port, wrapping at 32 bits', () => {
    r = rig('calc');
    r.send(3, calc('+', 0xffffffff, 2));
    r.send(3, calc('-', 1, 2));
    r.send(3, calc('&', 0xf0f0, 0xff00));
    r.send(3, calc('|', 0xf0, 0x0f));
    r.send(3, calc('^', 0xff, 0x0f));
    expect(r.take()).toEqual({
      3: [answer('+', 0xffffffff, 2, 1), answer('-', 1, 2, 0xffffffff), answer('&', 0xf0f0, 0xff00, 0xf000), answer('|', 0xf0, 0x0f, 0xff), answer('^', 0xff, 0x0f, 0xf0)],
    });
  });

  it('the const entries are installed at load: a P4Runtime read returns them', () => {
    r = rig('calc');
    const tableId = r.program.schema.tables.get('MyIngress.calculate').id;
    const read = r.device.state.read([decodeMessage<p4r.Entity__Output>('p4.v1.Entity', encodeMessage('p4.v1.Entity', { table_entry: { table_id: tableId } }))]);
    const entities = [...(read as Iterable<p4r.Entity>)];
    expect(entities).toHaveLength(5);
    expect(entities.map((e) => Buffer.from(e.table_entry!.match![0]!.exact!.value as Buffer).toString('latin1')).sort()).toEqual(['&', '+', '-', '^', '|']);
  });

  it('an unknown operator hits the const default (drop); a short calc header is not extracted and drops', () => {
    r = rig('calc');
    r.send(1, calc('*', 1, 2));
    r.send(1, calc('+', 1, 2).subarray(0, 20));
    expect(r.take()).toEqual({});
  });
});

describe('source_routing.p4: header stacks, pop_front', () => {
  it('follows the first hop, pops it, finishes at bottom of stack and decrements TTL', () => {
    r = rig('source_routing');
    const hop = (port: number, bos: number): Buffer => Buffer.from([(bos << 7) | (port >> 8), port & 0xff]);
    const ipv4 = ipv4Frame({ ttl: 10 }).subarray(14);
    const eth = (etherType: number): Buffer => Buffer.concat([mac('00:00:00:00:00:02'), mac('00:00:00:00:00:01'), Buffer.from([etherType >> 8, etherType & 0xff])]);
    // The program does not update the checksum: the TTL changes at every hop, the checksum stays.
    const out = Buffer.from(ipv4);
    out[8] = 9;
    r.send(1, Buffer.concat([eth(0x1234), hop(2, 0), hop(3, 1), ipv4]));
    expect(r.take()).toEqual({ 2: [Buffer.concat([eth(0x1234), hop(3, 1), out]).toString('hex')] });
    r.send(2, Buffer.concat([eth(0x1234), hop(3, 1), ipv4]));
    expect(r.take()).toEqual({ 3: [Buffer.concat([eth(0x0800), out]).toString('hex')] });
  });
});

describe('digest_learning.p4: digests and the CPU port', () => {
  it('learns unknown sources by digest and sends unknown destinations to the CPU with packet_in metadata', () => {
    r = rig('digest_learning', [1, 2], { cpuPort: 255 });
    const digests = vi.spyOn(r.device.server, 'emitDigest');
    const packetIns = vi.spyOn(r.device.server, 'emitPacketIn');
    const frame = Buffer.concat([mac('00:00:00:00:00:02'), mac('00:00:00:00:00:01'), hex('0800'), hex('aabbcc')]);
    r.send(1, frame);
    expect(digests).toHaveBeenCalledTimes(1);
    const digestId = r.program.schema.digests.get('mac_learn_digest_t').id;
    expect(digests.mock.calls[0]![0]).toBe(digestId);
    expect(digests.mock.calls[0]![1]).toEqual({ struct: { members: [{ bitstring: Buffer.from([1]) }, { bitstring: Buffer.from([1]) }] } });
    expect(packetIns).toHaveBeenCalledTimes(1);
    const [payload, metadata] = packetIns.mock.calls[0]!;
    expect(payload.toString('hex')).toBe(frame.toString('hex'));
    expect([...metadata.entries()].map(([k, v]) => [k, Buffer.from(v).toString('hex')])).toEqual([
      [1, '0001'],
      [2, '00'],
    ]);
  });

  it('a PacketOut enters ingress from the CPU port with packet_out filled from its metadata', () => {
    r = rig('digest_learning', [1, 2], { cpuPort: 255 });
    const frame = Buffer.concat([mac('00:00:00:00:00:02'), mac('00:00:00:00:00:01'), hex('0800'), hex('aabbcc')]);
    r.device.injectPacketOut(frame, new Map([['egress_port', Buffer.from([2])], ['_pad', Buffer.from([0])]]));
    expect(r.take()).toEqual({ 2: [frame.toString('hex')] });
  });

  it('known destinations are forwarded and known sources not learned again', () => {
    r = rig('digest_learning', [1, 2], { cpuPort: 255 });
    const p = r.program;
    r.write([
      tableEntry(p, 'smac', { src: { exact: mac('00:00:00:00:00:01') } }, 'NoAction'),
      tableEntry(p, 'LearnIngress.destination_mac', { 'hdr.ethernet.dstAddr': { exact: mac('00:00:00:00:00:02') } }, 'LearnIngress.forward', { port: Buffer.from([2]) }),
    ]);
    const digests = vi.spyOn(r.device.server, 'emitDigest');
    const frame = Buffer.concat([mac('00:00:00:00:00:02'), mac('00:00:00:00:00:01'), hex('0800'), hex('aabbcc')]);
    r.send(1, frame);
    expect(digests).not.toHaveBeenCalled();
    expect(r.take()).toEqual({ 2: [frame.toString('hex')] });
  });
});
