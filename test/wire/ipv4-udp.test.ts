import { describe, expect, test } from 'vitest';
import {
  Ecn,
  internetChecksum,
  IP_PROTOCOL_UDP,
  ipv4ChecksumValid,
  parseIpv4,
  parseUdp,
  udpChecksum,
  udpChecksumValid,
  WireErrorCode,
  writeIpv4,
  writeUdp,
  writeUdpChecksum,
  type Ipv4Fields,
} from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';

describe('IPv4', () => {
  test('known answer: the header of a 115-byte UDP datagram 192.168.0.1 → 192.168.0.199 has checksum b861', () => {
    const buf = Buffer.alloc(20);
    writeIpv4(buf, 0, { srcIp: 0xc0a80001, dstIp: 0xc0a800c7, protocol: IP_PROTOCOL_UDP, payloadLength: 115 - 20 });
    expect(buf.toString('hex')).toBe('45000073000040004011b861c0a80001c0a800c7');
    expect(ipv4ChecksumValid(buf, 0, 20)).toBe(true);
  });

  test('DSCP, ECN, TTL, identification and fragment fields land in their bits', () => {
    const buf = Buffer.alloc(20);
    writeIpv4(buf, 0, {
      srcIp: 1,
      dstIp: 2,
      protocol: 6,
      payloadLength: 0,
      ttl: 1,
      dscp: 46,
      ecn: Ecn.CE,
      identification: 0xabcd,
      dontFragment: false,
      moreFragments: true,
      fragmentOffset: 0x1234,
    });
    expect(buf[1]).toBe((46 << 2) | 3);
    expect(buf.readUInt16BE(4)).toBe(0xabcd);
    expect(buf.readUInt16BE(6)).toBe(0x2000 | 0x1234);
    expect(buf[8]).toBe(1);
    expect(parseIpv4(buf)).toMatchObject({ ok: true, dscp: 46, ecn: 3, ttl: 1, identification: 0xabcd, dontFragment: false, moreFragments: true, fragmentOffset: 0x1234 });
  });

  test('options are written, counted in IHL and skipped by the parser', () => {
    const options = Buffer.from('94040000' + '01010100', 'hex'); // router alert, NOPs, end
    const buf = Buffer.alloc(28 + 4);
    const payloadAt = writeIpv4(buf, 0, { srcIp: 0x0a000001, dstIp: 0x0a000002, protocol: 17, payloadLength: 4, options });
    expect(payloadAt).toBe(28);
    expect(buf[0]).toBe(0x47);
    const parsed = parseIpv4(buf);
    expect(parsed).toMatchObject({ ok: true, headerLength: 28, payloadOffset: 28, payloadLength: 4, totalLength: 32 });
  });

  test('seeded round trips, with trailing Ethernet padding after the total length', () => {
    const rng = new SeededRandom('wire-ipv4-header');
    const buf = Buffer.alloc(200);
    for (let i = 0; i < 300; i++) {
      const optionWords = rng.nextInt(11);
      const options = Buffer.alloc(optionWords * 4);
      for (let b = 0; b < options.length; b++) options[b] = rng.nextInt(256);
      const fields: Required<Ipv4Fields> = {
        srcIp: rng.nextUint32(),
        dstIp: rng.nextUint32(),
        protocol: rng.nextInt(256),
        payloadLength: rng.nextInt(60),
        ttl: rng.nextInt(256),
        dscp: rng.nextInt(64),
        ecn: rng.nextInt(4),
        identification: rng.nextInt(0x10000),
        dontFragment: rng.chance(0.5),
        moreFragments: rng.chance(0.5),
        fragmentOffset: rng.nextInt(0x2000),
        options,
      };
      const offset = rng.nextInt(8);
      const payloadAt = writeIpv4(buf, offset, fields);
      const headerLength = 20 + options.length;
      expect(payloadAt).toBe(offset + headerLength);
      const parsed = parseIpv4(buf, offset, payloadAt + fields.payloadLength + rng.nextInt(10));
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      const { options: _options, ...rest } = fields;
      expect(parsed).toEqual({
        ok: true,
        ...rest,
        totalLength: headerLength + fields.payloadLength,
        checksum: internetChecksum(Buffer.concat([buf.subarray(offset, offset + 10), Buffer.alloc(2), buf.subarray(offset + 12, payloadAt)]), 0, headerLength),
        headerLength,
        payloadOffset: payloadAt,
        payloadLength: fields.payloadLength,
      });
    }
  });

  const good = (): Buffer => {
    const buf = Buffer.alloc(30);
    writeIpv4(buf, 0, { srcIp: 0x0a000001, dstIp: 0x0a000002, protocol: 17, payloadLength: 10 });
    return buf;
  };

  test('every malformed header is a typed error with the right code and offset', () => {
    expect(parseIpv4(good().subarray(0, 19))).toMatchObject({ ok: false, code: WireErrorCode.IPV4_TRUNCATED, offset: 0 });

    const v6 = good();
    v6[0] = 0x65;
    expect(parseIpv4(v6)).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_VERSION });

    const shortIhl = good();
    shortIhl[0] = 0x44;
    expect(parseIpv4(shortIhl)).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_IHL });

    const longIhl = good();
    longIhl[0] = 0x4f; // 60-byte header in a 30-byte packet
    expect(parseIpv4(longIhl)).toMatchObject({ ok: false, code: WireErrorCode.IPV4_TRUNCATED });

    const tooLong = good();
    tooLong.writeUInt16BE(31, 2);
    expect(parseIpv4(tooLong, 0, 30, { verifyChecksum: false })).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_TOTAL_LENGTH, offset: 2 });

    const tooShort = good();
    tooShort.writeUInt16BE(19, 2);
    expect(parseIpv4(tooShort, 0, 30, { verifyChecksum: false })).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_TOTAL_LENGTH });

    const corrupt = good();
    corrupt[8] ^= 0x01; // TTL changed without fixing the checksum
    expect(parseIpv4(corrupt)).toMatchObject({ ok: false, code: WireErrorCode.IPV4_BAD_CHECKSUM, offset: 10 });
    expect(parseIpv4(corrupt, 0, 30, { verifyChecksum: false })).toMatchObject({ ok: true, ttl: 65 });
  });

  test('programming errors throw RangeError', () => {
    const fields: Ipv4Fields = { srcIp: 1, dstIp: 2, protocol: 17, payloadLength: 0 };
    expect(() => writeIpv4(Buffer.alloc(19), 0, fields)).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(20), 1, fields)).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(24), 0, { ...fields, options: Buffer.alloc(3) })).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(64), 0, { ...fields, options: Buffer.alloc(44) })).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(20), 0, { ...fields, ttl: 256 })).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(20), 0, { ...fields, dscp: 64 })).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(20), 0, { ...fields, ecn: 4 })).toThrow(RangeError);
    expect(() => writeIpv4(Buffer.alloc(20), 0, { ...fields, payloadLength: 65516 })).toThrow(RangeError);
    expect(() => parseIpv4(Buffer.alloc(20), 0, 21)).toThrow(RangeError);
  });
});

