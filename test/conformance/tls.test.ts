// The client and the switch over TLS, with a throwaway self-signed certificate
// made by openssl at test time: server authentication, then mutual TLS, and a
// client that does not trust the switch failing to connect.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert, opensslMissing } from '../helpers/self-signed-cert.js';
import { action, insert, table } from '../../src/p4runtime/index.js';
import { fixtureP4Info } from './helpers/programs.js';
import { rpcCode } from './helpers/outcomes.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';

if (opensslMissing) console.warn('TLS conformance tests skipped: the openssl command is missing');

describe.skipIf(opensslMissing)('the client over TLS', () => {
  let cert: Buffer;
  let key: Buffer;
  let sw: SwitchUnderTest | undefined;

  beforeAll(() => {
    ({ cert, key } = makeSelfSignedCert());
  });
  afterEach(async () => {
    await sw?.stop();
    sw = undefined;
  });

  it('arbitrates, pushes, writes and reads when it trusts the switch', async () => {
    sw = await SwitchUnderTest.start({ tls: { cert, key } });
    const client = await sw.connect({ electionId: 1n, tls: { ca: cert } });
    expect(client.isPrimary).toBe(true);
    await client.setPipeline({ p4info: fixtureP4Info('forwarding'), deviceConfig: '{}' });
    await client.write(insert(table('l2_exact', { dst_addr: 1 }, action('forward', { port: 1 }))));
    expect(await client.readAll(table('l2_exact'))).toHaveLength(1);
  });

  it('presents its certificate when the switch requires one', async () => {
    sw = await SwitchUnderTest.start({ tls: { cert, key, ca: cert, requireClientCert: true } });
    const client = await sw.connect({ electionId: 1n, tls: { ca: cert, cert, key } });
    expect(client.isPrimary).toBe(true);
    expect((await client.capabilities()).apiVersion).toBe('1.5.0');
    expect(await rpcCode(sw.client({ electionId: 2n, tls: { ca: cert } }).connect())).toBe('UNAVAILABLE');
  });

  it('fails to connect, with UNAVAILABLE, when it does not trust the switch or speaks plaintext', async () => {
    sw = await SwitchUnderTest.start({ tls: { cert, key } });
    expect(await rpcCode(sw.client({ electionId: 1n, tls: {} }).connect())).toBe('UNAVAILABLE');
    expect(await rpcCode(sw.client({ electionId: 1n }).connect())).toBe('UNAVAILABLE');
  });
});
