// PacketOut validation against the packet_out controller header, and PacketIn building.
import { describe, expect, it } from 'vitest';
import { P4Schema } from '../../../src/p4info/schema.js';
import { buildPacketIn } from '../../../src/switch/runtime/packet-in.js';
import { checkPacketOut } from '../../../src/switch/runtime/packet-out.js';
import { buildP4Info, kitchenSinkP4Info } from '../../helpers/p4info-builder.js';

const schema = new P4Schema(kitchenSinkP4Info());
const packetOut = schema.packetHeader('packet_out')!;
const packetIn = schema.packetHeader('packet_in')!;
const payload = Buffer.from('frame');
const meta = (id: number, ...bytes: number[]) => ({ metadata_id: id, value: Buffer.from(bytes) });

describe('checkPacketOut', () => {
  it('accepts one entry per field, canonicalizing padded values, and names the fields', () => {
    const check = checkPacketOut(packetOut, { payload, metadata: [meta(2, 0), meta(1, 0x00, 0x01, 0x05)] });
    expect(check).toEqual({ ok: true, metadata: new Map([['egress_port', Buffer.from([0x01, 0x05])], ['_pad', Buffer.from([0])]]) });
  });

  it.each([
    ['a missing field', [meta(1, 3)], /lacks metadata _pad \(id 2\)/],
    ['a field given twice', [meta(1, 3), meta(1, 4), meta(2, 0)], /egress_port \(id 1\) is given twice/],
    ['an unknown id', [meta(1, 3), meta(2, 0), meta(9, 1)], /metadata id 9 is not a field of packet_out/],
    ['a value wider than the field', [meta(1, 0x02, 0x00), meta(2, 0)], /does not fit its 9 bits/],
    ['an empty value', [meta(1), meta(2, 0)], /empty bytestring/],
  ])('refuses %s', (_what, metadata, message) => {
    const check = checkPacketOut(packetOut, { payload, metadata });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toMatch(message);
  });

  it('takes no metadata when the program has no packet_out header', () => {
    const bare = new P4Schema(buildP4Info({ actions: [{ name: 'NoAction' }] }));
    expect(checkPacketOut(bare.packetHeader('packet_out'), { payload, metadata: [] })).toEqual({ ok: true, metadata: new Map() });
    expect(checkPacketOut(bare.packetHeader('packet_out'), { payload, metadata: [meta(1, 1)] }).ok).toBe(false);
  });
});

describe('buildPacketIn', () => {
  it('orders metadata by field id and makes values canonical, by id or by name', () => {
    const packet = buildPacketIn(packetIn, payload, new Map<number | string, Uint8Array>([['_pad', Buffer.from([0, 0])], [1, Buffer.from([0, 7])]]));
    expect(packet).toEqual({ payload, metadata: [{ metadata_id: 1, value: Buffer.from([7]) }, { metadata_id: 2, value: Buffer.from([0]) }] });
  });

  it('throws RangeError for fields the header does not have or lacks', () => {
    expect(() => buildPacketIn(packetIn, payload, new Map([['nope', Buffer.from([1])]]))).toThrow(RangeError);
    expect(() => buildPacketIn(packetIn, payload, new Map([[1, Buffer.from([1])]]))).toThrow(/lacks _pad/);
    expect(() => buildPacketIn(packetIn, payload, new Map([[1, Buffer.from([4, 0])], [2, Buffer.from([0])]]))).toThrow(RangeError);
  });
});
