// TLS with a throwaway self-signed certificate made by openssl at test time, with and
// without client certificates.
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert, opensslMissing } from '../../helpers/self-signed-cert.js';
import { p4RuntimeGrpc } from '../../../src/proto/load.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { P4RuntimeServer } from '../../../src/switch/runtime/server.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { type Harness, startHarness, unary, WAIT_MS } from './harness.js';


describe.skipIf(opensslMissing)('TLS (needs the openssl command to make a certificate)', () => {
  let cert: Buffer;
  let key: Buffer;
  let h: Harness | undefined;
  const extraClients: grpc.Client[] = [];

  beforeAll(() => {
    ({ cert, key } = makeSelfSignedCert());
  });
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
    // grpc-js reports a refused TLS handshake as UNAVAILABLE (the connection never came up).
    expect(failed).toBe(grpc.status.UNAVAILABLE);
  }, WAIT_MS * 3);

  it('refuses to require client certificates without a CA to check them', async () => {
    const server = new P4RuntimeServer({ deviceId: 0, state: new DeviceState() });
    await expect(server.start({ address: '127.0.0.1:0', tls: { cert, key, requireClientCert: true } })).rejects.toMatchObject({ code: 'SWITCH_TLS_CONFIG' });
  });
});
