import { afterEach, describe, expect, it } from 'vitest';
import { ipv4Frame, ip, mac } from './frames.js';
import { rig, tableEntry, type Rig } from './harness.js';

describe('basic_forward.p4 on the executor', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  it('forwards by longest prefix, rewrites MACs, decrements TTL and fixes the checksum', () => {
    r = rig('basic_forward');
    const p = r.program;
    r.write([
      tableEntry(p, 'MyIngress.ipv4_lpm', { 'hdr.ipv4.dstAddr': { lpm: [ip('10.0.0.0'), 8] } }, 'MyIngress.ipv4_forward', { dstAddr: mac('00:00:00:00:0a:0a'), port: Buffer.from([1]) }),
      tableEntry(p, 'MyIngress.ipv4_lpm', { 'hdr.ipv4.dstAddr': { lpm: [ip('10.0.2.0'), 24] } }, 'MyIngress.ipv4_forward', { dstAddr: mac('00:00:00:00:02:02'), port: Buffer.from([2]) }),
    ]);
    r.send(0, ipv4Frame({ dst: '00:00:00:00:00:ff', dstIp: '10.0.2.2', ttl: 64 }));
    const expected = ipv4Frame({ dst: '00:00:00:00:02:02', src: '00:00:00:00:00:ff', dstIp: '10.0.2.2', ttl: 63 });
    expect(r.take()).toEqual({ 2: [expected.toString('hex')] });
    r.send(0, ipv4Frame({ dst: '00:00:00:00:00:ff', dstIp: '10.9.9.9', ttl: 5 }));
    expect(r.take()).toEqual({ 1: [ipv4Frame({ dst: '00:00:00:00:0a:0a', src: '00:00:00:00:00:ff', dstIp: '10.9.9.9', ttl: 4 }).toString('hex')] });
  });

  it('drops on a miss (default action drop) and for non-IPv4 frames', () => {
    r = rig('basic_forward');
    r.send(0, ipv4Frame({ dstIp: '192.168.0.1' }));
    r.send(0, Buffer.concat([mac('ffffffffffff'), mac('000000000001'), Buffer.from([0x08, 0x06]), Buffer.alloc(28)]));
    expect(r.take()).toEqual({});
    expect(r.device.portStats()[0]).toEqual({ packetsIn: 2, packetsOut: 0, dropped: 2, malformed: 0 });
  });

  it('a truncated IPv4 header is a parser error, not a crash: ingress sees no valid ipv4 and drops', () => {
    r = rig('basic_forward');
    const frame = ipv4Frame({ dstIp: '10.0.2.2' }).subarray(0, 20);
    r.send(0, frame);
    for (let n = 14; n < 40; n++) r.send(0, Buffer.alloc(n, 0x08));
    expect(r.take()).toEqual({});
    expect(r.device.portStats()[0]!.malformed).toBe(0);
  });
});
