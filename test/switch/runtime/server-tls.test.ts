// TLS with a throwaway self-signed certificate made by openssl at test time, with and
// without client certificates.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { p4RuntimeGrpc } from '../../../src/proto/load.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { P4RuntimeServer } from '../../../src/switch/runtime/server.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { type Harness, startHarness, unary, WAIT_MS } from './harness.js';

const opensslMissing = spawnSync('openssl', ['version']).status !== 0;

describe.skipIf(opensslMissing)('TLS (needs the openssl command to make a certificate)', () => {
  let dir: string;
  let cert: Buffer;
  let key: Buffer;
  let h: Harness | undefined;
  const extraClients: grpc.Client[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'p4ina-tls-'));
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
    cert = readFileSync(join(dir, 'cert.pem'));
    key = readFileSync(join(dir, 'key.pem'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    for (const c of extraClients.splice(0)) c.close();
    await h?.close();
    h = undefined;
  });

  const capabilities = (client: grpc.Client) =>
    unary<p4r.CapabilitiesRequest, p4r.CapabilitiesResponse__Output>(client as Parameters<typeof unary>[0], 'Capabilities', {});
  const clientFor = (port: number, credentials: grpc.ChannelCredentials) => {
    const c = new (p4RuntimeGrpc().p4.v1.P4Runtime)(`127.0.0.1:${port}`, credentials);
    extraClients.push(c);
    return c;
  };

  it('serves TLS clients that trust the certificate, and no plaintext clients', async () => {
    h = await startHarness({ tls: { cert, key }, clientCredentials: grpc.credentials.createSsl(cert) });
    expect((await capabilities(h.client)).p4runtime_api_version).toBe('1.5.0');
    await expect(capabilities(clientFor(h.port, grpc.credentials.createInsecure()))).rejects.toMatchObject({ code: expect.any(Number) });
  });

  it('requires a client certificate when asked to', async () => {
    h = await startHarness({ tls: { cert, key, ca: cert, requireClientCert: true }, clientCredentials: grpc.credentials.createSsl(cert, key, cert) });
    expect((await capabilities(h.client)).p4runtime_api_version).toBe('1.5.0');
    const anonymous = clientFor(h.port, grpc.credentials.createSsl(cert));
    const failed = await capabilities(anonymous).then(
      () => undefined,
      (e: grpc.ServiceError) => e.code,
    );
    expect(failed).toBeDefined();
    expect(failed).not.toBe(grpc.status.OK);
  }, WAIT_MS * 3);

  it('refuses to require client certificates without a CA to check them', async () => {
    const server = new P4RuntimeServer({ deviceId: 0, state: new DeviceState() });
    await expect(server.start({ address: '127.0.0.1:0', tls: { cert, key, requireClientCert: true } })).rejects.toMatchObject({ code: 'SWITCH_TLS_CONFIG' });
  });
});
