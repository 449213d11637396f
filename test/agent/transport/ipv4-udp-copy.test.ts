/**
 * Sorting raw IPv4 copies of UDP datagrams. The packets are written here
 * byte by byte from RFC 791 and RFC 768 (not with src/wire), so the
 * classifier is checked against the layouts themselves.
 */
import { describe, expect, test } from 'vitest';
import { classifyUdpCopy, UdpCopyVerdict, type UdpCopy } from '../../../src/agent/transport/ipv4-udp-copy.js';

const OWN_IP = 0x7f00_0001; // 127.0.0.1
const OWN_PORT = 48_897;

interface PacketSpec {
  version?: number;
  ihlWords?: number;
  tos?: number;
  flagsFragment?: number;
  protocol?: number;
  dst?: readonly [number, number, number, number];
  dstPort?: number;
  payload?: readonly number[];
  /** Overrides of the computed lengths, and bytes after the datagram. */
  totalLength?: number;
  udpLength?: number;
  trailing?: number;
}

/** An IPv4 packet carrying a UDP datagram, laid out as RFC 791 §3.1 and RFC 768 draw them. */
function packet(spec: PacketSpec = {}): Buffer {
  const ihl = spec.ihlWords ?? 5;
  const payload = spec.payload ?? [0xa1, 0xa2, 0xa3];
  const udpLength = spec.udpLength ?? 8 + payload.length;
  const totalLength = spec.totalLength ?? ihl * 4 + 8 + payload.length;
  const bytes = [
    ((spec.version ?? 4) << 4) | ihl,
    spec.tos ?? 0,
    totalLength >> 8,
    totalLength & 0xff,
    0x12, 0x34, // identification
    (spec.flagsFragment ?? 0x4000) >> 8, // DF, offset 0
    (spec.flagsFragment ?? 0x4000) & 0xff,
    64, // TTL
    spec.protocol ?? 17,
    0, 0, // header checksum: the kernel checked it; the classifier does not look
    10, 0, 0, 9, // source
    ...(spec.dst ?? [127, 0, 0, 1]),
    ...Array<number>(Math.max(0, ihl - 5) * 4).fill(1), // options: NOPs
    0xc0, 0x00, // source port
    (spec.dstPort ?? OWN_PORT) >> 8,
    (spec.dstPort ?? OWN_PORT) & 0xff,
    udpLength >> 8,
    udpLength & 0xff,
    0, 0, // UDP checksum: none
    ...payload,
    ...Array<number>(spec.trailing ?? 0).fill(0xee),
  ];
  return Buffer.from(bytes);
}

function classify(buf: Buffer, filter = { ip: OWN_IP, port: OWN_PORT }, length = buf.length): { verdict: number; copy: UdpCopy } {
  const copy: UdpCopy = { ecn: -1, payloadOffset: -1, payloadLength: -1 };
  return { verdict: classifyUdpCopy(buf, length, filter, copy), copy };
}

describe('raw IPv4 copies of UDP datagrams', () => {
  test('a CE-marked datagram to our address and port: its ECN and where its payload is', () => {
    const buf = packet({ tos: 0b1011_1011 }); // DSCP 46, ECN 3
    const { verdict, copy } = classify(buf);
    expect(verdict).toBe(UdpCopyVerdict.forUs);
    expect(copy).toEqual({ ecn: 3, payloadOffset: 28, payloadLength: 3 });
    expect([...buf.subarray(copy.payloadOffset, copy.payloadOffset + copy.payloadLength)]).toEqual([0xa1, 0xa2, 0xa3]);
  });

  test.each([
    [0, 'Not-ECT'],
    [1, 'ECT(1)'],
    [2, 'ECT(0)'],
  ])('ECN %i (%s) is reported as it is', (ecn) => {
    expect(classify(packet({ tos: ecn })).copy.ecn).toBe(ecn);
  });

  test('IPv4 options move the UDP header: the payload starts after IHL × 4 + 8 bytes', () => {
    const { verdict, copy } = classify(packet({ ihlWords: 7, tos: 3 }));
    expect(verdict).toBe(UdpCopyVerdict.forUs);
    expect(copy).toEqual({ ecn: 3, payloadOffset: 36, payloadLength: 3 });
  });

  test('bytes after the IPv4 total length are not payload; a UDP length short of the IP payload bounds it', () => {
    expect(classify(packet({ trailing: 6 })).copy).toMatchObject({ payloadOffset: 28, payloadLength: 3 });
    expect(classify(packet({ udpLength: 9 })).copy).toMatchObject({ payloadOffset: 28, payloadLength: 1 });
    expect(classify(packet({ payload: [] })).copy).toMatchObject({ payloadOffset: 28, payloadLength: 0 });
  });

  test('another port, another address, another protocol, IPv6: not ours', () => {
    expect(classify(packet({ dstPort: OWN_PORT + 1, tos: 3 })).verdict).toBe(UdpCopyVerdict.other);
    expect(classify(packet({ dst: [127, 0, 0, 2], tos: 3 })).verdict).toBe(UdpCopyVerdict.other);
    expect(classify(packet({ protocol: 6 })).verdict).toBe(UdpCopyVerdict.other);
    // An IPv6 header (version 6; a raw IPv4 socket never delivers one, but the classifier must not read it as IPv4).
    const v6 = Buffer.alloc(48);
    v6[0] = 0x60;
    expect(classify(v6).verdict).toBe(UdpCopyVerdict.other);
  });

  test('a filter address of 0 (the agent bound 0.0.0.0) keeps our port on any address', () => {
    expect(classify(packet({ dst: [10, 0, 1, 2] }), { ip: 0, port: OWN_PORT }).verdict).toBe(UdpCopyVerdict.forUs);
    expect(classify(packet({ dst: [10, 0, 1, 2], dstPort: 9 }), { ip: 0, port: OWN_PORT }).verdict).toBe(UdpCopyVerdict.other);
  });

  test('fragments are skipped: more fragments set, or an offset', () => {
    expect(classify(packet({ flagsFragment: 0x2000, tos: 3 })).verdict).toBe(UdpCopyVerdict.fragment);
    expect(classify(packet({ flagsFragment: 0x0001, tos: 3 })).verdict).toBe(UdpCopyVerdict.fragment);
    // DF alone is a whole datagram.
    expect(classify(packet({ flagsFragment: 0x4000 })).verdict).toBe(UdpCopyVerdict.forUs);
  });

  test.each([
    ['nothing', Buffer.alloc(0)],
    ['a truncated IPv4 header', packet().subarray(0, 12)],
    ['IHL below 5', packet({ ihlWords: 4 })],
    ['IHL past the packet', packet().subarray(0, 20).fill(0x4f, 0, 1)],
    ['a total length past the bytes read', packet({ totalLength: 200 })],
    ['a total length shorter than the header', packet({ totalLength: 16 })],
    ['no room for a UDP header', packet({ totalLength: 24 })],
    ['a UDP length below 8', packet({ udpLength: 7 })],
    ['a UDP length past the IP payload', packet({ udpLength: 40 })],
  ])('malformed: %s', (_what, buf) => {
    expect(classify(buf).verdict).toBe(UdpCopyVerdict.malformed);
  });

  test('the length read bounds the packet, and may not pass the buffer', () => {
    const buf = packet();
    expect(classify(buf, undefined, buf.length - 1).verdict).toBe(UdpCopyVerdict.malformed);
    expect(() => classify(buf, undefined, buf.length + 1)).toThrow(RangeError);
  });
});