describe('UDP', () => {
  // Worked by hand: pseudo-header 0a00+0001+0a00+0002+0011+000a = 141e;
  // header 04d2+162e+000a+0000 = 1b0a; payload "hi" = 6869;
  // 141e+1b0a+6869 = 9791, no carry; checksum = ~9791 = 686e.
  test('known answer: 10.0.0.1:1234 → 10.0.0.2:5678 carrying "hi" has checksum 686e', () => {
    const buf = Buffer.alloc(10);
    const payloadAt = writeUdp(buf, 0, { srcPort: 1234, dstPort: 5678, payloadLength: 2 });
    buf.write('hi', payloadAt, 'latin1');
    writeUdpChecksum(buf, 0, 0x0a000001, 0x0a000002);
    expect(buf.toString('hex')).toBe('04d2162e000a686e6869');
    expect(udpChecksumValid(buf, 0, 10, 0x0a000001, 0x0a000002)).toBe(true);
    expect(udpChecksumValid(buf, 0, 10, 0x0a000001, 0x0a000003)).toBe(false);
  });

  test('a computed checksum of 0 is sent as ffff; a zero field means none', () => {
    // Choose the payload word so that the sum is ffff and the complement 0.
    const buf = Buffer.alloc(10);
    writeUdp(buf, 0, { srcPort: 1234, dstPort: 5678, payloadLength: 2 });
    buf.writeUInt16BE(0xffff - 0x141e - 0x1b0a, 8);
    expect(udpChecksum(buf, 0, 0x0a000001, 0x0a000002)).toBe(0xffff);
    writeUdpChecksum(buf, 0, 0x0a000001, 0x0a000002);
    expect(buf.readUInt16BE(6)).toBe(0xffff);
    expect(udpChecksumValid(buf, 0, 10, 0x0a000001, 0x0a000002)).toBe(true);
    buf.writeUInt16BE(0, 6);
    expect(udpChecksumValid(buf, 0, 10, 1, 2)).toBe(true);
  });

  test('an odd-length payload is padded with zero for the checksum', () => {
    const buf = Buffer.alloc(9);
    writeUdp(buf, 0, { srcPort: 1, dstPort: 2, payloadLength: 1 });
    buf[8] = 0xab;
    writeUdpChecksum(buf, 0, 0, 0);
    // 0011 (protocol) + 0009 (length) + 0001 + 0002 + 0009 + ab00 = ab26 → 54d9
    expect(buf.readUInt16BE(6)).toBe(0x54d9);
  });

  test('seeded round trips', () => {
    const rng = new SeededRandom('wire-udp');
    const buf = Buffer.alloc(100);
    for (let i = 0; i < 200; i++) {
      const fields = { srcPort: rng.nextInt(0x10000), dstPort: rng.nextInt(0x10000), payloadLength: rng.nextInt(80) };
      const offset = rng.nextInt(8);
      const payloadAt = writeUdp(buf, offset, fields);
      for (let b = 0; b < fields.payloadLength; b++) buf[payloadAt + b] = rng.nextInt(256);
      const srcIp = rng.nextUint32();
      const dstIp = rng.nextUint32();
      writeUdpChecksum(buf, offset, srcIp, dstIp);
      const parsed = parseUdp(buf, offset, payloadAt + fields.payloadLength);
      expect(parsed).toMatchObject({ ok: true, ...fields, length: 8 + fields.payloadLength, payloadOffset: payloadAt });
      expect(udpChecksumValid(buf, offset, 8 + fields.payloadLength, srcIp, dstIp)).toBe(true);
    }
  });

  test('malformed headers are typed errors', () => {
    expect(parseUdp(Buffer.alloc(7))).toMatchObject({ ok: false, code: WireErrorCode.UDP_TRUNCATED });
    const short = Buffer.from('0001000200070000', 'hex');
    expect(parseUdp(short)).toMatchObject({ ok: false, code: WireErrorCode.UDP_BAD_LENGTH, offset: 4 });
    const long = Buffer.from('00010002000a0000ff', 'hex');
    expect(parseUdp(long)).toMatchObject({ ok: false, code: WireErrorCode.UDP_BAD_LENGTH });
  });

  test('programming errors throw RangeError', () => {
    expect(() => writeUdp(Buffer.alloc(7), 0, { srcPort: 1, dstPort: 2, payloadLength: 0 })).toThrow(RangeError);
    expect(() => writeUdp(Buffer.alloc(8), 0, { srcPort: 65536, dstPort: 2, payloadLength: 0 })).toThrow(RangeError);
    expect(() => writeUdp(Buffer.alloc(8), 0, { srcPort: 1, dstPort: 2, payloadLength: 65528 })).toThrow(RangeError);
    const buf = Buffer.alloc(8);
    writeUdp(buf, 0, { srcPort: 1, dstPort: 2, payloadLength: 4 });
    expect(() => writeUdpChecksum(buf, 0, 1, 2)).toThrow(RangeError);
  });
});
