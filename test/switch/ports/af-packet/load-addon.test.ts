/**
 * Finding and loading the addon. The built addon itself must load here (no
 * root needed): CI builds it with `npm ci`, so a failure means the build or
 * the lookup is broken.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addonPathFor,
  assertLinux,
  findPackageRoot,
  loadAddonFrom,
  loadAfPacketAddon,
} from '../../../../src/switch/ports/af-packet/load-addon.js';
import { AfPacketPort } from '../../../../src/switch/ports/af-packet/af-packet-port.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');
const scratch = mkdtempSync(join(tmpdir(), 'p4ina-af-packet-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('locating the addon', () => {
  it('finds the package root from src/ (vitest) and from dist/src/ (built)', () => {
    expect(findPackageRoot(join(repoRoot, 'src', 'switch', 'ports', 'af-packet'))).toBe(repoRoot);
    expect(findPackageRoot(join(repoRoot, 'dist', 'src', 'switch', 'ports', 'af-packet'))).toBe(repoRoot);
    expect(addonPathFor(repoRoot)).toBe(join(repoRoot, 'build', 'Release', 'af_packet.node'));
  });

  it('skips package.json files of other packages on the way up', () => {
    const other = join(scratch, 'nested', 'other');
    mkdirSync(join(other, 'deep'), { recursive: true });
    writeFileSync(join(scratch, 'nested', 'package.json'), JSON.stringify({ name: 'p4ina' }));
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'not-p4ina' }));
    expect(findPackageRoot(join(other, 'deep'))).toBe(join(scratch, 'nested'));
  });

  it('returns undefined when no p4ina package is above', () => {
    expect(findPackageRoot('/')).toBeUndefined();
  });
});

describe('loading the addon', () => {
  it('says how to build it when it is missing', () => {
    const root = join(scratch, 'unbuilt');
    expect(() => loadAddonFrom(addonPathFor(root), root)).toThrow(
      expect.objectContaining({ code: 'AF_PACKET_ADDON_NOT_BUILT', message: expect.stringContaining(`npm run build:addon\` in ${root}`) }),
    );
  });

  it('says to rebuild it when the file is not a loadable addon', () => {
    const path = join(scratch, 'broken.node');
    writeFileSync(path, 'not an ELF file');
    expect(() => loadAddonFrom(path, scratch)).toThrow(expect.objectContaining({ code: 'AF_PACKET_ADDON_LOAD_FAILED', message: expect.stringContaining('rebuild it') }));
  });

  it('refuses other platforms with AF_PACKET_UNSUPPORTED_PLATFORM', () => {
    expect(() => assertLinux('darwin')).toThrow(expect.objectContaining({ code: 'AF_PACKET_UNSUPPORTED_PLATFORM', message: expect.stringContaining('darwin') }));
    expect(() => assertLinux('linux')).not.toThrow();
  });

  it('loads the built addon of this checkout, once', () => {
    const addon = loadAfPacketAddon();
    expect(typeof addon.AfPacketSocket).toBe('function');
    expect(loadAfPacketAddon()).toBe(addon);
  });

  it('refuses an unknown interface with AF_PACKET_NO_INTERFACE (no root needed to find that out)', () => {
    expect(() => AfPacketPort.open({ number: 1, iface: 'p4ina-nope' })).toThrow(
      expect.objectContaining({ code: 'AF_PACKET_NO_INTERFACE', errnoName: 'ENODEV', message: expect.stringContaining('no interface p4ina-nope') }),
    );
  });
});
