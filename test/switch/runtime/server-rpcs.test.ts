// The unary RPCs and Read over real gRPC on 127.0.0.1: capabilities, pipeline push and
// get, the order of checks, per-update errors in grpc-status-details-bin, chunked reads,
// and malformed requests that must not hurt the server.
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { allOfTable, insert, lpmEntry, modify, P4INFO, remove, unknownTableEntry } from './entities.js';
import { batchErrors, DEVICE_ID, electionId, type Harness, primaryStream, pushPipeline, read, startHarness, unary, WAIT_MS } from './harness.js';

const Code = grpc.status;
let h: Harness;

beforeEach(async () => {
  h = await startHarness({ limits: { readChunkEntities: 100 } });
});
afterEach(async () => {
  await h.close();
});

function write(id: bigint | undefined, updates: p4r.Update[], more: Partial<p4r.WriteRequest> = {}): Promise<p4r.WriteResponse__Output> {
  return unary(h.client, 'Write', { device_id: DEVICE_ID, election_id: id === undefined ? null : electionId(id), updates, ...more });
}

describe('Capabilities', () => {
  it('reports P4Runtime 1.5.0', async () => {
    const response = await unary<p4r.CapabilitiesRequest, p4r.CapabilitiesResponse__Output>(h.client, 'Capabilities', {});
    expect(response.p4runtime_api_version).toBe('1.5.0');
  });
});

describe('SetForwardingPipelineConfig and GetForwardingPipelineConfig', () => {
  it('checks the device first, then primacy', async () => {
    await expect(pushPipeline(h.client, 1n, P4INFO, { deviceId: 99 })).rejects.toMatchObject({ code: Code.NOT_FOUND });
    await expect(pushPipeline(h.client, 1n, P4INFO)).rejects.toMatchObject({ code: Code.PERMISSION_DENIED });
    await primaryStream(h, 5n);
    await expect(pushPipeline(h.client, 4n, P4INFO)).rejects.toMatchObject({ code: Code.PERMISSION_DENIED });
    await expect(pushPipeline(h.client, undefined, P4INFO)).rejects.toMatchObject({ code: Code.PERMISSION_DENIED });
    await expect(pushPipeline(h.client, 5n, P4INFO, { deviceId: 99 })).rejects.toMatchObject({ code: Code.NOT_FOUND });
  });

  it('returns what was pushed, per response type', async () => {
    await primaryStream(h, 1n);
    const deviceConfig = Buffer.from('{"program":"kitchen-sink"}');
    await pushPipeline(h.client, 1n, P4INFO, { cookie: '12345', deviceConfig });
    const get = (response_type: string) =>
      unary<p4r.GetForwardingPipelineConfigRequest, p4r.GetForwardingPipelineConfigResponse__Output>(h.client, 'GetForwardingPipelineConfig', {
        device_id: DEVICE_ID,
        response_type: response_type as p4r.GetForwardingPipelineConfigRequest['response_type'],
      });
    const all = (await get('ALL')).config!;
    expect(all.cookie?.cookie).toBe('12345');
    expect(all.p4_device_config).toEqual(deviceConfig);
    expect(all.p4info?.tables.map((t) => t.preamble?.name)).toEqual(P4INFO.tables.map((t) => t.preamble?.name));

    const cookieOnly = (await get('COOKIE_ONLY')).config!;
    expect(cookieOnly.cookie?.cookie).toBe('12345');
    expect(cookieOnly.p4info).toBeNull();
    expect(cookieOnly.p4_device_config).toHaveLength(0);

    const p4infoAndCookie = (await get('P4INFO_AND_COOKIE')).config!;
    expect(p4infoAndCookie.p4info?.tables).toHaveLength(P4INFO.tables.length);
    expect(p4infoAndCookie.p4_device_config).toHaveLength(0);

    const deviceAndCookie = (await get('DEVICE_CONFIG_AND_COOKIE')).config!;
    expect(deviceAndCookie.p4info).toBeNull();
    expect(deviceAndCookie.p4_device_config).toEqual(deviceConfig);
    expect(deviceAndCookie.cookie?.cookie).toBe('12345');

    await expect(
      unary(h.client, 'GetForwardingPipelineConfig', { device_id: 99, response_type: 'ALL' }),
    ).rejects.toMatchObject({ code: Code.NOT_FOUND });
  });

  it('answers INVALID_ARGUMENT for a missing config', async () => {
    await primaryStream(h, 1n);
    await expect(pushPipeline(h.client, 1n, null)).rejects.toMatchObject({ code: Code.INVALID_ARGUMENT });
  });
});

