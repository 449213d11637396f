// SetForwardingPipelineConfig with every action and the cookie,
// GetForwardingPipelineConfig with every response type, and P4Info from the
// text, JSON and binary files surviving a push/get round trip unchanged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { P4Schema, readP4InfoFile, writeP4InfoFile } from '../../src/p4info/index.js';
import { action, canonicalP4InfoBytes, insert, modify, pipelineCookie, register, table, type P4RuntimeClient } from '../../src/p4runtime/index.js';
import { encodeMessage } from '../../src/proto/codec.js';
import type * as p4i from '../../src/proto/p4i.js';
import { fixtureP4Info, fixturePath, kitchenSink, type FixtureName } from './helpers/programs.js';
import { rawError, rpcCode } from './helpers/outcomes.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY } from './helpers/entities.js';

const FORWARDING = fixtureP4Info('forwarding');
const entry = (last: number) => table('l2_exact', { dst_addr: last }, action('forward', { port: last }));
const bytesOf = (p4info: p4i.P4Info | p4i.P4Info__Output): Buffer => Buffer.from(encodeMessage('p4.config.v1.P4Info', p4info));

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  client = await sw.connect({ electionId: PRIMARY });
});
afterEach(async () => {
  await sw.stop();
});

describe('SetForwardingPipelineConfig actions', () => {
  it('VERIFY checks without installing anything', async () => {
    expect(await client.setPipeline({ p4info: FORWARDING, deviceConfig: '{}', action: 'VERIFY' })).toMatchObject({ pushed: true });
    expect(await client.getPipeline()).toEqual({});
    expect(client.schema).toBeUndefined();
    // A P4Info the switch cannot realize is refused by VERIFY too.
    const broken = { ...FORWARDING, tables: [{ ...FORWARDING.tables[0]!, direct_resource_ids: [0x13000bad] }] };
    const err = await rawError(sw.raw.setPipeline({ action: 'VERIFY', config: { p4info: broken, p4_device_config: Buffer.from('{}') } }, { electionId: PRIMARY }));
    expect(err.codeName).toBe('INVALID_ARGUMENT');
  });

  it('VERIFY_AND_COMMIT installs, and a second VERIFY_AND_COMMIT clears the forwarding state', async () => {
    await client.setPipeline({ p4info: FORWARDING, deviceConfig: 'v1', action: 'VERIFY_AND_COMMIT' });
    await client.write([insert(entry(1)), insert(entry(2))]);
    expect(await client.readAll(table('l2_exact'))).toHaveLength(2);
    expect(await client.setPipeline({ p4info: FORWARDING, deviceConfig: 'v2' })).toMatchObject({ pushed: true });
    expect(await client.readAll(table('l2_exact'))).toEqual([]);
  });

  it('RECONCILE_AND_COMMIT keeps the forwarding state, and refuses a P4Info the state does not fit', async () => {
    const sink = kitchenSink();
    await client.setPipeline({ p4info: sink, deviceConfig: 'v1' });
    await client.write([
      insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }, action('ingress.forward', { port: 1 }))),
      modify(register('ingress.slots', { index: 2, value: 9 })),
    ]);
    expect(await client.setPipeline({ p4info: sink, deviceConfig: 'v2', action: 'RECONCILE_AND_COMMIT' })).toMatchObject({ pushed: true });
    expect(await client.readAll(table('ingress.l2'))).toHaveLength(1);
    expect(await client.readAll(register('ingress.slots', { index: 2 }))).toMatchObject([{ value: 9 }]);
    expect((await client.getPipeline('DEVICE_CONFIG_AND_COOKIE')).deviceConfig?.toString()).toBe('v2');

    // The forwarding program has no ingress.l2: keeping the entry is impossible, so nothing changes.
    expect(await rpcCode(client.setPipeline({ p4info: FORWARDING, deviceConfig: 'v3', action: 'RECONCILE_AND_COMMIT' }))).toBe('INVALID_ARGUMENT');
    expect((await client.getPipeline('DEVICE_CONFIG_AND_COOKIE')).deviceConfig?.toString()).toBe('v2');
    expect(await client.readAll(table('ingress.l2'))).toHaveLength(1);
  });

  it('VERIFY_AND_SAVE then COMMIT: writes after the save go to the saved pipeline and survive the commit', async () => {
    await client.setPipeline({ p4info: FORWARDING, deviceConfig: 'v1' });
    await client.write(insert(entry(1)));
    await client.setPipeline({ p4info: FORWARDING, deviceConfig: 'v2', action: 'VERIFY_AND_SAVE' });
    // Reads and writes now address the saved pipeline, which starts empty.
    expect(await client.readAll(table('l2_exact'))).toEqual([]);
    await client.write(insert(entry(2)));
    expect(await client.setPipeline({ action: 'COMMIT' })).toMatchObject({ pushed: true });
    expect((await client.readAll(table('l2_exact'))).map((e) => e.match['hdr.ethernet.dst_addr'])).toEqual([2]);
    expect((await client.getPipeline('DEVICE_CONFIG_AND_COOKIE')).deviceConfig?.toString()).toBe('v2');
    // Nothing is saved any more.
    expect(await rpcCode(client.setPipeline({ action: 'COMMIT' }))).toBe('NOT_FOUND');
  });

  it('refuses COMMIT with a config, a missing config and an unknown action (bare stub)', async () => {
    await client.setPipeline({ p4info: FORWARDING, deviceConfig: 'v1', action: 'VERIFY_AND_SAVE' });
    const config = { p4info: FORWARDING, p4_device_config: Buffer.from('x') };
    expect((await rawError(sw.raw.setPipeline({ action: 'COMMIT', config }, { electionId: PRIMARY }))).codeName).toBe('INVALID_ARGUMENT');
    expect((await rawError(sw.raw.setPipeline({ action: 'VERIFY_AND_COMMIT' }, { electionId: PRIMARY }))).codeName).toBe('INVALID_ARGUMENT');
    expect((await rawError(sw.raw.setPipeline({ action: 'UNSPECIFIED', config }, { electionId: PRIMARY }))).codeName).toBe('INVALID_ARGUMENT');
    expect((await rawError(sw.raw.setPipeline({ action: 'VERIFY_AND_COMMIT', config: { p4_device_config: Buffer.from('x') } }, { electionId: PRIMARY }))).codeName).toBe(
      'INVALID_ARGUMENT',
    );
  });
});

