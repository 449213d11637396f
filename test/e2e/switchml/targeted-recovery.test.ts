// Targeted recovery through the real switch. (1) An update crafted by hand for
// a slot copy whose round is complete, put on a worker's wire, is answered by
// the switch with the stored result: a RETRANSMITTED_RESULT unicast back to
// the sender, checked byte by byte (the update's own values are ignored).
// (2) One RESULT lost on its way down to one worker (the relay drops exactly
// that frame) is recovered: the worker retransmits its update, the switch
// answers with the stored result, and every worker's result is exact.
import { afterEach, describe, expect, test } from 'vitest';
import {
  buildUdpFrame,
  decodeSwitchMl,
  encodeSwitchMl,
  encodeSwitchMlHeader,
  ipv4FromText,
  macFromText,
  parseUdpFrame,
  SWITCHML_PORTS,
  switchMlLength,
  SwitchMlMessageType,
  type SwitchMlPacket,
  udpFrameOverhead,
} from '../../../src/wire/index.js';
import { expectExact, seededTensors } from './support/exact-results.js';
import { ELEMENTS, programCache, SWITCH, type E2eHost } from './support/network.js';
import { SwitchMlRig } from './support/rig.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

interface Seen {
  readonly host: string;
  readonly direction: 'up' | 'down';
  readonly frame: Buffer;
  readonly packet: SwitchMlPacket;
}

function switchMlOf(frame: Buffer): SwitchMlPacket | undefined {
  const udp = parseUdpFrame(frame, 0, frame.length, { verifyChecksums: false });
  if (!udp.ok) return undefined;
  const p = decodeSwitchMl(frame, udp.payloadOffset, udp.payloadOffset + udp.payloadLength);
  return p.ok ? p : undefined;
}

/** The frame h sends for an update (what its UDP-wire transport builds, with UDP checksums). */
function updateFrame(h: E2eHost, fields: { jobId: number; workerId: number; tsi: number; slot: number; set: 0 | 1; exponent: number; epoch: number; fill: number }): Buffer {
  const frame = Buffer.alloc(udpFrameOverhead() + switchMlLength(ELEMENTS));
  const flow = { srcMac: macFromText(h.mac), dstMac: SWITCH.macNumber, srcIp: ipv4FromText(h.ip), dstIp: SWITCH.ipNumber, srcPort: h.udpPort, dstPort: SWITCHML_PORTS.first };
  const values = new Array<number>(ELEMENTS).fill(fields.fill);
  const length = buildUdpFrame(frame, 0, flow, (buf, at) => encodeSwitchMl(buf, at, { ...fields, messageType: SwitchMlMessageType.UPDATE, elementCount: ELEMENTS, values }) - at);
  return frame.subarray(0, length);
}

