/**
 * @fileoverview Where `#include` finds its files.
 *
 *   #include "file"  the including file's directory, then each -I directory, then our library
 *   #include <file>  each -I directory, then our library (p4/lib: core.p4, v1model.p4)
 *
 * -I directories come before the library so that a user can replace a
 * library file with their own copy.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceFileSystem } from '../source/file-system.js';

export interface ResolvedInclude {
  readonly path: string;
  /** The name relative to the library directory when the file is one of ours, else null. */
  readonly libraryName: string | null;
}

export interface IncludeResolverOptions {
  readonly includeDirs: readonly string[];
  readonly libraryDir: string;
  readonly fileSystem: SourceFileSystem;
}

export class IncludeResolver {
  constructor(private readonly options: IncludeResolverOptions) {}

  /** The directories searched for `name`, in order (for the "not found" message too). */
  searchPath(includingFile: string, angled: boolean): string[] {
    const dirs = angled ? [] : [path.dirname(includingFile)];
    return [...dirs, ...this.options.includeDirs, this.options.libraryDir];
  }

  resolve(name: string, includingFile: string, angled: boolean): ResolvedInclude | undefined {
    const fs = this.options.fileSystem;
    const candidates = path.isAbsolute(name)
      ? [name]
      : this.searchPath(includingFile, angled).map((dir) => path.join(dir, name));
    for (const candidate of candidates) {
      const normalized = fs.normalize(candidate);
      if (fs.isFile(normalized)) return { path: normalized, libraryName: this.libraryName(normalized) };
    }
    return undefined;
  }

  private libraryName(filePath: string): string | null {
    const relative = path.relative(this.options.libraryDir, filePath);
    return relative.startsWith('..') || path.isAbsolute(relative) ? null : relative.split(path.sep).join('/');
  }
}

let cachedLibraryDir: string | undefined;

/**
 * Our library directory, `p4/lib` at the package root. The root is found by
 * walking up from this module, which sits at different depths in `src/` and
 * in the compiled `dist/src/`.
 */
export function defaultLibraryDir(): string {
  if (cachedLibraryDir !== undefined) return cachedLibraryDir;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let steps = 0; steps < 12; steps++) {
    const candidate = path.join(dir, 'p4', 'lib');
    if (existsSync(path.join(candidate, 'core.p4'))) return (cachedLibraryDir = candidate);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error('p4ina: cannot find the P4 library directory (p4/lib) above ' + fileURLToPath(import.meta.url));
}
