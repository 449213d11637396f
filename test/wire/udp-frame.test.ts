import { describe, expect, test } from 'vitest';
import {
  buildUdpFrame,
  decodeSwitchMl,
  toWireFormatError,
  WireFormatError,
  encodeSwitchMl,
  ipv4FromText,
  macFromText,
  MAX_UDP_PAYLOAD,
  parseUdpFrame,
  SWITCHML_PORTS,
  SwitchMlMessageType,
  udpFrameOverhead,
  WireErrorCode,
  type UdpFlow,
} from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';

const flow: UdpFlow = {
  srcMac: macFromText('02:00:00:00:00:01'),
  dstMac: macFromText('02:00:00:00:00:fe'),
  srcIp: ipv4FromText('10.0.0.1'),
  dstIp: ipv4FromText('10.0.0.254'),
  srcPort: 40000,
  dstPort: SWITCHML_PORTS.first,
};

/**
 * The same frame built by Python's struct module with an independent checksum
 * routine (the script is in the comment below), so this checks our layout and
 * both checksums against another implementation:
 *
 *   payload = pack('!BBHIHHbB', 0x11, 3, 7, 0x01020304, 0x8005, 4, -3, 9) + pack('!4i', 1, -1, 2**31-1, -2**31)
 *   udp = pack('!HHHH', 40000, 0xBEE0, 8 + len(payload), 0) + payload     # then checksum over pseudo-header
 *   ip = pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0, src, dst)  # then checksum
 *   eth = dst_mac + src_mac + pack('!H', 0x0800)
 */
const PYTHON_FRAME =
  '0200000000fe02000000000108004500003a00004000401125b50a0000010a0000fe9c40bee00026fd5d' +
  '110300070102030480050004fd0900000001ffffffff7fffffff80000000';

const switchMlPayload = (buf: Buffer, offset: number): number =>
  encodeSwitchMl(buf, offset, {
    messageType: SwitchMlMessageType.UPDATE,
    workerId: 3,
    jobId: 7,
    tsi: 0x01020304,
    slot: 5,
    set: 1,
    elementCount: 4,
    exponent: -3,
    epoch: 9,
    values: Int32Array.of(1, -1, 0x7fffffff, -0x80000000),
  }) - offset;

