/**
 * The executor writes numbers taken from the IR (widths, offsets, slots,
 * slice bounds) into the JavaScript source it generates. A device config
 * arrives over P4Runtime, so it is untrusted input: before anything is
 * generated, every property that the IR contract types as a number must
 * hold one, or a crafted config could smuggle code into the switch process.
 */
import { IR_MAX_DEPTH } from '../../p4c/ir/limits.js';
import { PipelineLoadError } from './pipeline-load-error.js';

/** Properties that src/p4c/ir/types.ts declares as numbers wherever they appear (some may be null). */
const NUMERIC_KEYS: ReadonlySet<string> = new Set(['width', 'maxWidth', 'size', 'bitOffset', 'bytes', 'slot', 'id', 'actionId', 'priority']);
/** Numbers only in slice expressions (range keys of table entries hold decimal strings under the same names). */
const SLICE_KEYS: ReadonlySet<string> = new Set(['high', 'low']);

/**
 * A generous bound: nothing legitimate comes near it, and it keeps generated literals small.
 * The depth bound is the IR's (the compiler refuses programs that would pass it, so they never get here).
 */
const MAX_MAGNITUDE = 2 ** 32;

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? typeof value : text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Throws PipelineLoadError when a numeric property of the IR is not a bounded integer. */
export function checkIrNumbers(ir: unknown): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: ir, path: '$', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > IR_MAX_DEPTH) throw new PipelineLoadError(`the IR nests deeper than ${IR_MAX_DEPTH} levels at ${path}: compile the program with "p4ina compile"`);
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }));
      continue;
    }
    const isSlice = (value as { op?: unknown }).op === 'slice';
    for (const [key, child] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (NUMERIC_KEYS.has(key) || (isSlice && SLICE_KEYS.has(key))) {
        const ok = child === null || (Number.isSafeInteger(child) && Math.abs(child as number) <= MAX_MAGNITUDE);
        if (!ok) throw new PipelineLoadError(`the IR's ${at} is ${describe(child)}, not an integer: the device config is damaged or not from "p4ina compile"`);
      }
      stack.push({ value: child, path: at, depth: depth + 1 });
    }
  }
}

