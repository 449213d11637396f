// The STF files of test/stf (our own, written from the programs' logic and
// the protocol specs) run against the corpus programs and p4/*.p4.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStfReport } from '../../src/stf/index.js';
import { STF_DIR, ipv4ChecksumsIn, runFile } from './helpers.js';

function passes(name: string, program: string, defines: string[] = []): void {
  const result = runFile(name, program, { defines });
  expect(formatStfReport(result)).toMatch(/PASSED/);
  expect(result.status).toBe('passed');
}

describe('STF files against their programs', () => {
  it('basic_forward.stf: LPM routes, TTL and checksum, default action', () => {
    passes('basic_forward', 'test/p4c/corpus/basic_forward.p4');
  });
});

describe('the IPv4 checksums written in the STF files', () => {
  it.each(['basic_forward'])('%s.stf: every full IPv4 header has a correct checksum (RFC 1071, computed here)', (name) => {
    const checked = ipv4ChecksumsIn(path.join(STF_DIR, `${name}.stf`));
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.filter((c) => !c.ok)).toEqual([]);
  });
});
