import { afterEach, describe, expect, it } from 'vitest';
import { ipv4Frame, mac } from './frames.js';
import { hex, rig, tableEntry, type Rig } from './harness.js';

const ethFrame = (dst: string, src: string, rest = 'abcd'): Buffer => Buffer.concat([mac(dst), mac(src), Buffer.from([0x12, 0x34]), hex(rest)]);

describe('multicast.p4: PRE replication', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  it('makes one copy per (port, instance), egress prunes the ingress port by egress_rid', () => {
    r = rig('multicast');
    r.write([
      {
        type: 'INSERT',
        entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [1, 2, 3].map((p) => ({ egress_port: p, instance: 1 })).concat([{ egress_port: 2, instance: 7 }]) } } },
      },
    ]);
    const frame = ethFrame('ff:ff:ff:ff:ff:ff', '00:00:00:00:00:01');
    r.send(1, frame);
    // Port 1 is pruned by the program (egress_port == ingress_port, rid != 0); port 2 gets two replicas.
    expect(r.take()).toEqual({ 2: [frame.toString('hex'), frame.toString('hex')], 3: [frame.toString('hex')] });
  });

  it('unicast hits go to the entry port; a missing group drops', () => {
    r = rig('multicast');
    const p = r.program;
    r.write([tableEntry(p, 'McIngress.mac_table', { 'hdr.ethernet.dstAddr': { exact: mac('00:00:00:00:00:02') } }, 'McIngress.unicast', { port: Buffer.from([4]) })]);
    const frame = ethFrame('00:00:00:00:00:02', '00:00:00:00:00:01');
    r.send(0, frame);
    expect(r.take()).toEqual({ 4: [frame.toString('hex')] });
    r.send(0, ethFrame('00:00:00:00:00:09', '00:00:00:00:00:01'));
    expect(r.take()).toEqual({});
    expect(r.device.portStats()[0]!.dropped).toBe(1);
  });
});

describe('acl_clone.p4: ternary/range/optional priorities and I2E clones', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.device.stop();
    r = undefined;
  });

  const tcp = (srcIp: string, dstIp: string, dstPort: number, protocol = 6): Buffer => {
    const ports = Buffer.alloc(4);
    ports.writeUInt16BE(1234, 0);
    ports.writeUInt16BE(dstPort, 2);
    return ipv4Frame({ dst: '00:00:00:00:00:02', srcIp, dstIp, protocol, payload: Buffer.concat([ports, Buffer.from('data')]) });
  };

  it('denied packets are dropped and cloned as they entered, with etherType tagged by egress', () => {
    r = rig('acl_clone');
    const p = r.program;
    r.write([
      tableEntry(p, 'AclIngress.l2', { 'hdr.ethernet.dstAddr': { exact: mac('00:00:00:00:00:02') } }, 'AclIngress.forward', { port: Buffer.from([2]) }),
      { type: 'INSERT', entity: { packet_replication_engine_entry: { clone_session_entry: { session_id: 5, replicas: [{ egress_port: 4, instance: 0 }] } } } },
    ]);
    // Rule 1 (priority 100): from 10/8, TCP, port 22 → deny and clone.
    const ssh = tcp('10.1.1.1', '10.0.9.9', 22);
    r.send(1, ssh);
    const tagged = Buffer.from(ssh);
    tagged.writeUInt16BE(0x88b5, 12);
    expect(r.take()).toEqual({ 4: [tagged.toString('hex')] });
    // Not port 22: allowed, forwarded unchanged.
    const web = tcp('10.1.1.1', '10.0.9.9', 80);
    r.send(1, web);
    expect(r.take()).toEqual({ 2: [web.toString('hex')] });
    // UDP to 10.0.0.1 port < 1024: rule 2 (priority 90) denies.
    r.send(1, tcp('192.168.1.1', '10.0.0.1', 53, 17));
    expect(Object.keys(r.take())).toEqual(['4']);
  });
});