describe('SwitchML recovery through the real switch', () => {
  test('a retransmission to a complete slot copy gets the stored result, byte by byte', async () => {
    const frames: Seen[] = [];
    const { rig, installer } = await SwitchMlRig.start(2, programs, {
      intercept: (host, frame, direction) => {
        const packet = switchMlOf(frame);
        if (packet) frames.push({ host: host.name, direction, frame: Buffer.from(frame), packet });
        return true;
      },
    });
    rigs.push(rig);
    const [h1, h2] = rig.hosts as [E2eHost, E2eHost];
    const spec = rig.job(21, [h1, h2], 4);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, [h1, h2]);
    // 4 chunks and a pool of 4: packets 0..7; packet 7 went into slot 3, set 1.
    const tensors = seededTensors(2, 3 * 64 + 5, 'crafted');
    expectExact((await fleet.allreduce(tensors)).results, tensors);
    const result7 = frames.find((f) => f.host === 'h1' && f.direction === 'down' && f.packet.tsi === 7 && f.packet.messageType === SwitchMlMessageType.RESULT);
    expect(result7?.packet).toMatchObject({ messageType: SwitchMlMessageType.RESULT, tsi: 7, slot: 3, set: 1 });
    const stored = result7!.packet;

    // Let late answers to any spurious retransmission of the call drain first (bounded).
    for (let quiet = 0, last = frames.length, turns = 0; quiet < 20 && turns < 500; turns++) {
      await new Promise((r) => setTimeout(r, 10));
      quiet = frames.length === last ? quiet + 1 : 0;
      last = frames.length;
    }
    const crafted = updateFrame(h1, { jobId: 21, workerId: 0, tsi: 7, slot: 3, set: 1, exponent: 5, epoch: 0, fill: 0x01020304 });
    const before = frames.length;
    rig.wires.relayOf(h1).inject(crafted, 'up');
    const deadline = Date.now() + 10_000;
    while (frames.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const replies = frames.slice(before);
    expect(replies.map((f) => [f.host, f.direction, f.packet.messageType, f.packet.tsi])).toEqual([['h1', 'down', SwitchMlMessageType.RETRANSMITTED_RESULT, 7]]);

    // Expected, field by field (docs/p4-programs.md §3): back to h1's MAC, IP and port, from the
    // switch's, TTL 64, UDP checksum 0, type 3, the stored exponent and sums, the sender's worker id.
    const expected = Buffer.alloc(crafted.length);
    const flow = { srcMac: SWITCH.macNumber, dstMac: macFromText(h1.mac), srcIp: SWITCH.ipNumber, dstIp: ipv4FromText(h1.ip), srcPort: SWITCHML_PORTS.first, dstPort: h1.udpPort, ttl: 64, udpChecksum: false };
    buildUdpFrame(expected, 0, flow, (buf, at) => {
      const valuesAt = encodeSwitchMlHeader(buf, at, { messageType: SwitchMlMessageType.RETRANSMITTED_RESULT, jobId: 21, workerId: 0, tsi: 7, slot: 3, set: 1, elementCount: ELEMENTS, exponent: stored.exponent, epoch: 0 });
      stored.values.toInt32Array().forEach((v, i) => buf.writeInt32BE(v, valuesAt + 4 * i));
      return switchMlLength(ELEMENTS);
    });
    expect(replies[0]!.frame.toString('hex')).toBe(expected.toString('hex'));
    // The same bytes as the RESULT h1 got for packet 7, but for the type and the worker id.
    const asResult = Buffer.from(result7!.frame);
    const payloadAt = udpFrameOverhead();
    asResult[payloadAt] = (1 << 4) | SwitchMlMessageType.RETRANSMITTED_RESULT;
    asResult[payloadAt + 1] = 0;
    expect(replies[0]!.frame.toString('hex')).toBe(asResult.toString('hex'));
  }, 120_000);

  test('a RESULT lost on the way down to one worker is recovered', async () => {
    const LOST_TSI = 2;
    let dropped = 0;
    const toH2: SwitchMlPacket[] = [];
    const { rig, installer } = await SwitchMlRig.start(3, programs, {
      intercept: (host, frame, direction) => {
        if (host.name !== 'h2' || direction !== 'down') return true;
        const packet = switchMlOf(frame);
        if (!packet) return true;
        if (packet.messageType === SwitchMlMessageType.RESULT && packet.tsi === LOST_TSI && dropped === 0) {
          dropped++;
          return false;
        }
        toH2.push(packet);
        return true;
      },
    });
    rigs.push(rig);
    const members = rig.hosts;
    const spec = rig.job(22, members, 4);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, members);
    const tensors = seededTensors(3, 20 * 64 + 3, 'lost-result');
    const outcome = await fleet.allreduce(tensors);
    expectExact(outcome.results, tensors);
    expect(dropped).toBe(1);
    expect(rig.wires.relayOf(members[1]!).counters.intercepted).toBe(1);
    // h2 (worker 1) timed out, retransmitted, and took the switch's stored result.
    expect(outcome.stats[1]!.retransmissions).toBeGreaterThanOrEqual(1);
    expect(outcome.stats[1]!.retransmittedResults).toBeGreaterThanOrEqual(1);
    expect(toH2.some((p) => p.messageType === SwitchMlMessageType.RETRANSMITTED_RESULT && p.tsi === LOST_TSI)).toBe(true);
  }, 120_000);
});
