/**
 * What "exact" means for a SwitchML result (design §7): bit-identical on every
 * worker, equal bit for bit to the result re-derived independently from the
 * rules of docs/wire.md (test/agent/switchml/helpers/numbers.ts), and within
 * the quantisation bound of the float64 sum, element by element.
 */
import { expect } from 'vitest';
import { checkAgainstFloat64, expectedSwitchMlResult, sameBits } from '../../../agent/switchml/helpers/numbers.js';
import { ELEMENTS } from './network.js';

export { seededTensors } from '../../../agent/switchml/helpers/numbers.js';

export function expectExact(results: readonly Float32Array[], tensors: readonly Float32Array[]): void {
  expect(results).toHaveLength(tensors.length);
  const expected = expectedSwitchMlResult(tensors, ELEMENTS);
  for (const [rank, result] of results.entries()) {
    expect(result.length, `worker ${rank}'s result length`).toBe(expected.length);
    expect(sameBits(result, results[0]!), `worker ${rank}'s result is bit-identical to worker 0's`).toBe(true);
  }
  expect(sameBits(results[0]!, expected), 'the result is the exact quantised sum').toBe(true);
  expect(checkAgainstFloat64(results[0]!, tensors, ELEMENTS).violations, 'elements outside the quantisation bound').toBe(0);
}
