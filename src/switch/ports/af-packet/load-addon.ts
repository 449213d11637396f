/**
 * Finds and loads the AF_PACKET addon. node-gyp builds it into
 * `build/Release/af_packet.node` at the package root; this module runs from
 * `src/…` under vitest and from `dist/src/…` when built, so it walks up from
 * its own directory to the package root rather than using a fixed relative
 * path. Loaded once per process (per worker), then cached.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AF_PACKET_ERROR_CODES, AfPacketError } from './af-packet-error.js';
import type { NativeAfPacketModule } from './native-addon.js';

const PACKAGE_NAME = 'p4ina';
/** Deeper than any layout of ours (dist/src/switch/ports/af-packet is 5). */
const MAX_LEVELS_UP = 16;
/** The build command, as package.json's script runs it (node-gyp comes with npm). */
export const BUILD_COMMAND = 'npm run build:addon';

const require = createRequire(import.meta.url);
let cached: NativeAfPacketModule | undefined;

/** The nearest directory at or above `startDir` whose package.json is p4ina's. */
export function findPackageRoot(startDir: string): string | undefined {
  let dir = startDir;
  for (let level = 0; level <= MAX_LEVELS_UP; level++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && packageName(manifest) === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function packageName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}

/** Where the built addon is expected for the package at `root`. */
export function addonPathFor(root: string): string {
  return join(root, 'build', 'Release', 'af_packet.node');
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
  const howToBuild = `build it with \`${BUILD_COMMAND}\` in ${root} (needs g++, make and python3; npm install runs it too)`;
  if (!existsSync(path)) {
    throw new AfPacketError(AF_PACKET_ERROR_CODES.addonNotBuilt, `the AF_PACKET addon is not built (no ${path}): ${howToBuild}`);
  }
  let loaded: unknown;
  try {
    loaded = require(path);
  } catch (err) {
    throw new AfPacketError(AF_PACKET_ERROR_CODES.addonLoadFailed, `the AF_PACKET addon at ${path} does not load (${(err as Error).message}): re${howToBuild}`, {
      cause: err,
    });
  }
  if (typeof (loaded as Partial<NativeAfPacketModule> | null)?.AfPacketSocket !== 'function') {
    throw new AfPacketError(AF_PACKET_ERROR_CODES.addonLoadFailed, `${path} is not the AF_PACKET addon (it has no AfPacketSocket): re${howToBuild}`);
  }
  return loaded as NativeAfPacketModule;
}

/** The addon of this package, loaded once. */
export function loadAfPacketAddon(): NativeAfPacketModule {
  if (cached) return cached;
  assertLinux();
  const here = dirname(fileURLToPath(import.meta.url));
  const root = findPackageRoot(here);
  if (root === undefined) {
    throw new AfPacketError(
      AF_PACKET_ERROR_CODES.addonNotBuilt,
      `the AF_PACKET addon cannot be found: no package.json of ${PACKAGE_NAME} above ${here}; run \`${BUILD_COMMAND}\` in the package's directory`,
    );
  }
  cached = loadAddonFrom(addonPathFor(root), root);
  return cached;
}
