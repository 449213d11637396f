import { describe, expect, it } from 'vitest';
import { BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import { readFloatsLE } from '../../../src/agent/baseline/float-bytes.js';
import { FrameDecoder } from '../../../src/agent/baseline/frame-decoder.js';
import { encodeBegin, encodeData, encodeError, encodeHello, maxBodyBytes, ROLE, type Frame } from '../../../src/agent/baseline/frame.js';

const decodeAll = (bytes: Buffer, max = maxBodyBytes(1024)): Frame[] => new FrameDecoder(max, 'test').push(bytes);

function malformedCode(bytes: Buffer, max = maxBodyBytes(1024)): string | undefined {
  try {
    decodeAll(bytes, max);
    return undefined;
  } catch (err) {
    return err instanceof BaselineError ? err.code : 'not a BaselineError';
  }
}

/** A frame with the given body, length prefix included. */
function frameOf(body: number[] | Buffer): Buffer {
  const b = Buffer.from(body);
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(b.length);
  return Buffer.concat([prefix, b]);
}

describe('frame round trips', () => {
  it('HELLO keeps every field, including a UTF-8 job id', () => {
    const bytes = encodeHello({ role: ROLE.psWorker, rank: 3, worldSize: 8, pieceElements: 4096, jobId: 'jöb-1' });
    expect(decodeAll(bytes)).toEqual([{ type: 'hello', version: 1, role: ROLE.psWorker, rank: 3, worldSize: 8, pieceElements: 4096, jobId: 'jöb-1' }]);
  });

  it('BEGIN has the documented 16-byte layout', () => {
    const bytes = encodeBegin(0x01020304, 1000003);
    expect(bytes.toString('hex')).toBe('0000000c' + '02000000' + '01020304' + '000f4243');
    expect(decodeAll(bytes)).toEqual([{ type: 'begin', op: 0x01020304, elementCount: 1000003 }]);
  });

  it('DATA carries float32 little-endian after a big-endian header, and copies the values', () => {
    const values = new Float32Array([1.5, -2, 3.25]);
    const bytes = encodeData({ op: 7, step: 5, chunk: 2, offset: 9 }, values);
    values[0] = 99; // the frame must not change
    expect(bytes.subarray(0, 20).toString('hex')).toBe('0000001c' + '03' + '00' + '0005' + '00000007' + '00000002' + '00000009');
    expect(bytes.readFloatLE(20)).toBe(1.5);
    const [frame] = decodeAll(bytes);
    expect(frame).toMatchObject({ type: 'data', op: 7, step: 5, chunk: 2, offset: 9 });
    expect(Array.from(readFloatsLE((frame as Extract<Frame, { type: 'data' }>).payload))).toEqual([1.5, -2, 3.25]);
  });

  it('ERROR keeps code and message, and cuts a long message to what fits', () => {
    expect(decodeAll(encodeError('BASELINE_TIMEOUT', 'nothing moved'))).toEqual([{ type: 'error', code: 'BASELINE_TIMEOUT', message: 'nothing moved' }]);
    const [long] = decodeAll(encodeError('X', 'é'.repeat(5000)));
    expect(long).toMatchObject({ type: 'error', code: 'X' });
    const message = (long as Extract<Frame, { type: 'error' }>).message;
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(1024);
    expect(message).toMatch(/^é+$/);
  });

  it('reassembles frames split at every byte boundary and several frames in one chunk', () => {
    const stream = Buffer.concat([encodeBegin(1, 4), encodeData({ op: 1, step: 0, chunk: 0, offset: 0 }, new Float32Array([1, 2, 3, 4])), encodeError('E', 'm')]);
    const decoder = new FrameDecoder(maxBodyBytes(16), 'test');
    const frames: Frame[] = [];
    for (let i = 0; i < stream.length; i++) frames.push(...decoder.push(stream.subarray(i, i + 1)));
    expect(frames.map((f) => f.type)).toEqual(['begin', 'data', 'error']);
    expect(decoder.idle).toBe(true);
    expect(decodeAll(stream).map((f) => f.type)).toEqual(['begin', 'data', 'error']);
  });

  it('reads floats from an unaligned payload', () => {
    const bytes = Buffer.alloc(9);
    bytes.writeFloatLE(0.5, 1);
    bytes.writeFloatLE(-8, 5);
    expect(Array.from(readFloatsLE(bytes.subarray(1)))).toEqual([0.5, -8]);
  });
});

describe('malformed frames are typed errors', () => {
  it.each([
    ['a zero length', frameOf([])],
    ['a length beyond the limit', Buffer.from('7fffffff', 'hex')],
    ['an unknown type', frameOf([9, 0, 0, 0])],
    ['a short BEGIN', frameOf([2, 0, 0, 0, 0, 0, 0, 1])],
    ['a BEGIN with reserved bits', frameOf([2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1])],
    ['DATA without values', frameOf([3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
    ['DATA with a partial float', frameOf([3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3])],
    ['DATA with a reserved byte set', frameOf([3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])],
    ['a HELLO whose job id length disagrees', frameOf([1, 1, 1, 5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 65])],
    ['a HELLO with an empty job id', frameOf([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1])],
    ['a HELLO with an unknown role', frameOf([1, 1, 9, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 65])],
    ['a HELLO whose job id is not UTF-8', frameOf([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0xff])],
    ['an ERROR whose lengths disagree', frameOf([4, 3, 0, 1, 65])],
  ])('%s', (_what, bytes) => {
    expect(malformedCode(bytes)).toBe('BASELINE_MALFORMED_FRAME');
  });

  it('refuses an oversized length before buffering its body', () => {
    const decoder = new FrameDecoder(100, 'test');
    expect(() => decoder.push(Buffer.from('00000065', 'hex'))).toThrow(expect.objectContaining({ code: 'BASELINE_MALFORMED_FRAME' }));
  });
});
