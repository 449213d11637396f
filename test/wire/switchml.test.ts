import { describe, expect, test } from 'vitest';
import {
  decodeSwitchMl,
  encodeSwitchMl,
  encodeSwitchMlHeader,
  EXPONENT_NONE,
  Int32BeView,
  SWITCHML_DEFAULT_ELEMENTS,
  SWITCHML_HEADER_LENGTH,
  switchMlLength,
  SwitchMlMessageType,
  WireErrorCode,
  type SwitchMlFields,
} from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';
import { between, int32s } from './random-fields.js';

const sample: SwitchMlFields = {
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
};

describe('SwitchML header', () => {
  test('known bytes: version 1 | update, worker 3, job 7, tsi, slot 5 in set 1, 4 values, exponent -3, epoch 9', () => {
    const buf = Buffer.alloc(switchMlLength(4));
    expect(encodeSwitchMl(buf, 0, sample)).toBe(30);
    expect(buf.toString('hex')).toBe('11' + '03' + '0007' + '01020304' + '8005' + '0004' + 'fd' + '09' + '00000001ffffffff7fffffff80000000');
  });

  test('decodes the known bytes, values in place', () => {
    const buf = Buffer.from('13' + '1f' + 'ffff' + 'ffffffff' + '7fff' + '0001' + '80' + 'ff' + 'fffffffe', 'hex');
    const packet = decodeSwitchMl(buf);
    expect(packet).toMatchObject({
      ok: true,
      messageType: SwitchMlMessageType.RETRANSMITTED_RESULT,
      workerId: 31,
      jobId: 0xffff,
      tsi: 0xffffffff,
      poolIndex: 0x7fff,
      slot: 0x7fff,
      set: 0,
      elementCount: 1,
      exponent: EXPONENT_NONE,
      epoch: 255,
      byteLength: 18,
    });
    if (packet.ok) expect(packet.values.get(0)).toBe(-2);
  });

  test('seeded round trips of every field, at random offsets, up to 256 values', () => {
    const rng = new SeededRandom('wire-switchml');
    const buf = Buffer.alloc(switchMlLength(256) + 16);
    for (let i = 0; i < 300; i++) {
      const elementCount = rng.chance(0.5) ? SWITCHML_DEFAULT_ELEMENTS : rng.nextInt(257);
      const values = int32s(rng, elementCount);
      const fields = {
        messageType: between(rng, 1, 3) as SwitchMlMessageType,
        workerId: rng.nextInt(32),
        jobId: rng.nextInt(0x10000),
        tsi: rng.nextUint32(),
        slot: rng.nextInt(0x8000),
        set: rng.nextInt(2) as 0 | 1,
        elementCount,
        exponent: between(rng, -128, 127),
        epoch: rng.nextInt(256),
      };
      const offset = rng.nextInt(16);
      const end = encodeSwitchMl(buf, offset, { ...fields, values });
      expect(end).toBe(offset + switchMlLength(elementCount));
      const packet = decodeSwitchMl(buf, offset, end);
      expect(packet.ok).toBe(true);
      if (!packet.ok) continue;
      const { values: view, poolIndex, byteLength, ok: _ok, ...decoded } = packet;
      expect(decoded).toEqual(fields);
      expect(poolIndex).toBe(fields.set * 0x8000 + fields.slot);
      expect(byteLength).toBe(end - offset);
      expect(view.toInt32Array()).toEqual(values);
    }
  });

  test('values straight from a tensor: an offset into it, zeros after its end', () => {
    const tensor = Int32Array.from({ length: 100 }, (_, i) => i - 50);
    const buf = Buffer.alloc(switchMlLength(64));
    encodeSwitchMl(buf, 0, { ...sample, elementCount: 64, values: tensor, valuesOffset: 64 });
    const packet = decodeSwitchMl(buf);
    if (!packet.ok) throw new Error(packet.message);
    const got = packet.values.toInt32Array();
    expect(Array.from(got.subarray(0, 36))).toEqual(Array.from(tensor.subarray(64)));
    expect(got.subarray(36).every((v) => v === 0)).toBe(true);
  });

  test('header-only encoding leaves the values to the caller, in place', () => {
    const buf = Buffer.alloc(switchMlLength(2));
    const at = encodeSwitchMlHeader(buf, 0, { ...sample, elementCount: 2 });
    expect(at).toBe(SWITCHML_HEADER_LENGTH);
    const view = new Int32BeView(buf, at, 2);
    view.set(0, 123);
    view.set(1, -456);
    const packet = decodeSwitchMl(buf);
    expect(packet.ok && Array.from(packet.values.toInt32Array())).toEqual([123, -456]);
  });

  test('every malformed packet is a typed error', () => {
    const good = Buffer.alloc(switchMlLength(4));
    encodeSwitchMl(good, 0, sample);
    const at = (mutate: (b: Buffer) => void, end?: number) => {
      const b = Buffer.from(good);
      mutate(b);
      return decodeSwitchMl(b, 0, end ?? b.length);
    };
    expect(decodeSwitchMl(good, 0, 13)).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_TRUNCATED, offset: 0 });
    expect(decodeSwitchMl(good, 0, 29)).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_TRUNCATED, offset: 10 });
    expect(decodeSwitchMl(Buffer.concat([good, Buffer.alloc(1)]))).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_LENGTH_MISMATCH });
    expect(at((b) => (b[0] = 0x21))).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_BAD_VERSION });
    expect(at((b) => (b[0] = 0x10))).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_BAD_MESSAGE_TYPE });
    expect(at((b) => (b[0] = 0x15))).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_BAD_MESSAGE_TYPE });
    expect(at((b) => (b[0] = 0x14))).toMatchObject({ ok: true, messageType: SwitchMlMessageType.RECOVERY_UPDATE });
    expect(at((b) => (b[1] = 32))).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_BAD_WORKER_ID, offset: 1 });
    expect(at((b) => b.writeUInt16BE(0xffff, 10))).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_TRUNCATED });
    // Offset into a larger buffer: the error offset is absolute.
    const shifted = Buffer.concat([Buffer.alloc(5), good]);
    shifted[6] = 40;
    expect(decodeSwitchMl(shifted, 5)).toMatchObject({ ok: false, code: WireErrorCode.SWITCHML_BAD_WORKER_ID, offset: 6 });
  });

  test('encoding into a short buffer or with fields out of range throws RangeError', () => {
    expect(() => encodeSwitchMl(Buffer.alloc(29), 0, sample)).toThrow(RangeError);
    expect(() => encodeSwitchMl(Buffer.alloc(30), 1, sample)).toThrow(RangeError);
    const buf = Buffer.alloc(100);
    for (const bad of [
      { workerId: 32 },
      { jobId: 0x10000 },
      { tsi: -1 },
      { slot: 0x8000 },
      { set: 2 },
      { exponent: 128 },
      { exponent: -129 },
      { epoch: 256 },
      { messageType: 0 },
      { messageType: 5 },
      { elementCount: 0x10000 },
    ]) {
      expect(() => encodeSwitchMl(buf, 0, { ...sample, ...bad } as SwitchMlFields)).toThrow(RangeError);
    }
    expect(() => decodeSwitchMl(buf, 0, 101)).toThrow(RangeError);
  });
});
