/**
 * What the OmniReduce aggregator's and worker's command lines share: the
 * ATP agents' readers (cli-values.ts, wire-args.ts) with their errors turned
 * into OMNIREDUCE_BAD_CONFIG, and the block size, which both must agree on
 * and which must fit a datagram.
 */
import { DEFAULT_MAX_PAYLOAD } from '../transport/index.js';
import { omniReduceLength } from '../../wire/omnireduce.js';
import { DEFAULT_SPARSE_BLOCK } from '../baseline/sparse-tensor.js';
import { integer, type Values } from '../atp/cli-values.js';
import { OMNIREDUCE_ERROR_CODES, OmniReduceError } from './omnireduce-error.js';

/** The largest block whose data message fits a 1500-byte MTU over the kernel's UDP (365). */
export const OMNIREDUCE_MAX_CLI_BLOCK = Math.floor((DEFAULT_MAX_PAYLOAD - omniReduceLength(0)) / 4);

export const BLOCK_SIZE_USAGE = `  --block-size B        elements per block (default ${DEFAULT_SPARSE_BLOCK}, at most ${OMNIREDUCE_MAX_CLI_BLOCK}), the same on every worker and aggregator`;

export function bad(message: string): OmniReduceError {
  return new OmniReduceError(OMNIREDUCE_ERROR_CODES.badConfig, message);
}

/** Runs a parser; an error of the shared readers (the ATP agent's type) becomes OMNIREDUCE_BAD_CONFIG with its message. */
export function asBadConfig<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof OmniReduceError) throw err;
    throw bad(err instanceof Error ? err.message : String(err));
  }
}

export function blockSize(values: Values): number {
  return integer(values, 'block-size', 1, OMNIREDUCE_MAX_CLI_BLOCK, DEFAULT_SPARSE_BLOCK);
}
