/**
 * Meter configurations (`p4.v1.MeterConfig`), checked against the meter's
 * type as the spec requires (§MeterEntry): a two-rate meter takes no excess
 * burst; single-rate meters need pir = cir and pburst = cburst, and the
 * two-colour one no excess burst either. An unset config means the default
 * meter, which marks every packet GREEN; we keep that as `undefined`.
 *
 * Like BMv2 (bm_sim/meters.cpp, INVALID_INFO_RATE_VALUE) we also refuse a
 * peak rate below the committed rate: the data plane's marker needs
 * pir >= cir. BMv2 checks nothing else (its INVALID_BURST_SIZE_VALUE is never
 * returned), so any burst sizes are accepted: a burst of 0 marks every packet
 * past that bucket, and pburst may be below cburst.
 */
import type { MeterType } from '../../p4info/entities.js';
import type * as p4r from '../../proto/p4r.js';
import { invalidArgument, unimplemented } from './entity-error.js';
import { nonNegativeInt64 } from './validation.js';

/** Rates in units (bytes or packets) per second, bursts in units, as numbers for the data plane. */
export interface MeterSettings {
  readonly cir: number;
  readonly cburst: number;
  readonly pir: number;
  readonly pburst: number;
  readonly eburst: number;
}

export function parseMeterConfig(config: p4r.MeterConfig__Output, type: MeterType, what: string): MeterSettings {
  const s: MeterSettings = {
    cir: nonNegativeInt64(config.cir, `${what} cir`),
    cburst: nonNegativeInt64(config.cburst, `${what} cburst`),
    pir: nonNegativeInt64(config.pir, `${what} pir`),
    pburst: nonNegativeInt64(config.pburst, `${what} pburst`),
    eburst: nonNegativeInt64(config.eburst, `${what} eburst`),
  };
  if (s.pir < s.cir) {
    throw invalidArgument(`${what}: pir ${s.pir} is below cir ${s.cir}; the peak information rate must be at least the committed rate`);
  }
  const singleRate = type === 'SINGLE_RATE_THREE_COLOR' || type === 'SINGLE_RATE_TWO_COLOR';
  if (singleRate && (s.pir !== s.cir || s.pburst !== s.cburst)) {
    throw invalidArgument(`${what} is a ${type} meter: pir must equal cir and pburst must equal cburst`);
  }
  if (type !== 'SINGLE_RATE_THREE_COLOR' && s.eburst !== 0) {
    throw invalidArgument(`${what} is a ${type} meter, which has no excess burst: leave eburst unset`);
  }
  return s;
}

export function meterConfigProto(s: MeterSettings): p4r.MeterConfig {
  return { cir: String(s.cir), cburst: String(s.cburst), pir: String(s.pir), pburst: String(s.pburst), eburst: String(s.eburst) };
}

/** Per-colour meter counters are optional in P4Runtime and not kept by this switch. */
export function refuseMeterCounterData(data: p4r.MeterCounterData__Output | null, what: string): void {
  if (data) throw unimplemented(`${what}: per-colour meter counters (meter_counter_data) are not supported by this switch; leave the field unset`);
}
