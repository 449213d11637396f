// A throwaway self-signed certificate for TLS tests, made by the openssl command
// (CI installs it). Valid for 127.0.0.1 and localhost for one day.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const opensslMissing = spawnSync('openssl', ['version']).status !== 0;

export interface SelfSignedCert {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** Makes a fresh EC P-256 certificate and key; the files are removed again at once. */
export function makeSelfSignedCert(): SelfSignedCert {
  const dir = mkdtempSync(join(tmpdir(), 'p4ina-tls-'));
  try {
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
    return { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
