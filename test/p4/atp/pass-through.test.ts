// What atp.p4 does not aggregate, and forwards byte for byte as it came
// (docs/atp.md rule 1 and the malformed cases of docs/p4-programs.md): overflow,
// another value count, truncated and malformed contributions, ATP of jobs
// without an entry, and ordinary traffic (forward.p4's forwarding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, insert, table } from '../../../src/p4runtime/index.js';
import { ArpOperation, arpReplyTo, buildArpFrame, buildUdpFrame, ipv4FromText, ipv4ToText, macFromText, macToText, parseUdpFrame, type ArpPacket } from '../../../src/wire/index.js';
import { AtpRig, Outcome } from './support/atp-rig.js';
import { PS, SWITCH_IP, SWITCH_MAC, atpFrame, bits, contribution, worker, type AtpFrameSpec } from './support/atp-network.js';

const N = 8;
const POOL = 64;

let rig: AtpRig;
beforeAll(async () => {
  rig = await AtpRig.start([`ATP_VALUES=${N}`, `ATP_AGGREGATORS=${POOL}`]);
  await rig.settings(1000, 0);
  await rig.addLevel0Job({ jobId: 1, group: 1, workers: [worker(0), worker(1), worker(2)] });
});
afterAll(async () => rig.close());

const contributionOf = (w: number, extra: Partial<AtpFrameSpec> = {}): AtpFrameSpec => ({
  from: worker(w), to: PS, jobId: 1, sequenceNumber: 3, aggregatorIndex: 4, bitmap0: bits(w), bitmap1: 1, fanInDegree0: 3, fanInDegree1: 1,
  values: contribution(w, 3, N), ...extra,
});

/** Sends `frame` from worker 0's port and expects it on the PS's port, unchanged, with `outcome` counted once more. */
async function passesUnchanged(frame: Buffer, outcome: number): Promise<void> {
  const before = (await rig.counter('ingress.atp.atp_outcomes'))[outcome] ?? 0;
  expect(rig.send(1, frame).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[PS.switchPort, frame.toString('hex')]]);
  expect((await rig.counter('ingress.atp.atp_outcomes'))[outcome]).toBe(before + 1);
}

describe('contributions that go on to the PS unaggregated', () => {
  it.each([
    ['overflow (float32 values)', Outcome.OVERFLOW, contributionOf(0, { overflow: true })],
    ['fewer values than ATP_VALUES', Outcome.BAD_LENGTH, contributionOf(0, { values: contribution(0, 3, N - 1) })],
    ['more values than ATP_VALUES', Outcome.BAD_LENGTH, contributionOf(0, { values: contribution(0, 3, N + 8) })],
    ['no bit', Outcome.MALFORMED, contributionOf(0, { bitmap0: 0 })],
    ['two bits', Outcome.MALFORMED, contributionOf(0, { bitmap0: bits(0, 5) })],
    ['fan-in 0', Outcome.MALFORMED, contributionOf(0, { fanInDegree0: 0 })],
    ['an index past the pool', Outcome.MALFORMED, contributionOf(0, { aggregatorIndex: POOL })],
    ['a malformed resend', Outcome.MALFORMED, contributionOf(0, { bitmap0: 0, resend: true })],
  ])('%s', async (_name, outcome, spec) => {
    await passesUnchanged(atpFrame(spec), outcome);
    expect((await rig.aggregator(4)).owner).toBe(0);
  });

  it('a truncated packet (UDP and IPv4 lengths claim values that are missing)', async () => {
    const whole = atpFrame(contributionOf(0));
    const cut = Buffer.from(whole.subarray(0, whole.length - 4));
    await passesUnchanged(cut, Outcome.BAD_LENGTH);
    expect((await rig.aggregator(4)).owner).toBe(0);
  });

  it('a new bit for an aggregate already complete (more contributors than the fan-in)', async () => {
    for (const w of [0, 1]) rig.send(worker(w).switchPort, atpFrame(contributionOf(w, { sequenceNumber: 9, aggregatorIndex: 10, fanInDegree0: 2 })));
    const held = await rig.aggregator(10, N);
    await passesUnchanged(atpFrame(contributionOf(2, { sequenceNumber: 9, aggregatorIndex: 10, fanInDegree0: 2 })), Outcome.MALFORMED);
    expect(await rig.aggregator(10, N)).toEqual(held);
  });
});

