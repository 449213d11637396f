/**
 * Finds and loads the AF_PACKET addon (`build/Release/af_packet.node`, see
 * src/native/addon-file.ts), with AF_PACKET's own error codes. Loaded once
 * per process (per worker), then cached.
 */
import { dirname } from 'node:path';
import { builtAddonPath, ownPackageRoot, requireAddon, type AddonFailure } from '../../../native/addon-file.js';
import { AF_PACKET_ERROR_CODES, AfPacketError } from './af-packet-error.js';
import type { NativeAfPacketModule } from './native-addon.js';

export { findPackageRoot } from '../../../native/addon-file.js';

const ADDON = { title: 'the AF_PACKET addon', exportName: 'AfPacketSocket' } as const;
const FAILURE_CODES = { 'not-built': AF_PACKET_ERROR_CODES.addonNotBuilt, 'load-failed': AF_PACKET_ERROR_CODES.addonLoadFailed } as const;

let cached: NativeAfPacketModule | undefined;

/** Where the built addon is expected for the package at `root`. */
export function addonPathFor(root: string): string {
  return builtAddonPath(root, 'af_packet.node');
}

/** Throws AF_PACKET_UNSUPPORTED_PLATFORM unless `platform` is Linux. */
export function assertLinux(platform: NodeJS.Platform = process.platform): void {
  if (platform !== 'linux') {
    throw new AfPacketError(
      AF_PACKET_ERROR_CODES.unsupportedPlatform,
      `AF_PACKET ports exist only on Linux, and this is ${platform}; use UDP wires (PORT@udp:LOCALADDR:LOCALPORT:PEERADDR:PEERPORT) instead`,
    );
  }
}

/** Loads the addon file at `path` (no caching); typed errors when missing or broken. */
export function loadAddonFrom(path: string, root: string = dirname(dirname(dirname(path)))): NativeAfPacketModule {
  return requireAddon<NativeAfPacketModule>(path, root, ADDON, (kind: AddonFailure, message, cause) => new AfPacketError(FAILURE_CODES[kind], message, { cause }));
}

/** The addon of this package, loaded once. */
export function loadAfPacketAddon(): NativeAfPacketModule {
  if (cached) return cached;
  assertLinux();
  const found = ownPackageRoot(ADDON);
  if ('message' in found) throw new AfPacketError(AF_PACKET_ERROR_CODES.addonNotBuilt, found.message);
  cached = loadAddonFrom(addonPathFor(found.root), found.root);
  return cached;
}
