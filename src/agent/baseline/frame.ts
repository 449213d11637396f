/**
 * The frames of the TCP baselines. A TCP connection carries a sequence of
 * frames, each a big-endian u32 body length followed by the body; the body's
 * first byte is the frame type:
 *
 *   HELLO  1 | version u8 | role u8 | job id length u8 | rank u32 | world size u32
 *            | piece elements u32 | job id (UTF-8)                        16+len bytes
 *   BEGIN  2 | 0 0 0 | op u32 | element count u32                         12 bytes
 *   DATA   3 | 0 | step u16 | op u32 | chunk u32 | offset u32 | float32 LE…  16+4k bytes, k ≥ 1
 *   ERROR  4 | code length u8 | message length u16 | code (ASCII) | message (UTF-8)
 *
 * Header integers are big-endian like every p4ina wire format; the float32
 * payload is little-endian so that the usual hosts copy it without swapping.
 * `parseFrameBody` checks every field it can without knowing the protocol
 * state; a violation is a BaselineError with code BASELINE_MALFORMED_FRAME.
 */
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { writeFloatsLE } from './float-bytes.js';

export const FRAME_LENGTH_BYTES = 4;
export const PROTOCOL_VERSION = 1;
export const MAX_JOB_ID_BYTES = 64;
const MAX_ERROR_TEXT_BYTES = 1024;
const HELLO_FIXED_BYTES = 16;
const BEGIN_BYTES = 12;
export const DATA_HEADER_BYTES = 16;
const ERROR_FIXED_BYTES = 4;

export const FRAME_TYPE = { hello: 1, begin: 2, data: 3, error: 4 } as const;

