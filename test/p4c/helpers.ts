// Shared helpers for the front-end tests: golden files (regenerate with
// UPDATE_GOLDEN=1), in-memory sources, and span-free comparison.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import {
  memoryFileSystem,
  nodeFileSystem,
  parseSource,
  type Diagnostic,
  type ParseOptions,
  type ParseResult,
} from '../../src/p4c/index.js';

export const TEST_DIR = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS_DIR = path.join(TEST_DIR, 'corpus');
export const GOLDEN_DIR = path.join(TEST_DIR, '..', 'golden');

/** The corpus programs (top-level .p4 files; `corpus/include/` holds what they include). */
export function corpusPrograms(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.p4'))
    .sort();
}

/**
 * Compares `actual` with the golden file `relativePath` under test/golden.
 * With UPDATE_GOLDEN=1 it writes the golden instead (review the diff before
 * committing it).
 */
export function expectGolden(relativePath: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, relativePath);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${relativePath} is missing: run the tests with UPDATE_GOLDEN=1`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** Parses `files[main]`, other entries being files it may include; the library comes from disk. */
export function parseFiles(files: Record<string, string>, main: string, options: ParseOptions = {}): ParseResult {
  return parseSource(files[main]!, main, { fileSystem: memoryFileSystem(files, nodeFileSystem), ...options });
}

/** Parses one in-memory file named `test.p4`. */
export function parseText(text: string, options: ParseOptions = {}): ParseResult {
  return parseFiles({ 'test.p4': text }, 'test.p4', options);
}

/** `P4C1201@3:5` for each diagnostic: compact enough to compare in tests. */
export function codesAt(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `P4C${d.code}@${d.span ? `${d.span.start.line}:${d.span.start.column}` : '-'}`);
}

/** The v1model preamble most test programs start with. */
export const V1MODEL = '#include <core.p4>\n#include <v1model.p4>\n';
