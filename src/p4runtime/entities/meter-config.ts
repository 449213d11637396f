/**
 * Meter configuration: committed and peak rates (units per second, in the
 * meter's unit: bytes or packets) and burst sizes. Leaving the config out of
 * a MODIFY resets the meter to "always green" (spec §9.4).
 */
import type * as p4r from '../../proto/p4r.js';
import { bigintOf, int64 } from './values.js';

export interface MeterConfigInput {
  readonly cir: number | bigint;
  readonly cburst: number | bigint;
  readonly pir: number | bigint;
  readonly pburst: number | bigint;
  /** Excess burst (since P4Runtime 1.4); 0 when left out. */
  readonly eburst?: number | bigint;
}
export interface MeterConfig {
  readonly cir: bigint;
  readonly cburst: bigint;
  readonly pir: bigint;
  readonly pburst: bigint;
  readonly eburst: bigint;
}

export function encodeMeterConfig(config: MeterConfigInput | undefined): p4r.MeterConfig | null {
  if (!config) return null;
  return {
    cir: int64(config.cir, 'cir'),
    cburst: int64(config.cburst, 'cburst'),
    pir: int64(config.pir, 'pir'),
    pburst: int64(config.pburst, 'pburst'),
    eburst: int64(config.eburst, 'eburst'),
  };
}

export function decodeMeterConfig(msg: p4r.MeterConfig__Output | null): MeterConfig | undefined {
  if (!msg) return undefined;
  return { cir: bigintOf(msg.cir), cburst: bigintOf(msg.cburst), pir: bigintOf(msg.pir), pburst: bigintOf(msg.pburst), eburst: bigintOf(msg.eburst) };
}
