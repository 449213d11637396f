// The forwarding both programs share, packet by packet on the IR oracle:
// ARP for the switch's address, flooding with ingress-port pruning, LPM
// routing with TTL, L2 misses and bad checksums counted; and in switchml.p4,
// SwitchML packets not addressed to the switch pass through untouched.
import { describe, expect, it } from 'vitest';
import {
  ArpOperation, BROADCAST_MAC, buildArpFrame, buildUdpFrame, ipv4FromText, macFromText, parseArp, parseEthernet, parseUdpFrame,
} from '../../src/wire/index.js';
import { FORWARD_P4, SWITCHML_P4 } from './helpers.js';
import { installJob, startSwitch, SWITCH_IP, SWITCH_MAC, updateFrame, worker } from './support/fixture.js';
import type { IrOracle } from './support/ir-oracle.js';

const DROPS = 'ingress.forwarding.forwarding_drops';
const Drop = { BAD_IPV4_CHECKSUM: 1, TTL_EXPIRED: 2, L2_MISS: 3 };
const ROUTER_MAC = macFromText('02:00:00:00:01:01');

function arpRequest(from: number, targetIp: number): Buffer {
  const buf = Buffer.alloc(64);
  const a = worker(from);
  const length = buildArpFrame(buf, 0, { operation: ArpOperation.REQUEST, senderMac: a.mac, senderIp: a.ip, targetMac: 0, targetIp });
  return Buffer.from(buf.subarray(0, length));
}

function udpFrame(dstMac: number, dstIp: string, ttl = 64): Buffer {
  const buf = Buffer.alloc(128);
  const flow = { srcMac: worker(0).mac, dstMac, srcIp: worker(0).ip, dstIp: ipv4FromText(dstIp), srcPort: 1234, dstPort: 5678, ttl };
  return Buffer.from(buf.subarray(0, buildUdpFrame(buf, 0, flow, Buffer.from('payload'))));
}

function configured(file: string): IrOracle {
  const sw = startSwitch(file);
  sw.addEntry('ingress.forwarding.l2_forward', { keys: [BigInt(BROADCAST_MAC)], action: 'ingress.forwarding.flood', args: [1n] });
  sw.addEntry('ingress.forwarding.l2_forward', { keys: [BigInt(worker(2).mac)], action: 'ingress.forwarding.forward', args: [3n] });
  sw.addEntry('ingress.forwarding.ipv4_routes', { keys: [{ value: BigInt(ipv4FromText('10.1.0.0')), prefixLength: 16 }], action: 'ingress.forwarding.route', args: [BigInt(ROUTER_MAC), 4n] });
  sw.addEntry('ingress.forwarding.ipv4_routes', { keys: [{ value: BigInt(ipv4FromText('10.1.2.0')), prefixLength: 24 }], action: 'ingress.forwarding.route', args: [BigInt(ROUTER_MAC), 5n] });
  sw.groups.set(1, [1, 2, 3, 4].map((port) => ({ port, rid: 0 })));
  return sw;
}

describe.each([FORWARD_P4, SWITCHML_P4])('%s', (file) => {
  const sw = configured(file);

  it('answers an ARP request for its own address out of the ingress port', () => {
    const out = sw.process(arpRequest(0, SWITCH_IP), 1);
    expect(out.map((p) => p.port)).toEqual([1]);
    const ethernet = parseEthernet(out[0]!.bytes);
    const arp = parseArp(out[0]!.bytes, 14);
    if (!ethernet.ok || !arp.ok) throw new Error('not an ARP frame');
    expect([ethernet.dstMac, ethernet.srcMac]).toEqual([worker(0).mac, SWITCH_MAC]);
    expect(arp).toMatchObject({ operation: ArpOperation.REPLY, senderMac: SWITCH_MAC, senderIp: SWITCH_IP, targetMac: worker(0).mac, targetIp: worker(0).ip });
  });

  it('floods an ARP request for another address to every group port but the ingress port, unchanged', () => {
    const request = arpRequest(0, worker(1).ip);
    const out = sw.process(request, 2);
    expect(out.map((p) => p.port)).toEqual([1, 3, 4]);
    for (const p of out) expect(p.bytes.equals(request)).toBe(true);
  });

  it('routes by the longest prefix: next-hop MAC, source MAC, TTL − 1, checksum right', () => {
    for (const [dst, port] of [['10.1.9.9', 4], ['10.1.2.3', 5]] as const) {
      const out = sw.process(udpFrame(SWITCH_MAC, dst, 9), 1);
      expect(out.map((p) => p.port)).toEqual([port]);
      const frame = parseUdpFrame(out[0]!.bytes);
      if (!frame.ok) throw new Error(frame.message);
      expect([frame.ethernet.dstMac, frame.ethernet.srcMac, frame.ipv4.ttl]).toEqual([ROUTER_MAC, SWITCH_MAC, 8]);
    }
  });

  it('bridges what no route covers, byte for byte', () => {
    const frame = udpFrame(worker(2).mac, '10.0.0.3');
    const out = sw.process(frame, 1);
    expect(out.map((p) => p.port)).toEqual([3]);
    expect(out[0]!.bytes.equals(frame)).toBe(true);
  });

  it('drops and counts: TTL expiring, an unknown MAC, a bad IPv4 checksum', () => {
    expect(sw.process(udpFrame(SWITCH_MAC, '10.1.2.3', 1), 1)).toEqual([]);
    expect(sw.process(udpFrame(macFromText('02:00:00:00:00:99'), '10.0.0.99'), 1)).toEqual([]);
    const corrupt = udpFrame(worker(2).mac, '10.0.0.3');
    corrupt[24] = corrupt[24]! ^ 0xff;
    expect(sw.process(corrupt, 1)).toEqual([]);
    expect(sw.counter(DROPS)).toEqual([0, 1, 1, 1]);
  });
});

describe('switchml.p4 and SwitchML traffic for someone else', () => {
  it('forwards a SwitchML update addressed to another IP as ordinary traffic', () => {
    const sw = configured(SWITCHML_P4);
    installJob(sw, { jobId: 7, slotBase: 0, poolSize: 2, workers: [0, 1], group: 5 });
    const update = updateFrame({ worker: 0, tsi: 0, dstIp: ipv4FromText('10.0.0.3') }, 64);
    update.writeUIntBE(worker(2).mac, 0, 6);
    const out = sw.process(update, 1);
    expect(out.map((p) => p.port)).toEqual([3]);
    expect(out[0]!.bytes.equals(update)).toBe(true);
    expect(sw.counter('ingress.switchml.switchml_outcomes')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('aggregates nothing before the controller sets the switch address', () => {
    const sw = configured(SWITCHML_P4);
    sw.defaults.clear();
    installJob(sw, { jobId: 7, slotBase: 0, poolSize: 2, workers: [0], group: 5 });
    expect(sw.process(updateFrame({ worker: 0, tsi: 0 }, 64), 1)).toEqual([]);
    expect(sw.counter(DROPS)[Drop.L2_MISS]).toBe(1);
    expect(sw.process(arpRequest(0, SWITCH_IP), 1).map((p) => p.port)).toEqual([2, 3, 4]);
  });
});