describe('the cookie', () => {
  it('is kept by the switch, and the client skips a push whose cookie matches', async () => {
    const first = await client.setPipeline({ p4info: FORWARDING, deviceConfig: '{}' });
    expect(first).toEqual({ pushed: true, cookie: pipelineCookie(canonicalP4InfoBytes(FORWARDING), Buffer.from('{}')) });
    expect((await client.getPipeline('COOKIE_ONLY')).cookie).toBe(first.cookie);
    await client.write(insert(entry(1)));

    // Same program: not pushed, so the entry is still there.
    expect(await client.setPipeline({ p4info: FORWARDING, deviceConfig: '{}' })).toEqual({ pushed: false, cookie: first.cookie });
    expect(await client.readAll(table('l2_exact'))).toHaveLength(1);
    // A fresh client (as after a controller restart) skips it too, and gets the schema.
    const restarted = await sw.connect({ electionId: PRIMARY + 1n });
    expect(await restarted.setPipeline({ p4info: FORWARDING, deviceConfig: '{}' })).toMatchObject({ pushed: false });
    expect(await restarted.readAll(table('l2_exact'))).toHaveLength(1);
    // force pushes anyway, which clears the state.
    expect(await restarted.setPipeline({ p4info: FORWARDING, deviceConfig: '{}', force: true })).toMatchObject({ pushed: true });
    expect(await restarted.readAll(table('l2_exact'))).toEqual([]);
  });

  it('is set as given, and absent when the config had none (not the same as 0)', async () => {
    await client.setPipeline({ p4info: FORWARDING, deviceConfig: '{}', cookie: 0n });
    expect((await client.getPipeline('COOKIE_ONLY')).cookie).toBe(0n);
    await sw.raw.setPipeline({ action: 'VERIFY_AND_COMMIT', config: { p4info: FORWARDING, p4_device_config: Buffer.from('{}') } }, { electionId: PRIMARY });
    expect(await client.getPipeline('COOKIE_ONLY')).toEqual({});
    // With no cookie on the switch the client pushes (it cannot tell what runs).
    expect(await client.setPipeline({ p4info: FORWARDING, deviceConfig: '{}' })).toMatchObject({ pushed: true });
  });
});

