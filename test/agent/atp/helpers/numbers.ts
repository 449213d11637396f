/**
 * The numbers ATP must produce, derived from docs/atp.md ("Workers": the
 * scale f = ⌊(2^31 − 1)/n⌋ / R, values rounded to nearest, a packet with a
 * value past ⌊(2^31 − 1)/n⌋ sent as float32) rather than from the agent's
 * code, and the check against the float64 reference.
 */
import { atpErrorBound } from '../../../../src/agent/atp/atp-scale.js';
import { float64Reference } from '../../../../src/agent/baseline/accuracy.js';
import { SeededRandom } from '../../../../src/util/seeded-random.js';

/** Values uniform in (−1, 1) times 2^k, k in −12..6 (all within ATP's range of 213), some exact zeros. */
export function atpTensors(worldSize: number, length: number, seed: number | string): Float32Array[] {
  return Array.from({ length: worldSize }, (_, rank) => {
    const random = new SeededRandom(seed).derive(`atp-rank-${rank}`);
    const t = new Float32Array(length);
    for (let i = 0; i < length; i++) t[i] = random.chance(0.05) ? 0 : (2 * random.nextFloat() - 1) * 2 ** (random.nextInt(19) - 12);
    return t;
  });
}

export interface ExpectedAtp {
  /** The exact result of packets no worker sent as floats (NaN elsewhere). */
  readonly exact: Float32Array;
  /** Packets some worker had to send as float32: their result comes from the PS's float64 sum. */
  readonly floatPackets: ReadonlySet<number>;
  readonly factor: number;
}

export function expectedAtp(tensors: readonly Float32Array[], perPacket: number, valueRange = 213): ExpectedAtp {
  const n = tensors.length;
  const limit = Math.floor(0x7fffffff / n);
  const f = limit / valueRange;
  const length = tensors[0]!.length;
  const floatPackets = new Set<number>();
  for (let at = 0; at < length; at += perPacket) {
    for (const t of tensors) {
      for (let i = at; i < Math.min(length, at + perPacket); i++) if (Math.abs(Math.round(t[i]! * f)) > limit) floatPackets.add(at / perPacket);
    }
  }
  const exact = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    if (floatPackets.has(Math.floor(i / perPacket))) {
      exact[i] = NaN;
      continue;
    }
    let sum = 0;
    for (const t of tensors) sum += Math.round(t[i]! * f);
    exact[i] = sum / f;
  }
  return { exact, floatPackets, factor: f };
}

export interface AtpCheck {
  /** Elements of integer packets whose bits differ from the exact result. */
  readonly inexact: number;
  /** Elements farther from the float64 reference than atpErrorBound. */
  readonly boundViolations: number;
  readonly maxAbsError: number;
}

/** Checks one worker's result against both. */
export function checkAtp(result: Float32Array, tensors: readonly Float32Array[], perPacket: number, valueRange = 213): AtpCheck {
  const { exact, factor } = expectedAtp(tensors, perPacket, valueRange);
  const ref = float64Reference(tensors);
  let inexact = 0;
  let boundViolations = 0;
  let maxAbsError = 0;
  for (let i = 0; i < result.length; i++) {
    if (!Number.isNaN(exact[i]!) && exact[i] !== result[i]) inexact++;
    const error = Math.abs(result[i]! - ref.sum[i]!);
    if (error > maxAbsError) maxAbsError = error;
    if (!(error <= atpErrorBound(tensors.length, factor, ref.sum[i]!, ref.absSum[i]!))) boundViolations++;
  }
  return { inexact, boundViolations, maxAbsError };
}
