/**
 * The workers' shared options for block-sparse input (`--sparsity`,
 * `--pattern`, `--sparse-block`): every algorithm's worker takes them, so a
 * density sweep runs dense and sparse algorithms on the very same tensors
 * (sparse-tensor.ts). Each worker reports problems with its own error type,
 * hence the `fail` callback.
 */
import { DEFAULT_SPARSE_BLOCK, SPARSITY_PATTERNS, type Sparsity, type SparsityPattern } from './sparse-tensor.js';

/** node:util parseArgs specs of the three options. */
export const SPARSITY_OPTIONS = {
  sparsity: { type: 'string' },
  pattern: { type: 'string' },
  'sparse-block': { type: 'string' },
} as const;

export const SPARSITY_USAGE = `  --sparsity D          share of the tensor's blocks that are all zero, 0..1 (default 0: dense)
  --pattern P           which blocks: ${SPARSITY_PATTERNS.join(', ')} (default random; see docs/omnireduce.md)
  --sparse-block B      elements per block of the pattern (default ${DEFAULT_SPARSE_BLOCK})`;

type OptionValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

function textOf(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v.trim() : undefined;
}

/**
 * The sparsity the options ask for; undefined when none of them is given
 * (the dense seeded tensor). `defaultBlock` is the block when --sparse-block
 * is absent (OmniReduce's worker passes its own block size).
 */
export function parseSparsity(values: OptionValues, fail: (message: string) => Error, defaultBlock = DEFAULT_SPARSE_BLOCK): Sparsity | undefined {
  const sparsityText = textOf(values, 'sparsity');
  const patternText = textOf(values, 'pattern');
  const blockText = textOf(values, 'sparse-block');
  if (sparsityText === undefined && patternText === undefined && blockText === undefined) return undefined;
  const sparsity = sparsityText === undefined ? 0 : /^(\d+(\.\d*)?|\.\d+)$/.test(sparsityText) ? Number(sparsityText) : NaN;
  if (!(sparsity >= 0 && sparsity <= 1)) throw fail(`--sparsity must be a share of zero blocks from 0 to 1 (0.9: one block in ten has values), got "${sparsityText}"`);
  const pattern = patternText ?? 'random';
  if (!(SPARSITY_PATTERNS as readonly string[]).includes(pattern)) throw fail(`--pattern must be one of ${SPARSITY_PATTERNS.join(', ')}, got "${pattern}"`);
  const block = blockText === undefined ? defaultBlock : /^\d+$/.test(blockText) ? Number(blockText) : NaN;
  if (!Number.isSafeInteger(block) || block < 1 || block > 0xffff) throw fail(`--sparse-block must be an integer in 1..65535, got "${blockText}"`);
  return { sparsity, pattern: pattern as SparsityPattern, blockElements: block };
}

/** The options that reproduce `s` on another worker's command line (empty for dense). */
export function sparsityArgs(s: Sparsity | undefined): string[] {
  return s === undefined ? [] : ['--sparsity', String(s.sparsity), '--pattern', s.pattern, '--sparse-block', String(s.blockElements)];
}