describe('GetForwardingPipelineConfig', () => {
  it('answers an empty config before any pipeline, and every response type after', async () => {
    expect((await sw.raw.getPipeline('ALL')).config).toBeNull();
    const { cookie } = await client.setPipeline({ p4info: FORWARDING, deviceConfig: Buffer.from([1, 2, 3]) });

    const all = await sw.raw.getPipeline('ALL');
    expect(all.config!.p4_device_config).toEqual(Buffer.from([1, 2, 3]));
    expect(all.config!.cookie?.cookie).toBe(cookie!.toString());
    expect(bytesOf(all.config!.p4info!)).toEqual(bytesOf(FORWARDING));

    const cookieOnly = await sw.raw.getPipeline('COOKIE_ONLY');
    expect(cookieOnly.config).toMatchObject({ p4info: null, p4_device_config: Buffer.alloc(0), cookie: { cookie: cookie!.toString() } });

    const p4infoAndCookie = await sw.raw.getPipeline('P4INFO_AND_COOKIE');
    expect(p4infoAndCookie.config!.p4_device_config).toEqual(Buffer.alloc(0));
    expect(p4infoAndCookie.config!.p4info).not.toBeNull();

    const deviceConfigAndCookie = await sw.raw.getPipeline('DEVICE_CONFIG_AND_COOKIE');
    expect(deviceConfigAndCookie.config).toMatchObject({ p4info: null, p4_device_config: Buffer.from([1, 2, 3]) });

    // The client's view of the same.
    const fresh = sw.client({ electionId: 1n });
    expect(await fresh.getPipeline('COOKIE_ONLY')).toEqual({ cookie });
    expect(fresh.schema).toBeUndefined();
    const got = await fresh.getPipeline('P4INFO_AND_COOKIE');
    expect(got.deviceConfig).toBeUndefined();
    expect(fresh.schema).toBeInstanceOf(P4Schema);
    expect((await fresh.readAll(table('l2_exact'))).length).toBe(0);
    // A response type this proto does not name (sent as a bare number).
    expect((await rawError(sw.raw.getPipeline(9 as unknown as string))).codeName).toBe('INVALID_ARGUMENT');
  });
});

describe('P4Info files in every format', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'p4ina-conformance-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each<FixtureName>(['forwarding', 'acl', 'register', 'counter', 'packet_io'])('%s: text, JSON and binary push and read back identical', async (name) => {
    const text = readP4InfoFile(fixturePath(name));
    writeP4InfoFile(join(dir, `${name}.json`), text);
    writeP4InfoFile(join(dir, `${name}.bin`), text);
    const json = readP4InfoFile(join(dir, `${name}.json`));
    const binary = readP4InfoFile(join(dir, `${name}.bin`));
    const cookies = [text, json, binary].map((p) => pipelineCookie(canonicalP4InfoBytes(p), Buffer.from('{}')));
    expect(new Set(cookies).size).toBe(1);

    const got: Buffer[] = [];
    for (const p4info of [text, json, binary]) {
      await client.setPipeline({ p4info, deviceConfig: '{}', force: true });
      const config = await client.getPipeline('P4INFO_AND_COOKIE');
      expect(config.cookie).toBe(cookies[0]);
      got.push(canonicalP4InfoBytes(config.p4info!));
    }
    expect(got[1]).toEqual(got[0]);
    expect(got[2]).toEqual(got[0]);
    expect(got[0]).toEqual(canonicalP4InfoBytes(text));
    // Without force, the second and third are the same pipeline: not pushed.
    expect(await client.setPipeline({ p4info: json, deviceConfig: '{}' })).toMatchObject({ pushed: false });
    expect(await client.setPipeline({ p4info: binary, deviceConfig: '{}' })).toMatchObject({ pushed: false });
  });
});
