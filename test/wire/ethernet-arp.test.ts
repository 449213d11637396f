import { describe, expect, test } from 'vitest';
import {
  ArpOperation,
  arpReplyTo,
  BROADCAST_MAC,
  buildArpFrame,
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  macFromText,
  ipv4FromText,
  parseArp,
  parseEthernet,
  WireErrorCode,
  writeArp,
  writeEthernet,
  ZERO_MAC,
  type ArpPacket,
  type VlanTag,
} from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';

const mac = (rng: SeededRandom): number => rng.nextInt(0x10000) * 0x1_0000_0000 + rng.nextUint32();

describe('Ethernet II', () => {
  test('known bytes, untagged', () => {
    const buf = Buffer.alloc(14);
    const end = writeEthernet(buf, 0, { dstMac: macFromText('02:00:00:00:00:fe'), srcMac: macFromText('02:00:00:00:00:01'), etherType: ETHERTYPE_IPV4 });
    expect(end).toBe(14);
    expect(buf.toString('hex')).toBe('0200000000fe' + '020000000001' + '0800');
  });

  test('known bytes, with an 802.1Q tag (PCP 5, DEI, VID 0x123)', () => {
    const buf = Buffer.alloc(18);
    writeEthernet(buf, 0, { dstMac: 1, srcMac: 2, etherType: ETHERTYPE_ARP, vlan: { pcp: 5, dei: true, vid: 0x123 } });
    expect(buf.toString('hex')).toBe('000000000001' + '000000000002' + '8100' + 'b123' + '0806');
    const parsed = parseEthernet(buf);
    expect(parsed).toMatchObject({ ok: true, etherType: ETHERTYPE_ARP, vlan: { pcp: 5, dei: true, vid: 0x123 }, headerLength: 18, payloadOffset: 18 });
  });

  test('seeded round trips at an offset, with and without a tag', () => {
    const rng = new SeededRandom('wire-ethernet');
    const buf = Buffer.alloc(40);
    for (let i = 0; i < 300; i++) {
      const vlan: VlanTag | null = rng.chance(0.5) ? { pcp: rng.nextInt(8), dei: rng.chance(0.5), vid: rng.nextInt(4096) } : null;
      const fields = { dstMac: mac(rng), srcMac: mac(rng), etherType: 0x0600 + rng.nextInt(0x10000 - 0x0600), vlan };
      if (fields.etherType === 0x8100) fields.etherType = 0x0800;
      const offset = rng.nextInt(10);
      const end = writeEthernet(buf, offset, fields);
      const parsed = parseEthernet(buf, offset);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed).toEqual({ ok: true, ...fields, headerLength: end - offset, payloadOffset: end });
    }
  });

  test('malformed frames are typed errors', () => {
    expect(parseEthernet(Buffer.alloc(13))).toMatchObject({ ok: false, code: WireErrorCode.ETH_TRUNCATED, offset: 0 });
    const tagged = Buffer.from('000000000001000000000002' + '8100' + '0001', 'hex');
    expect(parseEthernet(tagged)).toMatchObject({ ok: false, code: WireErrorCode.ETH_TRUNCATED });
    const llc = Buffer.from('000000000001000000000002' + '05dc', 'hex');
    expect(parseEthernet(llc)).toMatchObject({ ok: false, code: WireErrorCode.ETH_NOT_ETHERNET_II, offset: 12 });
    // `end` bounds the frame even when the buffer is longer.
    expect(parseEthernet(Buffer.alloc(64), 0, 10)).toMatchObject({ ok: false, code: WireErrorCode.ETH_TRUNCATED });
  });

  test('programming errors throw RangeError: short buffer, bad fields, bad offsets', () => {
    expect(() => writeEthernet(Buffer.alloc(13), 0, { dstMac: 1, srcMac: 2, etherType: 0x800 })).toThrow(RangeError);
    expect(() => writeEthernet(Buffer.alloc(17), 0, { dstMac: 1, srcMac: 2, etherType: 0x800, vlan: { pcp: 0, dei: false, vid: 1 } })).toThrow(RangeError);
    expect(() => writeEthernet(Buffer.alloc(14), 0, { dstMac: 1, srcMac: 2, etherType: 0x05dc })).toThrow(RangeError);
    expect(() => writeEthernet(Buffer.alloc(18), 0, { dstMac: 1, srcMac: 2, etherType: 0x800, vlan: { pcp: 8, dei: false, vid: 1 } })).toThrow(RangeError);
    expect(() => writeEthernet(Buffer.alloc(18), 0, { dstMac: 1, srcMac: 2, etherType: 0x800, vlan: { pcp: 0, dei: false, vid: 4096 } })).toThrow(RangeError);
    expect(() => parseEthernet(Buffer.alloc(14), -1)).toThrow(RangeError);
    expect(() => parseEthernet(Buffer.alloc(14), 0, 15)).toThrow(RangeError);
  });
});

