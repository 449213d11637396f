// Arbitration over real StreamChannel calls: promotion, demotion notices, duplicate ids,
// the primary leaving, stream-ending errors, and what backups may and may not do.
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { allOfTable, insert, lpmEntry, P4INFO } from './entities.js';
import { DEVICE_ID, electionId, type Harness, primaryStream, pushPipeline, read, startHarness, unary } from './harness.js';

const Code = grpc.status;
let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('arbitration across streams', () => {
  it('promotes the highest id and tells every stream, then hands over when the primary leaves', async () => {
    const a = h.stream();
    a.arbitrate(2n);
    expect(await a.nextArbitration()).toEqual([Code.OK, '2']);

    const b = h.stream();
    b.arbitrate(1n);
    expect(await b.nextArbitration()).toEqual([Code.ALREADY_EXISTS, '2']);

    const c = h.stream();
    c.arbitrate(3n);
    expect(await a.nextArbitration()).toEqual([Code.ALREADY_EXISTS, '3']);
    expect(await b.nextArbitration()).toEqual([Code.ALREADY_EXISTS, '3']);
    expect(await c.nextArbitration()).toEqual([Code.OK, '3']);

    c.close();
    expect(await a.nextArbitration()).toEqual([Code.NOT_FOUND, '3']);
    expect(await b.nextArbitration()).toEqual([Code.NOT_FOUND, '3']);

    // 2 is below the highest id ever seen: no primary until 3 or more comes back.
    a.arbitrate(2n);
    expect(await a.nextArbitration()).toEqual([Code.NOT_FOUND, '3']);
    b.arbitrate(4n);
    expect(await a.nextArbitration()).toEqual([Code.ALREADY_EXISTS, '4']);
    expect(await b.nextArbitration()).toEqual([Code.OK, '4']);
  });

  it('keeps a stream without an election id a backup, and tells it no primary exists yet', async () => {
    const s = h.stream();
    s.arbitrate(undefined);
    const m = await s.next();
    expect(m.arbitration).toMatchObject({ election_id: null, status: { code: Code.NOT_FOUND } });
    const zero = h.stream();
    zero.arbitrate(0n); // {0,0} is a real id, unlike unset
    expect(await zero.nextArbitration()).toEqual([Code.OK, '0']);
    expect(await s.nextArbitration()).toEqual([Code.ALREADY_EXISTS, '0']);
  });

  it('echoes device and role in notices', async () => {
    const s = h.stream();
    s.arbitrate(1n, { role: 'stats' });
    const m = await s.next();
    expect(m.arbitration).toMatchObject({ device_id: String(DEVICE_ID), role: { name: 'stats' }, status: { code: Code.OK } });
  });

  it('ends a stream whose election id is taken with INVALID_ARGUMENT', async () => {
    await primaryStream(h, 3n);
    const dup = h.stream();
    dup.arbitrate(3n);
    expect((await dup.status).code).toBe(Code.INVALID_ARGUMENT);
  });

  it('ends a stream for an unknown device with NOT_FOUND', async () => {
    const s = h.stream();
    s.arbitrate(1n, { deviceId: 77 });
    expect((await s.status).code).toBe(Code.NOT_FOUND);
  });

  it('ends a stream that changes device or role with FAILED_PRECONDITION, and tells the others', async () => {
    const a = await primaryStream(h, 5n);
    const b = h.stream();
    b.arbitrate(1n);
    await b.nextArbitration();
    a.arbitrate(5n, { role: 'other' });
    expect((await a.status).code).toBe(Code.FAILED_PRECONDITION);
    expect(await b.nextArbitration()).toEqual([Code.NOT_FOUND, '5']);
    b.arbitrate(1n, { deviceId: 2 });
    expect((await b.status).code).toBe(Code.FAILED_PRECONDITION);
  });

  it('lets only the primary write or set the pipeline; backups may read and get the pipeline', async () => {
    await primaryStream(h, 2n);
    const backup = h.stream();
    backup.arbitrate(1n);
    await backup.nextArbitration();
    await pushPipeline(h.client, 2n, P4INFO, { cookie: '7' });
    await expect(pushPipeline(h.client, 1n, P4INFO)).rejects.toMatchObject({ code: Code.PERMISSION_DENIED });
    const write = (id: bigint) =>
      unary<p4r.WriteRequest, p4r.WriteResponse__Output>(h.client, 'Write', { device_id: DEVICE_ID, election_id: electionId(id), updates: [insert(lpmEntry(9))] });
    await expect(write(1n)).rejects.toMatchObject({ code: Code.PERMISSION_DENIED });
    await write(2n);
    const responses = await read(h.client, { device_id: DEVICE_ID, entities: [allOfTable()] });
    expect(responses.flatMap((r) => r.entities)).toHaveLength(1);
    const got = await unary<p4r.GetForwardingPipelineConfigRequest, p4r.GetForwardingPipelineConfigResponse__Output>(h.client, 'GetForwardingPipelineConfig', {
      device_id: DEVICE_ID,
      response_type: 'COOKIE_ONLY',
    });
    expect(got.config?.cookie?.cookie).toBe('7');
  });
});
