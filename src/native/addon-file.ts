/**
 * Finds and loads one of this package's native addons (`binding.gyp` builds
 * them into `build/Release/NAME.node` at the package root). This module runs
 * from `src/…` under vitest and from `dist/src/…` when built, so it walks up
 * from its own directory to the package root rather than using a fixed
 * relative path. Callers turn a failure into their own typed error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'p4ina';
/** Deeper than any layout of ours (dist/src/switch/ports/af-packet is 5). */
const MAX_LEVELS_UP = 16;
/** The build command, as package.json's script runs it (node-gyp comes with npm). */
export const BUILD_COMMAND = 'npm run build:addon';

const require = createRequire(import.meta.url);

/** Why an addon did not load. */
export type AddonFailure = 'not-built' | 'load-failed';

/** What a loader needs to know to load and check one addon. */
export interface AddonDescription {
  /** Used in messages: "the AF_PACKET addon". */
  readonly title: string;
  /** The constructor the addon must export, to tell it from another file. */
  readonly exportName: string;
}

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

/** Where node-gyp puts the addon `fileName` (e.g. `af_packet.node`) for the package at `root`. */
export function builtAddonPath(root: string, fileName: string): string {
  return join(root, 'build', 'Release', fileName);
}

/** The package root of this copy of p4ina, or a message saying how to build when there is none. */
export function ownPackageRoot(description: AddonDescription): { root: string } | { message: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = findPackageRoot(here);
  if (root !== undefined) return { root };
  return { message: `${description.title} cannot be found: no package.json of ${PACKAGE_NAME} above ${here}; run \`${BUILD_COMMAND}\` in the package's directory` };
}

/**
 * Loads the addon file at `path` (no caching). `fail` makes the error to
 * throw, from the kind of failure and a message that says what to do.
 */
export function requireAddon<T>(path: string, root: string, description: AddonDescription, fail: (kind: AddonFailure, message: string, cause?: unknown) => Error): T {
  const howToBuild = `build it with \`${BUILD_COMMAND}\` in ${root} (needs g++, make and python3; npm install runs it too)`;
  if (!existsSync(path)) throw fail('not-built', `${description.title} is not built (no ${path}): ${howToBuild}`);
  let loaded: unknown;
  try {
    loaded = require(path);
  } catch (err) {
    throw fail('load-failed', `${description.title} at ${path} does not load (${(err as Error).message}): re${howToBuild}`, err);
  }
  if (typeof (loaded as Record<string, unknown> | null)?.[description.exportName] !== 'function') {
    throw fail('load-failed', `${path} is not ${description.title} (it has no ${description.exportName}): re${howToBuild}`);
  }
  return loaded as T;
}