describe('ARP', () => {
  const request: ArpPacket = {
    operation: ArpOperation.REQUEST,
    senderMac: macFromText('02:00:00:00:00:01'),
    senderIp: ipv4FromText('10.0.0.1'),
    targetMac: ZERO_MAC,
    targetIp: ipv4FromText('10.0.0.254'),
  };

  test('a request frame: known bytes (broadcast, 28-byte body)', () => {
    const buf = Buffer.alloc(42);
    expect(buildArpFrame(buf, 0, request)).toBe(42);
    expect(buf.toString('hex')).toBe(
      'ffffffffffff' + '020000000001' + '0806' + '0001' + '0800' + '06' + '04' + '0001' + '020000000001' + '0a000001' + '000000000000' + '0a0000fe',
    );
    const eth = parseEthernet(buf);
    expect(eth).toMatchObject({ ok: true, dstMac: BROADCAST_MAC, etherType: ETHERTYPE_ARP });
    expect(parseArp(buf, 14)).toEqual({ ok: true, ...request });
  });

  test('the reply swaps the roles and goes back by unicast', () => {
    const ownMac = macFromText('02:00:00:00:00:fe');
    const reply = arpReplyTo(request, ownMac);
    expect(reply).toEqual({ operation: ArpOperation.REPLY, senderMac: ownMac, senderIp: request.targetIp, targetMac: request.senderMac, targetIp: request.senderIp });
    const buf = Buffer.alloc(60);
    const length = buildArpFrame(buf, 0, reply, { pcp: 0, dei: false, vid: 7 });
    expect(length).toBe(46);
    const eth = parseEthernet(buf);
    expect(eth).toMatchObject({ ok: true, dstMac: request.senderMac, srcMac: ownMac, vlan: { vid: 7 } });
    // Trailing padding to the 60-byte minimum is accepted.
    expect(parseArp(buf, 18)).toEqual({ ok: true, ...reply });
  });

  test('seeded round trips', () => {
    const rng = new SeededRandom('wire-arp');
    const buf = Buffer.alloc(32);
    for (let i = 0; i < 200; i++) {
      const arp: ArpPacket = {
        operation: rng.chance(0.5) ? ArpOperation.REQUEST : ArpOperation.REPLY,
        senderMac: mac(rng),
        senderIp: rng.nextUint32(),
        targetMac: mac(rng),
        targetIp: rng.nextUint32(),
      };
      const offset = rng.nextInt(4);
      expect(writeArp(buf, offset, arp)).toBe(offset + 28);
      expect(parseArp(buf, offset)).toEqual({ ok: true, ...arp });
    }
  });

  test('malformed packets are typed errors', () => {
    const buf = Buffer.alloc(28);
    writeArp(buf, 0, request);
    expect(parseArp(buf.subarray(0, 27))).toMatchObject({ ok: false, code: WireErrorCode.ARP_TRUNCATED });
    const other = Buffer.from(buf);
    other.writeUInt16BE(6, 0); // IEEE 802 hardware type
    expect(parseArp(other)).toMatchObject({ ok: false, code: WireErrorCode.ARP_UNSUPPORTED });
    const ipv6 = Buffer.from(buf);
    ipv6[5] = 16;
    expect(parseArp(ipv6)).toMatchObject({ ok: false, code: WireErrorCode.ARP_UNSUPPORTED });
    const rarp = Buffer.from(buf);
    rarp.writeUInt16BE(3, 6);
    expect(parseArp(rarp)).toMatchObject({ ok: false, code: WireErrorCode.ARP_BAD_OPERATION, offset: 6 });
  });

  test('programming errors throw RangeError', () => {
    expect(() => writeArp(Buffer.alloc(27), 0, request)).toThrow(RangeError);
    expect(() => buildArpFrame(Buffer.alloc(41), 0, request)).toThrow(RangeError);
    expect(() => writeArp(Buffer.alloc(28), 0, { ...request, operation: 3 as ArpOperation })).toThrow(RangeError);
  });
});