/** Who is speaking in a HELLO (rack leader and member: hierarchical AllReduce inside a rack). */
export const ROLE = { ring: 1, psWorker: 2, psServer: 3, rackLeader: 4, rackMember: 5 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
const ROLES: ReadonlySet<number> = new Set(Object.values(ROLE));

/** The parameter server's DATA step numbers (a rack leader's too): a worker's contribution, and the sum sent back. */
export const PS_STEP = { contribution: 0, result: 1 } as const;

export interface HelloFrame {
  readonly type: 'hello';
  readonly version: number;
  readonly role: Role;
  readonly rank: number;
  readonly worldSize: number;
  readonly pieceElements: number;
  readonly jobId: string;
}

export interface BeginFrame {
  readonly type: 'begin';
  readonly op: number;
  readonly elementCount: number;
}

export interface DataFrame {
  readonly type: 'data';
  readonly op: number;
  readonly step: number;
  readonly chunk: number;
  /** Element offset of the first value (within the chunk for the ring, the tensor for the PS). */
  readonly offset: number;
  /** The values as little-endian float32 bytes; read with readFloatsLE. */
  readonly payload: Buffer;
}

export interface ErrorFrame {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
}

export type Frame = HelloFrame | BeginFrame | DataFrame | ErrorFrame;

/** The largest body a DATA frame of `pieceElements` values has. */
export function maxBodyBytes(pieceElements: number): number {
  return Math.max(DATA_HEADER_BYTES + 4 * pieceElements, HELLO_FIXED_BYTES + MAX_JOB_ID_BYTES, ERROR_FIXED_BYTES + 255 + MAX_ERROR_TEXT_BYTES);
}

function frameBuffer(bodyBytes: number, type: number): Buffer {
  const buf = Buffer.allocUnsafe(FRAME_LENGTH_BYTES + bodyBytes);
  buf.writeUInt32BE(bodyBytes, 0);
  buf.writeUInt8(type, FRAME_LENGTH_BYTES);
  return buf;
}

export function encodeHello(hello: Omit<HelloFrame, 'type' | 'version'>): Buffer {
  const job = Buffer.from(hello.jobId, 'utf8');
  if (job.length === 0 || job.length > MAX_JOB_ID_BYTES) {
    throw new RangeError(`a job id is 1..${MAX_JOB_ID_BYTES} bytes of UTF-8, got ${job.length}`);
  }
  const buf = frameBuffer(HELLO_FIXED_BYTES + job.length, FRAME_TYPE.hello);
  const b = FRAME_LENGTH_BYTES;
  buf.writeUInt8(PROTOCOL_VERSION, b + 1);
  buf.writeUInt8(hello.role, b + 2);
  buf.writeUInt8(job.length, b + 3);
  buf.writeUInt32BE(hello.rank, b + 4);
  buf.writeUInt32BE(hello.worldSize, b + 8);
  buf.writeUInt32BE(hello.pieceElements, b + 12);
  job.copy(buf, b + HELLO_FIXED_BYTES);
  return buf;
}

export function encodeBegin(op: number, elementCount: number): Buffer {
  const buf = frameBuffer(BEGIN_BYTES, FRAME_TYPE.begin);
  const b = FRAME_LENGTH_BYTES;
  buf.writeUInt8(0, b + 1);
  buf.writeUInt16BE(0, b + 2);
  buf.writeUInt32BE(op, b + 4);
  buf.writeUInt32BE(elementCount, b + 8);
  return buf;
}

/** A DATA frame carrying a copy of `values` (so the caller may change them afterwards). */
export function encodeData(header: Omit<DataFrame, 'type' | 'payload'>, values: Float32Array): Buffer {
  if (values.length === 0) throw new RangeError('a DATA frame carries at least one value');
  const buf = frameBuffer(DATA_HEADER_BYTES + 4 * values.length, FRAME_TYPE.data);
  const b = FRAME_LENGTH_BYTES;
  buf.writeUInt8(0, b + 1);
  buf.writeUInt16BE(header.step, b + 2);
  buf.writeUInt32BE(header.op, b + 4);
  buf.writeUInt32BE(header.chunk, b + 8);
  buf.writeUInt32BE(header.offset, b + 12);
  writeFloatsLE(values, buf, b + DATA_HEADER_BYTES);
  return buf;
}

/** An ERROR frame; code and message are cut to what the format holds. */
export function encodeError(code: string, message: string): Buffer {
  const codeBytes = Buffer.from(code.replace(/[^\x21-\x7e]/g, '?').slice(0, 255), 'ascii');
  // Cut by characters, not bytes, so that the text stays valid UTF-8; each pass shortens it.
  let shortened = message;
  while (Buffer.byteLength(shortened, 'utf8') > MAX_ERROR_TEXT_BYTES) shortened = shortened.slice(0, shortened.length - 64);
  const text = Buffer.from(shortened, 'utf8');
  const buf = frameBuffer(ERROR_FIXED_BYTES + codeBytes.length + text.length, FRAME_TYPE.error);
  const b = FRAME_LENGTH_BYTES;
  buf.writeUInt8(codeBytes.length, b + 1);
  buf.writeUInt16BE(text.length, b + 2);
  codeBytes.copy(buf, b + ERROR_FIXED_BYTES);
  text.copy(buf, b + ERROR_FIXED_BYTES + codeBytes.length);
  return buf;
}

function malformed(what: string): BaselineError {
  return new BaselineError(BASELINE_ERROR_CODES.malformedFrame, `malformed frame from ${what}`);
}

/** Decodes one frame body (without the length prefix). `from` names the sender for messages. */
export function parseFrameBody(body: Buffer, from: string): Frame {
  if (body.length < 1) throw malformed(`${from}: empty body`);
  const type = body.readUInt8(0);
  switch (type) {
    case FRAME_TYPE.hello:
      return parseHello(body, from);
    case FRAME_TYPE.begin:
      if (body.length !== BEGIN_BYTES) throw malformed(`${from}: BEGIN of ${body.length} bytes, expected ${BEGIN_BYTES}`);
      if (body.readUInt8(1) !== 0 || body.readUInt16BE(2) !== 0) throw malformed(`${from}: BEGIN with non-zero reserved bytes`);
      return { type: 'begin', op: body.readUInt32BE(4), elementCount: body.readUInt32BE(8) };
    case FRAME_TYPE.data: {
      const payloadBytes = body.length - DATA_HEADER_BYTES;
      if (payloadBytes <= 0 || payloadBytes % 4 !== 0) {
        throw malformed(`${from}: DATA of ${body.length} bytes (need a ${DATA_HEADER_BYTES}-byte header and a whole, non-zero number of float32)`);
      }
      if (body.readUInt8(1) !== 0) throw malformed(`${from}: DATA with a non-zero reserved byte`);
      return {
        type: 'data',
        step: body.readUInt16BE(2),
        op: body.readUInt32BE(4),
        chunk: body.readUInt32BE(8),
        offset: body.readUInt32BE(12),
        payload: body.subarray(DATA_HEADER_BYTES),
      };
    }
    case FRAME_TYPE.error:
      return parseError(body, from);
    default:
      throw malformed(`${from}: unknown frame type ${type}`);
  }
}

function parseHello(body: Buffer, from: string): HelloFrame {
  if (body.length < HELLO_FIXED_BYTES) throw malformed(`${from}: HELLO of ${body.length} bytes`);
  const version = body.readUInt8(1);
  const role = body.readUInt8(2);
  const jobBytes = body.readUInt8(3);
  if (body.length !== HELLO_FIXED_BYTES + jobBytes) throw malformed(`${from}: HELLO length ${body.length} does not match its job id length ${jobBytes}`);
  if (jobBytes === 0 || jobBytes > MAX_JOB_ID_BYTES) throw malformed(`${from}: HELLO job id of ${jobBytes} bytes`);
  if (!ROLES.has(role)) throw malformed(`${from}: HELLO with unknown role ${role}`);
  const job = body.subarray(HELLO_FIXED_BYTES);
  const jobId = job.toString('utf8');
  if (!Buffer.from(jobId, 'utf8').equals(job)) throw malformed(`${from}: HELLO job id is not valid UTF-8`);
  return {
    type: 'hello',
    version,
    role: role as Role,
    rank: body.readUInt32BE(4),
    worldSize: body.readUInt32BE(8),
    pieceElements: body.readUInt32BE(12),
    jobId,
  };
}

function parseError(body: Buffer, from: string): ErrorFrame {
  if (body.length < ERROR_FIXED_BYTES) throw malformed(`${from}: ERROR of ${body.length} bytes`);
  const codeBytes = body.readUInt8(1);
  const textBytes = body.readUInt16BE(2);
  if (body.length !== ERROR_FIXED_BYTES + codeBytes + textBytes) throw malformed(`${from}: ERROR length does not match its fields`);
  const code = body.toString('ascii', ERROR_FIXED_BYTES, ERROR_FIXED_BYTES + codeBytes);
  const message = body.toString('utf8', ERROR_FIXED_BYTES + codeBytes);
  return { type: 'error', code, message };
}
