import { describe, expect, test } from 'vitest';
import {
  decodeOmniReduce,
  encodeOmniReduce,
  encodeOmniReduceHeader,
  Int32BeView,
  NEXT_TSI_NONE,
  OMNIREDUCE_HEADER_LENGTH,
  omniReduceLength,
  WireErrorCode,
  type OmniReduceFields,
} from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';
import { between, int32s } from './random-fields.js';

const sample: OmniReduceFields = { tsi: 256, slot: 3, set: 1, nextTsi: NEXT_TSI_NONE, exponent: -126, elementCount: 3, values: [1, 2, 3] };

describe('OmniReduce message', () => {
  test('known bytes: DPDK layout, exponent after the values', () => {
    const buf = Buffer.alloc(omniReduceLength(3));
    expect(encodeOmniReduce(buf, 0, sample)).toBe(24);
    expect(buf.toString('hex')).toBe('00000100' + '8003' + 'ffffffff' + '00000001' + '00000002' + '00000003' + 'ff82');
    expect(decodeOmniReduce(buf)).toMatchObject({ ok: true, tsi: 256, slot: 3, set: 1, poolIndex: 0x8003, nextTsi: NEXT_TSI_NONE, exponent: -126, elementCount: 3 });
  });

  test('seeded round trips; the block size comes from the length', () => {
    const rng = new SeededRandom('wire-omnireduce');
    const buf = Buffer.alloc(omniReduceLength(256) + 8);
    for (let i = 0; i < 300; i++) {
      const elementCount = rng.chance(0.5) ? 32 : rng.nextInt(257);
      const values = int32s(rng, elementCount);
      const fields = {
        tsi: rng.nextUint32(),
        slot: rng.nextInt(0x8000),
        set: rng.nextInt(2) as 0 | 1,
        nextTsi: rng.chance(0.1) ? NEXT_TSI_NONE : rng.nextUint32(),
        exponent: between(rng, -32768, 32767),
        elementCount,
      };
      const offset = rng.nextInt(8);
      const end = encodeOmniReduce(buf, offset, { ...fields, values });
      expect(end).toBe(offset + omniReduceLength(elementCount));
      const packet = decodeOmniReduce(buf, offset, end);
      expect(packet.ok).toBe(true);
      if (!packet.ok) continue;
      const { values: view, poolIndex: _pool, byteLength, ok: _ok, ...decoded } = packet;
      expect(decoded).toEqual(fields);
      expect(byteLength).toBe(end - offset);
      expect(view.toInt32Array()).toEqual(values);
    }
  });

  test('header-only encoding writes the exponent after the space left for the values', () => {
    const buf = Buffer.alloc(omniReduceLength(2));
    const at = encodeOmniReduceHeader(buf, 0, { ...sample, elementCount: 2, exponent: 5 });
    expect(at).toBe(OMNIREDUCE_HEADER_LENGTH);
    expect(buf.readInt16BE(18)).toBe(5);
    new Int32BeView(buf, at, 2).copyFrom([10, 20]);
    const packet = decodeOmniReduce(buf);
    expect(packet.ok && [packet.exponent, ...packet.values.toInt32Array()]).toEqual([5, 10, 20]);
  });

  test('malformed packets are typed errors', () => {
    expect(decodeOmniReduce(Buffer.alloc(11))).toMatchObject({ ok: false, code: WireErrorCode.OMNIREDUCE_TRUNCATED });
    expect(decodeOmniReduce(Buffer.alloc(12 + 3))).toMatchObject({ ok: false, code: WireErrorCode.OMNIREDUCE_LENGTH_MISMATCH, offset: 10 });
    expect(decodeOmniReduce(Buffer.alloc(12))).toMatchObject({ ok: true, elementCount: 0 });
  });

  test('encoding into a short buffer or with fields out of range throws RangeError', () => {
    expect(() => encodeOmniReduce(Buffer.alloc(23), 0, sample)).toThrow(RangeError);
    const buf = Buffer.alloc(64);
    for (const bad of [{ tsi: 2 ** 32 }, { nextTsi: -1 }, { slot: 0x8000 }, { exponent: 32768 }, { exponent: 0.5 }]) {
      expect(() => encodeOmniReduce(buf, 0, { ...sample, ...bad } as OmniReduceFields)).toThrow(RangeError);
    }
  });
});
