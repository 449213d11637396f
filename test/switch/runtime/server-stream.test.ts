// StreamChannel traffic other than arbitration: PacketOut validation and delivery to the
// data plane, PacketIn to the primary only, digest lists with acks, and StreamErrors.
// "Did not receive" is shown with a barrier: a later message on the same stream that
// must arrive first if the earlier one was never sent.
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { DIGEST_ID, digestEntry, insert, learnData, P4INFO } from './entities.js';
import { DEVICE_ID, electionId, type Harness, primaryStream, pushPipeline, type StreamProbe, startHarness, unary } from './harness.js';

const Code = grpc.status;
let h: Harness;
let primary: StreamProbe;
let backup: StreamProbe;

beforeEach(async () => {
  h = await startHarness();
  primary = await primaryStream(h, 2n);
  backup = h.stream();
  backup.arbitrate(1n);
  expect(await backup.nextArbitration()).toEqual([Code.ALREADY_EXISTS, '2']);
});
afterEach(async () => {
  await h.close();
});

const packetOut = (metadata: [number, number[]][]): p4r.StreamMessageRequest => ({
  packet: { payload: Buffer.from('out'), metadata: metadata.map(([id, bytes]) => ({ metadata_id: id, value: Buffer.from(bytes) })) },
});

/** Round trip on one stream: once its notice comes back, everything sent before was handled. */
async function barrier(stream: StreamProbe, id: bigint): Promise<void> {
  stream.arbitrate(id);
  expect((await stream.next()).update).toBe('arbitration');
}

describe('PacketOut', () => {
  it('needs a pipeline', async () => {
    primary.send(packetOut([[1, [3]], [2, [0]]]));
    const m = await primary.next();
    expect(m.error).toMatchObject({ canonical_code: Code.FAILED_PRECONDITION, space: 'p4ina' });
    expect(m.error?.details).toBe('packet_out');
  });

  it('hands valid packets from the primary to the data plane, with canonical metadata by name', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    primary.send(packetOut([[1, [0, 3]], [2, [0]]]));
    await h.packetIo.waitFor(1);
    expect(h.packetIo.packets[0]).toEqual({
      payload: Buffer.from('out'),
      metadata: new Map([['egress_port', Buffer.from([3])], ['_pad', Buffer.from([0])]]),
    });
  });

  it('drops invalid packets with a StreamError that echoes the packet', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    primary.send(packetOut([[1, [3]]]));
    const m = await primary.next();
    expect(m.error?.canonical_code).toBe(Code.INVALID_ARGUMENT);
    expect(m.error?.message).toMatch(/lacks metadata _pad/);
    expect(m.error?.packet_out?.packet_out?.payload).toEqual(Buffer.from('out'));
    await barrier(primary, 2n);
    expect(h.packetIo.packets).toHaveLength(0);
  });

  it('drops packets from a backup without a word', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    backup.send(packetOut([[1, [3]], [2, [0]]]));
    await barrier(backup, 1n);
    expect(h.packetIo.packets).toHaveLength(0);
  });
});

describe('PacketIn', () => {
  it('goes to the primary only', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    expect(h.server.emitPacketIn(Buffer.from('in'), new Map([['ingress_port', Buffer.from([0, 4])], ['_pad', Buffer.from([0])]]))).toBe(1);
    const m = await primary.next();
    expect(m.packet).toEqual({ payload: Buffer.from('in'), metadata: [{ metadata_id: 1, value: Buffer.from([4]) }, { metadata_id: 2, value: Buffer.from([0]) }] });
    await barrier(backup, 1n);
  });

  it('goes nowhere without a pipeline or without a primary', async () => {
    expect(h.server.emitPacketIn(Buffer.from('in'), new Map())).toBe(0);
    await pushPipeline(h.client, 2n, P4INFO);
    primary.arbitrate(0n); // downgrade itself: no primary any more
    expect(await primary.nextArbitration()).toEqual([Code.NOT_FOUND, '2']);
    expect(h.server.emitPacketIn(Buffer.from('in'), new Map([[1, Buffer.from([1])], [2, Buffer.from([0])]]))).toBe(0);
  });
});

describe('digests', () => {
  const enable = (config: { maxListSize: number; maxTimeoutNs: bigint; ackTimeoutNs: bigint }) =>
    unary(h.client, 'Write', { device_id: DEVICE_ID, election_id: electionId(2n), updates: [insert(digestEntry(config))] });

  it('are dropped while the digest is not enabled', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    expect(h.server.emitDigest(DIGEST_ID, learnData(1, 1))).toBe('disabled');
  });

  it('are batched per max_list_size, sent to the primary only, and suppressed until acked', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    await enable({ maxListSize: 2, maxTimeoutNs: 60_000_000_000n, ackTimeoutNs: 60_000_000_000n });
    expect(h.server.emitDigest(DIGEST_ID, learnData(1, 1))).toBe('queued');
    expect(h.server.emitDigest(DIGEST_ID, learnData(1, 1))).toBe('duplicate');
    expect(h.server.emitDigest(DIGEST_ID, learnData(2, 1))).toBe('sent');
    const first = (await primary.next()).digest!;
    expect(first.digest_id).toBe(DIGEST_ID);
    expect(first.data).toHaveLength(2);
    expect(BigInt(first.timestamp)).toBeGreaterThan(0n);
    await barrier(backup, 1n);

    expect(h.server.emitDigest(DIGEST_ID, learnData(1, 1))).toBe('duplicate');
    primary.send({ digest_ack: { digest_id: DIGEST_ID, list_id: first.list_id } });
    await barrier(primary, 2n);
    expect(h.server.emitDigest(DIGEST_ID, learnData(1, 1))).toBe('queued');
    expect(h.server.emitDigest(DIGEST_ID, learnData(3, 1))).toBe('sent');
    const second = (await primary.next()).digest!;
    expect(BigInt(second.list_id)).toBeGreaterThan(BigInt(first.list_id));
  });

  it('send a partial list after max_timeout_ns', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    await enable({ maxListSize: 100, maxTimeoutNs: 1_000_000n, ackTimeoutNs: 1_000_000_000n });
    h.server.emitDigest(DIGEST_ID, learnData(5, 2));
    const list = (await primary.next()).digest!;
    expect(list.data).toHaveLength(1);
  });

  it('answer an ack for a digest the P4Info lacks with a StreamError', async () => {
    await pushPipeline(h.client, 2n, P4INFO);
    primary.send({ digest_ack: { digest_id: 12345, list_id: 1 } });
    const m = await primary.next();
    expect(m.error?.canonical_code).toBe(Code.INVALID_ARGUMENT);
    expect(m.error?.digest_list_ack?.digest_list_ack?.digest_id).toBe(12345);
  });
});

describe('malformed stream messages', () => {
  it('answer an empty message with INVALID_ARGUMENT and an architecture-specific one with UNIMPLEMENTED', async () => {
    primary.send({});
    expect((await primary.next()).error?.canonical_code).toBe(Code.INVALID_ARGUMENT);
    primary.send({ other: { type_url: 'type.googleapis.com/vendor.Thing', value: Buffer.from([1]) } });
    const m = await primary.next();
    expect(m.error?.canonical_code).toBe(Code.UNIMPLEMENTED);
    expect(m.error?.other?.other?.type_url).toBe('type.googleapis.com/vendor.Thing');
    await barrier(primary, 2n); // the stream is still alive and primary
  });
});
