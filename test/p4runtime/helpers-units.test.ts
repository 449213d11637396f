import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../src/proto/codec.js';
import type * as p4i from '../../src/proto/p4i.js';
import { P4Schema } from '../../src/p4info/index.js';
import {
  backoffDelayMs,
  BoundedQueue,
  canonicalP4InfoBytes,
  decodePacketIn,
  electionIdFromMessage,
  electionIdMessage,
  encodePacketOut,
  pipelineCookie,
  preparePipeline,
  reconnectPolicy,
  toElectionId,
} from '../../src/p4runtime/index.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { codeOf } from './helpers/round-trip.js';
import { createHash } from 'node:crypto';

describe('pipeline cookie', () => {
  it('is the first 8 bytes of SHA-256(P4Info ‖ device config), big-endian', () => {
    const p4info = Buffer.from([1, 2, 3]);
    const config = Buffer.from('{"json":true}');
    const digest = createHash('sha256').update(Buffer.concat([p4info, config])).digest();
    expect(pipelineCookie(p4info, config)).toBe(BigInt('0x' + digest.subarray(0, 8).toString('hex')));
    expect(pipelineCookie(Buffer.alloc(0), Buffer.alloc(0))).toBe(0xe3b0c44298fc1c14n); // SHA-256 of nothing starts e3b0c442 98fc1c14
  });

  it('does not depend on the key order of P4Info maps', () => {
    const info = kitchenSinkP4Info();
    info.type_info!.structs = { b_t: { members: [] }, a_t: { members: [] } } as unknown as p4i.P4TypeInfo__Output['structs'];
    const reordered = { ...info, type_info: { ...info.type_info!, structs: { a_t: info.type_info!.structs.a_t!, b_t: info.type_info!.structs.b_t! } } };
    expect(canonicalP4InfoBytes(info).equals(canonicalP4InfoBytes(reordered))).toBe(true);
    expect(Buffer.from(encodeMessage('p4.config.v1.P4Info', info)).equals(Buffer.from(encodeMessage('p4.config.v1.P4Info', reordered)))).toBe(false);
  });

  it('serialises canonically: defaults left out, so sparse and filled-in P4Infos agree', () => {
    const sparse = { pkg_info: { arch: 'v1model' }, tables: [{ preamble: { id: 0x02000001, name: 't' }, size: '1024' }] };
    const full = decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', encodeMessage('p4.config.v1.P4Info', sparse));
    expect(full.tables[0]!.is_const_table).toBe(false);
    expect(canonicalP4InfoBytes(full).equals(Buffer.from(encodeMessage('p4.config.v1.P4Info', sparse)))).toBe(true);
    expect(canonicalP4InfoBytes(sparse).equals(canonicalP4InfoBytes(full))).toBe(true);
    const kitchen = kitchenSinkP4Info();
    expect(canonicalP4InfoBytes(kitchen).length).toBeLessThan(Buffer.from(encodeMessage('p4.config.v1.P4Info', kitchen)).length);
  });

  it('preparePipeline computes the cookie over canonical bytes and takes configs as text or bytes', () => {
    const p4info = kitchenSinkP4Info();
    const a = preparePipeline({ p4info, deviceConfig: '{}' });
    const b = preparePipeline({ p4info: new P4Schema(p4info), deviceConfig: Buffer.from('{}') });
    expect(a.cookie).toBe(pipelineCookie(canonicalP4InfoBytes(p4info), Buffer.from('{}')));
    expect(b.cookie).toBe(a.cookie);
    expect(a.action).toBe('VERIFY_AND_COMMIT');
    expect(preparePipeline({ p4info, deviceConfig: '{ }' }).cookie).not.toBe(a.cookie);
    expect(preparePipeline({ p4info, cookie: 5n }).cookie).toBe(5n);
    expect(() => preparePipeline({ action: 'VERIFY' })).toThrow(TypeError);
  });
});

