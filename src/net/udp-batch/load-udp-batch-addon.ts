/**
 * Finds and loads the batched UDP addon (`build/Release/udp_batch.node`),
 * once per process (per worker). Users that can do without it (UDP wires
 * fall back to Node's dgram) call `tryLoadUdpBatchAddon` and log the reason.
 */
import { dirname } from 'node:path';
import { builtAddonPath, ownPackageRoot, requireAddon, type AddonFailure } from '../../native/addon-file.js';
import type { NativeUdpBatchModule } from './native-udp-batch.js';
import { UDP_BATCH_ERROR_CODES, UdpBatchError } from './udp-batch-error.js';

const ADDON = { title: 'the batched UDP addon', exportName: 'UdpBatchSocket' } as const;
const FAILURE_CODES = { 'not-built': UDP_BATCH_ERROR_CODES.addonNotBuilt, 'load-failed': UDP_BATCH_ERROR_CODES.addonLoadFailed } as const;

let cached: { addon: NativeUdpBatchModule } | { error: UdpBatchError } | undefined;

/** Loads the addon file at `path` (no caching); UdpBatchError when missing or broken. */
export function loadUdpBatchAddonFrom(path: string, root: string = dirname(dirname(dirname(path)))): NativeUdpBatchModule {
  return requireAddon<NativeUdpBatchModule>(path, root, ADDON, (kind: AddonFailure, message, cause) => new UdpBatchError(FAILURE_CODES[kind], message, { cause }));
}

function load(platform: NodeJS.Platform): NativeUdpBatchModule {
  if (platform !== 'linux') {
    throw new UdpBatchError(UDP_BATCH_ERROR_CODES.unsupportedPlatform, `batched UDP sockets exist only on Linux, and this is ${platform}; Node's dgram is used instead`);
  }
  const found = ownPackageRoot(ADDON);
  if ('message' in found) throw new UdpBatchError(UDP_BATCH_ERROR_CODES.addonNotBuilt, found.message);
  return loadUdpBatchAddonFrom(builtAddonPath(found.root, 'udp_batch.node'), found.root);
}

/** The addon, or why it cannot be used; tried once per process. */
export function tryLoadUdpBatchAddon(): { addon: NativeUdpBatchModule } | { error: UdpBatchError } {
  if (cached === undefined) {
    try {
      cached = { addon: load(process.platform) };
    } catch (err) {
      if (!(err instanceof UdpBatchError)) throw err;
      cached = { error: err };
    }
  }
  return cached;
}

/** The addon; throws UdpBatchError when it cannot be used. */
export function loadUdpBatchAddon(): NativeUdpBatchModule {
  const loaded = tryLoadUdpBatchAddon();
  if ('error' in loaded) throw loaded.error;
  return loaded.addon;
}