describe('Write', () => {
  it('checks device, then primacy, then the pipeline', async () => {
    await expect(write(1n, [insert(lpmEntry(1))], { device_id: 42 })).rejects.toMatchObject({ code: Code.NOT_FOUND });
    await expect(write(1n, [insert(lpmEntry(1))])).rejects.toMatchObject({ code: Code.PERMISSION_DENIED });
    await primaryStream(h, 1n);
    await expect(write(1n, [insert(lpmEntry(1))], { role: 'nobody' })).rejects.toMatchObject({ code: Code.NOT_FOUND });
    await expect(write(1n, [insert(lpmEntry(1))])).rejects.toMatchObject({ code: Code.FAILED_PRECONDITION });
    await pushPipeline(h.client, 1n, P4INFO);
    await expect(write(1n, [insert(lpmEntry(1))])).resolves.toEqual({});
  });

  it('reports each failed update in grpc-status-details-bin, in order, with 0 for successes', async () => {
    await primaryStream(h, 1n);
    await pushPipeline(h.client, 1n, P4INFO);
    await write(1n, [insert(lpmEntry(1))]);
    const err = (await write(1n, [insert(lpmEntry(1)), insert(lpmEntry(2)), insert(unknownTableEntry()), modify(lpmEntry(3)), remove(lpmEntry(4))]).catch(
      (e: grpc.ServiceError) => e,
    )) as grpc.ServiceError;
    expect(err.code).toBe(Code.UNKNOWN);
    const errors = batchErrors(err);
    expect(errors.map((e) => e.canonical_code)).toEqual([Code.ALREADY_EXISTS, Code.OK, Code.NOT_FOUND, Code.NOT_FOUND, Code.NOT_FOUND]);
    expect(errors.filter((e) => e.canonical_code !== Code.OK).every((e) => e.space === 'p4ina' && e.message.length > 0)).toBe(true);
    expect(err.details).toMatch(/^4 of 5 updates failed; first: update 0: ALREADY_EXISTS/);
  });

  it('keeps the error trailer within what grpc-js clients accept, and never leaves them hanging', async () => {
    await primaryStream(h, 1n);
    await pushPipeline(h.client, 1n, P4INFO);
    const fail = async (n: number) =>
      (await write(1n, Array.from({ length: n }, (_, i) => modify(lpmEntry(i)))).catch((e: grpc.ServiceError) => e)) as grpc.ServiceError;
    // 800 errors fit only without their messages: the first keeps its message.
    const some = await fail(800);
    expect(some.code).toBe(Code.UNKNOWN);
    const errors = batchErrors(some);
    expect(errors).toHaveLength(800);
    expect(errors.every((e) => e.canonical_code === Code.NOT_FOUND && e.space === 'p4ina')).toBe(true);
    expect(errors[0]!.message).not.toBe('');
    expect(errors.slice(1).every((e) => e.message === '')).toBe(true);
    // 3000 cannot fit at all: no trailer, and the message says what to do.
    const many = await fail(3000);
    expect(many.code).toBe(Code.UNKNOWN);
    expect(many.metadata.get('grpc-status-details-bin')).toEqual([]);
    expect(many.details).toMatch(/^3000 of 3000 updates failed.*send smaller batches/);
  });

  it('refuses an unknown atomicity with INVALID_ARGUMENT', async () => {
    await primaryStream(h, 1n);
    await pushPipeline(h.client, 1n, P4INFO);
    await expect(write(1n, [insert(lpmEntry(1))], { atomicity: 7 as unknown as p4r.WriteRequest['atomicity'] })).rejects.toMatchObject({
      code: Code.INVALID_ARGUMENT,
    });
  });
});

describe('Read', () => {
  it('streams a large table in chunks, to any client, and round-trips what was written', async () => {
    await primaryStream(h, 1n);
    await pushPipeline(h.client, 1n, P4INFO);
    const entries = Array.from({ length: 250 }, (_, i) => lpmEntry(i));
    await write(1n, entries.map(insert));
    const responses = await read(h.client, { device_id: DEVICE_ID, entities: [allOfTable()] });
    expect(responses.map((r) => r.entities.length)).toEqual([100, 100, 50]);
    const read250 = responses.flatMap((r) => r.entities);
    const keyOf = (e: p4r.Entity | p4r.Entity__Output) => Buffer.from(e.table_entry!.match![0]!.lpm!.value as Buffer).toString('hex');
    expect(new Set(read250.map(keyOf))).toEqual(new Set(entries.map(keyOf)));
  });

  it('sends one empty response for an empty result', async () => {
    await primaryStream(h, 1n);
    await pushPipeline(h.client, 1n, P4INFO);
    const responses = await read(h.client, { device_id: DEVICE_ID, entities: [allOfTable()] });
    expect(responses.map((r) => r.entities.length)).toEqual([0]);
  });

  it('fails the whole RPC for an unknown device or a missing pipeline', async () => {
    await expect(read(h.client, { device_id: 7, entities: [allOfTable()] })).rejects.toMatchObject({ code: Code.NOT_FOUND });
    await expect(read(h.client, { device_id: DEVICE_ID, entities: [allOfTable()] })).rejects.toMatchObject({ code: Code.FAILED_PRECONDITION });
  });

  it('reports entities that cannot be read per entity, as Write does', async () => {
    await primaryStream(h, 1n);
    await pushPipeline(h.client, 1n, P4INFO);
    const err = (await read(h.client, { device_id: DEVICE_ID, entities: [allOfTable(), allOfTable(0x02ffffff)] }).catch(
      (e: grpc.ServiceError) => e,
    )) as grpc.ServiceError;
    expect(err.code).toBe(Code.UNKNOWN);
    expect(batchErrors(err).map((e) => e.canonical_code)).toEqual([Code.OK, Code.NOT_FOUND]);
  });
});

describe('malformed requests', () => {
  it('answers bytes that are not a protobuf message with an error and keeps serving', async () => {
    const raw = new grpc.Client(`127.0.0.1:${h.port}`, grpc.credentials.createInsecure());
    try {
      const code = await new Promise<number>((resolve) => {
        raw.makeUnaryRequest(
          '/p4.v1.P4Runtime/Write',
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]),
          { deadline: Date.now() + WAIT_MS },
          (err) => resolve(err?.code ?? Code.OK),
        );
      });
      expect(code).not.toBe(Code.OK);
    } finally {
      raw.close();
    }
    const response = await unary<p4r.CapabilitiesRequest, p4r.CapabilitiesResponse__Output>(h.client, 'Capabilities', {});
    expect(response.p4runtime_api_version).toBe('1.5.0');
  });
});