describe('a switch without an entry for the job', () => {
  it.each([
    ['a contribution', contributionOf(0, { jobId: 2 })],
    ['a level-1 contribution', contributionOf(0, { jobId: 2, edgeSwitchIdentifier: 1 })],
    ['a resend', contributionOf(0, { jobId: 2, resend: true })],
  ])('forwards %s as plain IPv4 and counts it', async (_name, spec) => {
    await passesUnchanged(atpFrame(spec), Outcome.NO_JOB);
  });

  it('forwards an ACK as plain IPv4, unicast to its destination', async () => {
    const frame = atpFrame({ from: PS, to: worker(2), isAck: true, jobId: 2, values: contribution(0, 0, N) });
    expect(rig.send(PS.switchPort, frame).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[3, frame.toString('hex')]]);
  });
});

describe('ordinary traffic, as forward.p4 forwards it', () => {
  it('bridges UDP to another port unchanged', () => {
    const buf = Buffer.alloc(200);
    const n = buildUdpFrame(buf, 0, { srcMac: worker(1).mac, dstMac: worker(4).mac, srcIp: worker(1).ip, dstIp: worker(4).ip, srcPort: 5000, dstPort: 0xbee0, ecn: 2 }, Buffer.from('hello, not ATP'));
    const frame = Buffer.from(buf.subarray(0, n));
    expect(rig.send(2, frame).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[5, frame.toString('hex')]]);
  });

  it('answers ARP for the switch address', () => {
    const arp = (packet: ArpPacket): Buffer => {
      const buf = Buffer.alloc(64);
      return Buffer.from(buf.subarray(0, buildArpFrame(buf, 0, packet)));
    };
    const request: ArpPacket = { operation: ArpOperation.REQUEST, senderMac: worker(0).mac, senderIp: worker(0).ip, targetMac: 0, targetIp: SWITCH_IP };
    expect(rig.send(1, arp(request)).map((f) => [f.port, f.frame.toString('hex')])).toEqual([[1, arp(arpReplyTo(request, SWITCH_MAC)).toString('hex')]]);
  });

  it('routes IPv4 by ipv4_routes (next hop MAC, TTL − 1), ATP of a job without an entry included', async () => {
    await rig.write([insert(table('ingress.forwarding.ipv4_routes', { dst_addr: '10.7.0.0/16' }, action('ingress.forwarding.route', { next_hop_mac: macToText(PS.mac), port: PS.switchPort })))]);
    const far = { ...PS, ip: ipv4FromText('10.7.0.9'), mac: SWITCH_MAC };
    const [out] = rig.send(1, atpFrame({ ...contributionOf(0, { jobId: 5 }), to: far }));
    const frame = parseUdpFrame(out!.frame);
    if (!frame.ok) throw new Error(frame.message);
    expect([out!.port, frame.ethernet.dstMac, frame.ethernet.srcMac, frame.ipv4.ttl, ipv4ToText(frame.ipv4.dstIp)]).toEqual([PS.switchPort, PS.mac, SWITCH_MAC, 63, '10.7.0.9']);
  });

  it('drops an ATP packet with a bad IPv4 checksum before it reaches an aggregator', async () => {
    const frame = atpFrame(contributionOf(0, { aggregatorIndex: 11 }));
    frame[24] = frame[24]! ^ 0xff;
    expect(rig.send(1, frame)).toEqual([]);
    expect((await rig.counter('ingress.forwarding.forwarding_drops'))[1]).toBe(1);
    expect((await rig.aggregator(11)).owner).toBe(0);
  });

  it('drops what it has no L2 entry for', () => {
    const frame = atpFrame({ ...contributionOf(0, { jobId: 9 }), to: { ...PS, mac: macFromText('02:00:00:00:77:77') } });
    expect(rig.send(1, frame)).toEqual([]);
  });
});
