import { describe, expect, test } from 'vitest';
import { decodeRina, encodeRina, RINA_HEADER_LENGTH, rinaLength, RinaMessageType, RinaPhase, WireErrorCode, type RinaFields } from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';
import { between, int32s } from './random-fields.js';

const sample: RinaFields = {
  messageType: RinaMessageType.RING_DATA,
  phase: RinaPhase.ALL_GATHER,
  jobId: 9,
  senderRank: 3,
  workerId: 0,
  exponent: -5,
  step: 2,
  segment: 1,
  chunk: 77,
  slot: 10,
  set: 0,
  elementCount: 2,
  values: [100, -100],
};

describe('Rina header', () => {
  test('known bytes', () => {
    const buf = Buffer.alloc(rinaLength(2));
    expect(encodeRina(buf, 0, sample)).toBe(28);
    expect(buf.toString('hex')).toBe('12' + '02' + '0009' + '0003' + '00' + 'fb' + '0002' + '0001' + '0000004d' + '000a' + '0002' + '00000064' + 'ffffff9c');
  });

  test('an ACK carries no values', () => {
    const buf = Buffer.alloc(RINA_HEADER_LENGTH);
    encodeRina(buf, 0, { ...sample, messageType: RinaMessageType.ACK, elementCount: 0, values: [] });
    expect(decodeRina(buf)).toMatchObject({ ok: true, messageType: RinaMessageType.ACK, elementCount: 0, byteLength: 20 });
  });

  test('seeded round trips', () => {
    const rng = new SeededRandom('wire-rina');
    const buf = Buffer.alloc(rinaLength(256) + 8);
    for (let i = 0; i < 300; i++) {
      const elementCount = rng.nextInt(257);
      const values = int32s(rng, elementCount);
      const fields = {
        messageType: between(rng, 1, 3) as RinaMessageType,
        phase: between(rng, 1, 2) as RinaPhase,
        jobId: rng.nextInt(0x10000),
        senderRank: rng.nextInt(0x10000),
        workerId: rng.nextInt(32),
        exponent: between(rng, -128, 127),
        step: rng.nextInt(0x10000),
        segment: rng.nextInt(0x10000),
        chunk: rng.nextUint32(),
        slot: rng.nextInt(0x8000),
        set: rng.nextInt(2) as 0 | 1,
        elementCount,
      };
      const offset = rng.nextInt(8);
      const end = encodeRina(buf, offset, { ...fields, values });
      const packet = decodeRina(buf, offset, end);
      expect(packet.ok).toBe(true);
      if (!packet.ok) continue;
      const { values: view, poolIndex, byteLength, ok: _ok, ...decoded } = packet;
      expect(decoded).toEqual(fields);
      expect(poolIndex).toBe(fields.set * 0x8000 + fields.slot);
      expect(byteLength).toBe(end - offset);
      expect(view.toInt32Array()).toEqual(values);
    }
  });

  test('every malformed packet is a typed error', () => {
    const good = Buffer.alloc(rinaLength(2));
    encodeRina(good, 0, sample);
    const with_ = (mutate: (b: Buffer) => void) => {
      const b = Buffer.from(good);
      mutate(b);
      return decodeRina(b);
    };
    expect(decodeRina(good, 0, 19)).toMatchObject({ ok: false, code: WireErrorCode.RINA_TRUNCATED });
    expect(decodeRina(good, 0, 27)).toMatchObject({ ok: false, code: WireErrorCode.RINA_TRUNCATED, offset: 18 });
    expect(decodeRina(Buffer.concat([good, Buffer.alloc(4)]))).toMatchObject({ ok: false, code: WireErrorCode.RINA_LENGTH_MISMATCH });
    expect(with_((b) => (b[0] = 0x02))).toMatchObject({ ok: false, code: WireErrorCode.RINA_BAD_VERSION });
    expect(with_((b) => (b[0] = 0x14))).toMatchObject({ ok: false, code: WireErrorCode.RINA_BAD_MESSAGE_TYPE });
    expect(with_((b) => (b[0] = 0x10))).toMatchObject({ ok: false, code: WireErrorCode.RINA_BAD_MESSAGE_TYPE });
    expect(with_((b) => (b[1] = 0))).toMatchObject({ ok: false, code: WireErrorCode.RINA_BAD_PHASE, offset: 1 });
    expect(with_((b) => (b[1] = 3))).toMatchObject({ ok: false, code: WireErrorCode.RINA_BAD_PHASE });
    expect(with_((b) => (b[6] = 32))).toMatchObject({ ok: false, code: WireErrorCode.RINA_BAD_WORKER_ID, offset: 6 });
  });

  test('encoding into a short buffer or with fields out of range throws RangeError', () => {
    expect(() => encodeRina(Buffer.alloc(27), 0, sample)).toThrow(RangeError);
    const buf = Buffer.alloc(64);
    for (const bad of [
      { messageType: 4 },
      { phase: 0 },
      { phase: 3 },
      { jobId: -1 },
      { senderRank: 0x10000 },
      { workerId: 32 },
      { exponent: 128 },
      { step: 0x10000 },
      { segment: 0x10000 },
      { chunk: 2 ** 32 },
      { slot: 0x8000 },
    ]) {
      expect(() => encodeRina(buf, 0, { ...sample, ...bad } as RinaFields)).toThrow(RangeError);
    }
  });
});
