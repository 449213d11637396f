/**
 * `--check` for the Rina worker: how far a result is from the float64 sum of
 * every worker's tensor, element by element, against the bound
 * docs/rina.md §5 states (switchMlErrorBound with the chunk's agreed
 * exponent: the largest frexp exponent of any worker's values in the chunk,
 * the chunks being the data pass's).
 */
import { compareWithReference, float64Reference } from '../baseline/accuracy.js';
import { exponentOfMagnitudeBits, switchMlErrorBound } from '../switchml/quantisation.js';
import type { PassLayout } from './pass-layout.js';

export interface RinaCheck {
  readonly maxAbsError: number;
  readonly boundViolations: number;
}

export function checkRinaResult(result: Float32Array, tensors: readonly Float32Array[], layout: PassLayout): RinaCheck {
  const exponentOf = new Int8Array(result.length);
  for (let g = 0; g < layout.members; g++) {
    for (let c = 0; c < layout.chunks; c++) {
      const from = layout.start(g, c);
      const end = from + layout.count(g, c);
      let max = 0;
      for (const t of tensors) {
        const bits = new Uint32Array(t.buffer, t.byteOffset, t.length);
        for (let i = from; i < end; i++) max = Math.max(max, bits[i]! & 0x7fff_ffff);
      }
      exponentOf.fill(exponentOfMagnitudeBits(max), from, end);
    }
  }
  const ref = float64Reference(tensors);
  const { maxAbsError, violations } = compareWithReference(result, ref, (i) => switchMlErrorBound(tensors.length, exponentOf[i]!, ref.sum[i]!, ref.absSum[i]!));
  return { maxAbsError, boundViolations: violations };
}