describe('buildUdpFrame', () => {
  test('matches the bytes Python struct produced for the same SwitchML update', () => {
    const buf = Buffer.alloc(1500);
    const length = buildUdpFrame(buf, 0, flow, switchMlPayload);
    expect(buf.subarray(0, length).toString('hex')).toBe(PYTHON_FRAME);
  });

  test('reusing one buffer: the second frame overwrites the first exactly', () => {
    const buf = Buffer.alloc(1500, 0xee);
    buildUdpFrame(buf, 0, { ...flow, ttl: 3, dscp: 10, ecn: 1 }, Buffer.from('a much longer payload than the next one'));
    const length = buildUdpFrame(buf, 0, flow, switchMlPayload);
    expect(buf.subarray(0, length).toString('hex')).toBe(PYTHON_FRAME);
  });

  test('a payload given as bytes, at an offset, with a VLAN tag and no UDP checksum', () => {
    const buf = Buffer.alloc(100);
    const length = buildUdpFrame(buf, 5, { ...flow, vlan: { pcp: 3, dei: false, vid: 42 }, udpChecksum: false, ttl: 7, dscp: 46, ecn: 3, identification: 99 }, Buffer.from('hello'));
    expect(length).toBe(udpFrameOverhead({ pcp: 3, dei: false, vid: 42 }) + 5);
    const frame = parseUdpFrame(buf, 5, 5 + length);
    expect(frame.ok).toBe(true);
    if (!frame.ok) return;
    expect(frame.ethernet.vlan).toEqual({ pcp: 3, dei: false, vid: 42 });
    expect(frame.ipv4).toMatchObject({ ttl: 7, dscp: 46, ecn: 3, identification: 99, dontFragment: true, srcIp: flow.srcIp, dstIp: flow.dstIp });
    expect(frame.udp).toMatchObject({ srcPort: 40000, dstPort: SWITCHML_PORTS.first, checksum: 0 });
    expect(buf.toString('latin1', frame.payloadOffset, frame.payloadOffset + frame.payloadLength)).toBe('hello');
  });

  test('seeded round trips of random flows and payloads', () => {
    const rng = new SeededRandom('wire-udp-frame');
    const buf = Buffer.alloc(600);
    for (let i = 0; i < 200; i++) {
      const f: UdpFlow = {
        srcMac: rng.nextInt(0x10000) * 2 ** 32 + rng.nextUint32(),
        dstMac: rng.nextInt(0x10000) * 2 ** 32 + rng.nextUint32(),
        vlan: rng.chance(0.3) ? { pcp: rng.nextInt(8), dei: rng.chance(0.5), vid: rng.nextInt(4096) } : null,
        srcIp: rng.nextUint32(),
        dstIp: rng.nextUint32(),
        srcPort: rng.nextInt(0x10000),
        dstPort: rng.nextInt(0x10000),
        ttl: rng.nextInt(256),
        dscp: rng.nextInt(64),
        ecn: rng.nextInt(4),
        udpChecksum: rng.chance(0.8),
      };
      const payload = Buffer.alloc(rng.nextInt(500));
      for (let b = 0; b < payload.length; b++) payload[b] = rng.nextInt(256);
      const length = buildUdpFrame(buf, 0, f, payload);
      // Trailing bytes after the frame (Ethernet padding, a reused buffer) are ignored.
      const frame = parseUdpFrame(buf, 0, Math.min(buf.length, length + rng.nextInt(20)));
      expect(frame.ok).toBe(true);
      if (!frame.ok) continue;
      expect(frame.ethernet).toMatchObject({ srcMac: f.srcMac, dstMac: f.dstMac, vlan: f.vlan });
      expect(frame.ipv4).toMatchObject({ srcIp: f.srcIp, dstIp: f.dstIp, ttl: f.ttl, dscp: f.dscp, ecn: f.ecn });
      expect(frame.udp).toMatchObject({ srcPort: f.srcPort, dstPort: f.dstPort });
      expect(Buffer.compare(buf.subarray(frame.payloadOffset, frame.payloadOffset + frame.payloadLength), payload)).toBe(0);
    }
  });

  test('programming errors throw RangeError: no room for headers or payload, a lying writer', () => {
    expect(() => buildUdpFrame(Buffer.alloc(41), 0, flow, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => buildUdpFrame(Buffer.alloc(50), 0, flow, Buffer.alloc(9))).toThrow(RangeError);
    expect(() => buildUdpFrame(Buffer.alloc(50), 0, flow, () => 9)).toThrow(RangeError);
    expect(() => buildUdpFrame(Buffer.alloc(50), 0, flow, () => -1)).toThrow(RangeError);
    expect(() => buildUdpFrame(Buffer.alloc(70_000), 0, flow, Buffer.alloc(MAX_UDP_PAYLOAD + 1))).toThrow(RangeError);
    expect(buildUdpFrame(Buffer.alloc(70_000), 0, flow, Buffer.alloc(MAX_UDP_PAYLOAD))).toBe(42 + MAX_UDP_PAYLOAD);
  });
});

describe('parseUdpFrame: every layer checked', () => {
  const frame = (): Buffer => Buffer.from(PYTHON_FRAME, 'hex');

  test('the Python frame parses, payload where the SwitchML header is', () => {
    const parsed = parseUdpFrame(frame());
    expect(parsed).toMatchObject({ ok: true, payloadOffset: 42, payloadLength: 30, udp: { length: 38 }, ipv4: { totalLength: 58 } });
  });

  test('the payload decodes as the SwitchML update it is, bounded by the UDP length', () => {
    const buf = Buffer.concat([frame(), Buffer.alloc(8)]); // trailing padding
    const parsed = parseUdpFrame(buf);
    if (!parsed.ok) throw new Error(parsed.message);
    const packet = decodeSwitchMl(buf, parsed.payloadOffset, parsed.payloadOffset + parsed.payloadLength);
    expect(packet).toMatchObject({ ok: true, messageType: SwitchMlMessageType.UPDATE, workerId: 3, jobId: 7, slot: 5, set: 1, exponent: -3, epoch: 9 });
    expect(packet.ok && Array.from(packet.values.toInt32Array())).toEqual([1, -1, 0x7fffffff, -0x80000000]);
  });

  test('a WireError converts to a thrown P4inaError with the same code', () => {
    const parsed = parseUdpFrame(frame().subarray(0, 10));
    if (parsed.ok) throw new Error('expected an error');
    const error = toWireFormatError(parsed);
    expect(error).toBeInstanceOf(WireFormatError);
    expect(error.code).toBe('ETH_TRUNCATED');
    expect(error.message).toContain('at byte 0');
  });

  test('errors from each layer come through with their codes', () => {
    expect(parseUdpFrame(frame().subarray(0, 10))).toMatchObject({ ok: false, code: WireErrorCode.ETH_TRUNCATED });

    const arp = frame();
    arp.writeUInt16BE(0x0806, 12);
    expect(parseUdpFrame(arp)).toMatchObject({ ok: false, code: WireErrorCode.FRAME_NOT_IPV4, offset: 12 });

    expect(parseUdpFrame(frame().subarray(0, 50))).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_TOTAL_LENGTH });

    const ttl = frame();
    ttl[22] = 63; // a router decremented TTL and forgot the checksum
    expect(parseUdpFrame(ttl)).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_CHECKSUM });

    const notUdp = frame();
    notUdp[23] = 6;
    expect(parseUdpFrame(notUdp, 0, notUdp.length, { verifyChecksums: false })).toMatchObject({ ok: false, code: WireErrorCode.FRAME_NOT_UDP, offset: 23 });

    const fragment = frame();
    fragment.writeUInt16BE(0x2000, 20);
    expect(parseUdpFrame(fragment, 0, fragment.length, { verifyChecksums: false })).toMatchObject({ ok: false, code: WireErrorCode.IPV4_FRAGMENT });

    const udpShorter = frame();
    udpShorter.writeUInt16BE(30, 38);
    expect(parseUdpFrame(udpShorter, 0, udpShorter.length, { verifyChecksums: false })).toMatchObject({ ok: false, code: WireErrorCode.UDP_BAD_LENGTH, offset: 38 });

    const udpLonger = frame();
    udpLonger.writeUInt16BE(39, 38);
    expect(parseUdpFrame(udpLonger, 0, udpLonger.length, { verifyChecksums: false })).toMatchObject({ ok: false, code: WireErrorCode.UDP_BAD_LENGTH });

    const tinyIp = frame();
    tinyIp.writeUInt16BE(20 + 7, 16); // room for only 7 bytes of UDP
    expect(parseUdpFrame(tinyIp, 0, tinyIp.length, { verifyChecksums: false })).toMatchObject({ ok: false, code: WireErrorCode.UDP_TRUNCATED });

    const flipped = frame();
    flipped[flipped.length - 1] ^= 0x01;
    expect(parseUdpFrame(flipped)).toMatchObject({ ok: false, code: WireErrorCode.UDP_BAD_CHECKSUM, offset: 40 });
    expect(parseUdpFrame(flipped, 0, flipped.length, { verifyChecksums: false })).toMatchObject({ ok: true });
  });
});
