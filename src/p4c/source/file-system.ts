/**
 * @fileoverview How the front end reads files: through a small interface, so
 * that tests (and tools that hold sources in memory) can supply files without
 * touching the disk.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface SourceFileSystem {
  /** The file's text, or undefined when it does not exist or cannot be read. */
  readFile(filePath: string): string | undefined;
  /** True when `filePath` names a readable regular file. */
  isFile(filePath: string): boolean;
  /** A canonical form of the path, so that the same file always gets the same name. */
  normalize(filePath: string): string;
}

/** The real file system. */
export const nodeFileSystem: SourceFileSystem = {
  readFile(filePath) {
    try {
      return readFileSync(filePath, 'utf8');
    } catch {
      return undefined;
    }
  },
  isFile(filePath) {
    try {
      return existsSync(filePath) && statSync(filePath).isFile();
    } catch {
      return false;
    }
  },
  normalize: (filePath) => path.normalize(filePath),
};

/** Files held in memory, keyed by path (POSIX separators). */
export function memoryFileSystem(files: Record<string, string>, fallback?: SourceFileSystem): SourceFileSystem {
  const table = new Map(Object.entries(files).map(([name, text]) => [path.posix.normalize(name), text]));
  return {
    readFile: (filePath) => table.get(path.posix.normalize(filePath)) ?? fallback?.readFile(filePath),
    isFile: (filePath) => table.has(path.posix.normalize(filePath)) || (fallback?.isFile(filePath) ?? false),
    normalize: (filePath) => path.posix.normalize(filePath),
  };
}
