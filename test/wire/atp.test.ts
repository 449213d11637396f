import { describe, expect, test } from 'vitest';
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtp, encodeAtpHeader, WireErrorCode, type AtpFields } from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';
import { int32s } from './random-fields.js';

const sample: AtpFields = {
  bitmap0: 0x00000005,
  bitmap1: 0x80000001,
  fanInDegree0: 3,
  fanInDegree1: 17,
  overflow: true,
  resend: false,
  collision: true,
  ecn: false,
  edgeSwitchIdentifier: 1,
  isAck: false,
  aggregatorIndex: 0x1234,
  jobId: 0x00ab,
  sequenceNumber: 0xcdef,
  elementCount: 2,
  values: Int32Array.of(7, -7),
};

describe('ATP header', () => {
  test('known bytes (bit fields cross-checked with Python: fan-ins 3 and 17, flags 101010 → 1c6a)', () => {
    const buf = Buffer.alloc(ATP_HEADER_LENGTH + 8);
    expect(encodeAtp(buf, 0, sample)).toBe(24);
    expect(buf.toString('hex')).toBe('00000005' + '80000001' + '1c6a' + '1234' + '00ab' + 'cdef' + '00000007' + 'fffffff9');
    const packet = decodeAtp(buf);
    expect(packet).toMatchObject({ ok: true, jobIdAndSequenceNumber: 0x00abcdef, byteLength: 24 });
  });

  test('each flag is its own bit', () => {
    const flags = ['overflow', 'resend', 'collision', 'ecn', 'edgeSwitchIdentifier', 'isAck'] as const;
    const buf = Buffer.alloc(ATP_HEADER_LENGTH);
    const none = { ...sample, fanInDegree0: 0, fanInDegree1: 0, overflow: false, collision: false, edgeSwitchIdentifier: 0 as const, elementCount: 0 };
    flags.forEach((flag, i) => {
      encodeAtpHeader(buf, 0, { ...none, [flag]: flag === 'edgeSwitchIdentifier' ? 1 : true });
      expect(buf.readUInt16BE(8)).toBe(0x20 >>> i);
    });
  });

  test('seeded round trips; the value count comes from the length', () => {
    const rng = new SeededRandom('wire-atp');
    const buf = Buffer.alloc(ATP_HEADER_LENGTH + 4 * 62 + 8);
    for (let i = 0; i < 300; i++) {
      const elementCount = rng.chance(0.5) ? 62 : rng.nextInt(63);
      const values = int32s(rng, elementCount);
      const fields = {
        bitmap0: rng.nextUint32(),
        bitmap1: rng.nextUint32(),
        fanInDegree0: rng.nextInt(32),
        fanInDegree1: rng.nextInt(32),
        overflow: rng.chance(0.5),
        resend: rng.chance(0.5),
        collision: rng.chance(0.5),
        ecn: rng.chance(0.5),
        edgeSwitchIdentifier: rng.nextInt(2) as 0 | 1,
        isAck: rng.chance(0.5),
        aggregatorIndex: rng.nextInt(0x10000),
        jobId: rng.nextInt(0x10000),
        sequenceNumber: rng.nextInt(0x10000),
        elementCount,
      };
      const offset = rng.nextInt(8);
      const end = encodeAtp(buf, offset, { ...fields, values });
      const packet = decodeAtp(buf, offset, end);
      expect(packet.ok).toBe(true);
      if (!packet.ok) continue;
      const { values: view, byteLength, jobIdAndSequenceNumber, ok: _ok, ...decoded } = packet;
      expect(decoded).toEqual(fields);
      expect(jobIdAndSequenceNumber).toBe(fields.jobId * 0x10000 + fields.sequenceNumber);
      expect(byteLength).toBe(end - offset);
      expect(view.toInt32Array()).toEqual(values);
    }
  });

  test('overflow packets carry raw float32s, readable through the same view', () => {
    const buf = Buffer.alloc(ATP_HEADER_LENGTH + 4);
    encodeAtpHeader(buf, 0, { ...sample, elementCount: 1 });
    buf.writeFloatBE(-300.25, ATP_HEADER_LENGTH);
    const packet = decodeAtp(buf);
    expect(packet.ok && packet.overflow && packet.values.getFloat32(0)).toBe(-300.25);
  });

  test('malformed packets are typed errors', () => {
    expect(decodeAtp(Buffer.alloc(15))).toMatchObject({ ok: false, code: WireErrorCode.ATP_TRUNCATED });
    expect(decodeAtp(Buffer.alloc(16 + 6))).toMatchObject({ ok: false, code: WireErrorCode.ATP_LENGTH_MISMATCH, offset: 16 });
    expect(decodeAtp(Buffer.alloc(16))).toMatchObject({ ok: true, elementCount: 0 });
  });

  test('encoding into a short buffer or with fields out of range throws RangeError', () => {
    expect(() => encodeAtp(Buffer.alloc(23), 0, sample)).toThrow(RangeError);
    const buf = Buffer.alloc(64);
    for (const bad of [
      { bitmap0: 2 ** 32 },
      { bitmap1: -1 },
      { fanInDegree0: 32 },
      { fanInDegree1: 32 },
      { edgeSwitchIdentifier: 2 },
      { aggregatorIndex: 0x10000 },
      { jobId: 0x10000 },
      { sequenceNumber: 0x10000 },
    ]) {
      expect(() => encodeAtp(buf, 0, { ...sample, ...bad } as AtpFields)).toThrow(RangeError);
    }
  });
});
