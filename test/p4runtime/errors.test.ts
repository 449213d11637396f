import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { encodeMessage, packAny } from '../../src/proto/codec.js';
import {
  action,
  decodeStatusDetails,
  insert,
  isElectionIdUsed,
  isNotFoundOnly,
  isNotPrimary,
  isPipelineMissing,
  multicastGroup,
  P4RuntimeError,
  P4WriteError,
  table,
  toP4RuntimeError,
  writeErrorFrom,
} from '../../src/p4runtime/index.js';

/** A grpc-js call error as a client sees it, with an optional details trailer. */
function serviceError(code: grpc.status, details: string, trailer?: Buffer): grpc.ServiceError {
  const metadata = new grpc.Metadata();
  if (trailer) metadata.set('grpc-status-details-bin', trailer);
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata });
}

function statusDetails(errors: { canonical_code: number; message?: string; space?: string; code?: number }[]): Buffer {
  return Buffer.from(encodeMessage('google.rpc.Status', { code: grpc.status.UNKNOWN, message: 'write failed', details: errors.map((e) => packAny('p4.v1.Error', e)) }));
}

const updates = [
  insert(table('ingress.l2', { dst_addr: 1 }, action('forward', { port: 1 }))),
  insert(table('ingress.l2', { dst_addr: 2 }, action('forward', { port: 1 }))),
  insert(multicastGroup(1, [{ port: 1 }])),
];

describe('per-update write errors', () => {
  it('maps each failed p4.v1.Error to the update the caller passed', () => {
    const trailer = statusDetails([
      { canonical_code: 0 },
      { canonical_code: grpc.status.ALREADY_EXISTS, message: 'entry exists', space: 'ALL-sswitch-p4org', code: 7 },
      { canonical_code: grpc.status.INVALID_ARGUMENT, message: 'bad port' },
    ]);
    const err = writeErrorFrom(serviceError(grpc.status.UNKNOWN, 'Write failure.', trailer), updates, 100);
    expect(err).toBeInstanceOf(P4WriteError);
    const w = err as P4WriteError;
    expect(w.code).toBe('P4RUNTIME_WRITE_FAILED');
    expect(w.grpcCodeName).toBe('UNKNOWN');
    expect(w.failures).toEqual([
      { index: 101, update: updates[1], code: 6, codeName: 'ALREADY_EXISTS', message: 'entry exists', space: 'ALL-sswitch-p4org', targetCode: 7 },
      { index: 102, update: updates[2], code: 3, codeName: 'INVALID_ARGUMENT', message: 'bad port', space: '', targetCode: 0 },
    ]);
    expect(w.message).toBe(
      'Write failed for 2 of 3 updates: #101 INSERT table entry ingress.l2: ALREADY_EXISTS: entry exists; #102 INSERT multicast group 1: INVALID_ARGUMENT: bad port',
    );
    expect(isNotFoundOnly(w)).toBe(false);
  });

  it.each([
    ['garbage bytes', Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02])],
    ['a Status whose details are not p4.v1.Error', Buffer.from(encodeMessage('google.rpc.Status', { code: 2, details: [packAny('p4.v1.Uint128', { low: 1 })] }))],
    ['one error fewer than updates', statusDetails([{ canonical_code: 5 }, { canonical_code: 5 }])],
    ['only successes', statusDetails([{ canonical_code: 0 }, { canonical_code: 0 }, { canonical_code: 0 }])],
  ])('%s gives a plain P4RuntimeError', (_n, trailer) => {
    const err = writeErrorFrom(serviceError(grpc.status.UNKNOWN, 'Write failure.', trailer), updates);
    expect(err).not.toBeInstanceOf(P4WriteError);
    expect(err).toBeInstanceOf(P4RuntimeError);
    expect(err.code).toBe('P4RUNTIME_UNKNOWN');
    expect(err.details).toBe('Write failure.');
  });

  it('decodeStatusDetails survives garbage', () => {
    expect(decodeStatusDetails(Buffer.from('not protobuf at all'))).toBeUndefined();
    expect(decodeStatusDetails(Buffer.alloc(0))).toEqual([]);
  });

  it('RPC-wide failures keep their code', () => {
    const err = writeErrorFrom(serviceError(grpc.status.PERMISSION_DENIED, 'Not primary'), updates);
    expect(err.code).toBe('P4RUNTIME_PERMISSION_DENIED');
    expect(err.grpcCode).toBe(7);
    expect(err.message).toBe('Write failed with PERMISSION_DENIED: Not primary');
    expect(toP4RuntimeError('Read', new Error('boom')).grpcCodeName).toBe('UNKNOWN');
  });

  it('isNotFoundOnly is true when every failure is NOT_FOUND', () => {
    const trailer = statusDetails([{ canonical_code: 5 }, { canonical_code: 0 }, { canonical_code: 5 }]);
    expect(isNotFoundOnly(writeErrorFrom(serviceError(grpc.status.UNKNOWN, 'x', trailer), updates))).toBe(true);
  });
});

describe('predicates work for BMv2, Stratum and p4ina wordings', () => {
  const e = (code: grpc.status, details: string) => toP4RuntimeError('X', serviceError(code, details));
  it.each([
    [isElectionIdUsed, e(grpc.status.INVALID_ARGUMENT, 'Election id already exists'), true],
    [isElectionIdUsed, e(grpc.status.INVALID_ARGUMENT, 'Election ID is already used by another connection with the same role.'), true],
    [isElectionIdUsed, e(grpc.status.INVALID_ARGUMENT, 'election_id 5 is already held by another stream'), true],
    [isElectionIdUsed, e(grpc.status.INVALID_ARGUMENT, 'bad match field'), false],
    [isElectionIdUsed, e(grpc.status.ALREADY_EXISTS, 'Election id already exists'), false],
    [isPipelineMissing, e(grpc.status.FAILED_PRECONDITION, 'No forwarding pipeline config set for this device.'), true],
    [isPipelineMissing, e(grpc.status.FAILED_PRECONDITION, 'No valid forwarding pipeline config has been pushed for any node so far.'), true],
    [isPipelineMissing, e(grpc.status.FAILED_PRECONDITION, 'arbitration may not change the device'), false],
    [isNotPrimary, e(grpc.status.PERMISSION_DENIED, 'Not primary'), true],
    [isNotPrimary, e(grpc.status.PERMISSION_DENIED, 'Not master'), true],
    [isNotPrimary, e(grpc.status.PERMISSION_DENIED, 'table is const'), false],
    [isNotPrimary, new Error('Not primary'), false],
  ])('%o on %s', (predicate, err, expected) => expect(predicate(err)).toBe(expected));
});