describe('reconnect backoff', () => {
  const policy = { initialDelayMs: 100, maxDelayMs: 1000 };
  it('doubles from the initial delay up to the cap, with no jitter at the midpoint', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelayMs(n, policy, () => 0.5))).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });
  it('spreads by ±jitter and never passes the cap', () => {
    expect(backoffDelayMs(0, policy, () => 0)).toBe(80);
    expect(backoffDelayMs(0, policy, () => 0.999999)).toBe(120);
    expect(backoffDelayMs(9, policy, () => 0.999999)).toBe(1000);
    expect(backoffDelayMs(2, { ...policy, multiplier: 3, jitter: 0 }, () => 0.9)).toBe(900);
  });
  it('refuses nonsense policies', () => {
    expect(() => reconnectPolicy({ initialDelayMs: 10, maxDelayMs: 5 })).toThrow(RangeError);
    expect(() => reconnectPolicy({ ...policy, jitter: 2 })).toThrow(RangeError);
    expect(() => reconnectPolicy({ ...policy, maxAttempts: 0 })).toThrow(RangeError);
  });
});

describe('election ids', () => {
  it('are 128-bit and travel as Uint128', () => {
    const id = (5n << 64n) | 7n;
    expect(electionIdMessage(id)).toEqual({ high: '5', low: '7' });
    expect(toElectionId({ high: 5, low: 7 })).toBe(id);
    expect(toElectionId(1)).toBe(1n);
    expect(electionIdFromMessage({ high: '5', low: '7' })).toBe(id);
    expect(electionIdFromMessage(null)).toBeUndefined();
    expect(() => toElectionId(1n << 128n)).toThrow(RangeError);
    expect(() => toElectionId(-1n)).toThrow(RangeError);
  });
});

describe('BoundedQueue', () => {
  it('delivers in order, drops the oldest when full and counts drops', async () => {
    const q = new BoundedQueue<number>(2);
    for (const n of [1, 2, 3, 4]) q.push(n);
    expect(q.dropped).toBe(2);
    q.close();
    const seen: number[] = [];
    for await (const n of q) seen.push(n);
    expect(seen).toEqual([3, 4]);
  });
  it('wakes a waiting reader and ends it on close; break unsubscribes', async () => {
    let ended = 0;
    const q = new BoundedQueue<string>(4, () => ended++);
    const first = q.next();
    q.push('a');
    expect(await first).toEqual({ value: 'a', done: false });
    const waiting = q.next();
    q.close();
    expect(await waiting).toEqual({ value: undefined, done: true });
    const r = new BoundedQueue<string>(4, () => ended++);
    r.push('x');
    for await (const _ of r) break;
    expect(r.closed).toBe(true);
    expect(ended).toBe(2);
    r.push('y');
    expect(r.size).toBe(0);
  });
});

describe('packet I/O metadata', () => {
  const schema = new P4Schema(kitchenSinkP4Info());
  it('packet_out metadata by name, padding defaults to 0', () => {
    const out = encodePacketOut(Buffer.from('hi'), { egress_port: 3 }, schema);
    expect(out.metadata).toEqual([
      { metadata_id: 1, value: Buffer.from([3]) },
      { metadata_id: 2, value: Buffer.from([0]) },
    ]);
    expect(codeOf(() => encodePacketOut(Buffer.from('hi'), {}, schema))).toBe('PACKET_OUT_MISSING_METADATA');
    expect(codeOf(() => encodePacketOut(Buffer.from('hi'), { egress_port: 512 }, schema))).toBe('VALUE_TOO_WIDE');
    expect(codeOf(() => encodePacketOut(Buffer.from('hi'), { egress_port: 1, vlan: 2 }, schema))).toBe('P4INFO_UNKNOWN');
    expect(codeOf(() => encodePacketOut(Buffer.from('hi'), { egress_port: 1 }, undefined))).toBe('PACKET_OUT_NO_HEADER');
  });
  it('packet_in metadata decodes by name (by id without a P4Info)', () => {
    const msg = { payload: Buffer.from('x'), metadata: [{ metadata_id: 1, value: Buffer.from([0, 7]) }, { metadata_id: 9, value: Buffer.from([1]) }] };
    expect(decodePacketIn(msg, schema)).toEqual({ payload: Buffer.from('x'), metadata: { ingress_port: 7, '9': 1 } });
    expect(decodePacketIn(msg, undefined).metadata).toEqual({ '1': 7, '9': 1 });
  });
});
