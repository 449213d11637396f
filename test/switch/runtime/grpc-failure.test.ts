// Batch failures: one p4.v1.Error per item in order, OK for successes, and the trailer
// kept within its budget by dropping messages, then the trailer itself.
import { status as Code } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { decodeMessage, unpackAny } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import type * as rpc from '../../../src/proto/rpc.js';
import { batchFailure, failure } from '../../../src/switch/runtime/grpc-failure.js';

function details(f: ReturnType<typeof batchFailure>): { status: rpc.Status__Output; errors: p4r.Error__Output[] } | undefined {
  const [raw] = f.metadata?.get('grpc-status-details-bin') ?? [];
  if (!raw) return undefined;
  const status = decodeMessage<rpc.Status__Output>('google.rpc.Status', raw as Buffer);
  return { status, errors: status.details.map((a) => unpackAny<p4r.Error__Output>('p4.v1.Error', a)!) };
}

const ok = { code: Code.OK, message: '' };
const notFound = (what: string) => ({ code: Code.NOT_FOUND, message: `${what} is not there` });

describe('batchFailure', () => {
  it('gives one error per item, in order, with 0 for successes', () => {
    const f = batchFailure([ok, notFound('a'), ok, { code: Code.ALREADY_EXISTS, message: 'dup' }], 'update');
    expect(f.code).toBe(Code.UNKNOWN);
    expect(f.details).toBe('2 of 4 updates failed; first: update 1: NOT_FOUND: a is not there');
    const d = details(f)!;
    expect(d.status.code).toBe(Code.UNKNOWN);
    expect(d.errors.map((e) => [e.canonical_code, e.message, e.space])).toEqual([
      [Code.OK, '', ''],
      [Code.NOT_FOUND, 'a is not there', 'p4ina'],
      [Code.OK, '', ''],
      [Code.ALREADY_EXISTS, 'dup', 'p4ina'],
    ]);
  });

  it('says "entities", not "entitys"', () => {
    expect(batchFailure([notFound('a'), notFound('b')], 'entity').details).toMatch(/^2 of 2 entities failed; first: entity 0: NOT_FOUND/);
    expect(batchFailure([notFound('a')], 'entity').details).toMatch(/^1 of 1 entity failed/);
  });

  it('drops all but the first message when the details would not fit, then the trailer', () => {
    const statuses = Array.from({ length: 20 }, (_, i) => notFound(`entry ${i} with a fairly long explanation`));
    const roomy = details(batchFailure(statuses, 'update', 10_000))!;
    expect(roomy.errors.every((e) => e.message !== '')).toBe(true);
    const tight = details(batchFailure(statuses, 'update', 1_500))!;
    expect(tight.errors.map((e) => e.message !== '')).toEqual([true, ...Array<boolean>(19).fill(false)]);
    const none = batchFailure(statuses, 'update', 100);
    expect(details(none)).toBeUndefined();
    expect(none.details).toMatch(/send smaller batches/);
  });
});

describe('failure', () => {
  it('carries the code and message, or the code name when there is no message', () => {
    expect(failure({ code: Code.NOT_FOUND, message: 'gone' })).toEqual({ code: Code.NOT_FOUND, details: 'gone' });
    expect(failure({ code: Code.UNIMPLEMENTED, message: '' })).toEqual({ code: Code.UNIMPLEMENTED, details: 'UNIMPLEMENTED' });
  });
});
