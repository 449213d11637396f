/**
 * v1model meters as BMv2 implements them (bm_sim/meters.cpp): a colour-blind
 * two-rate three-colour marker (RFC 2698) per cell, in packets or bytes.
 * Rates come in units per second as P4Runtime sends them and are kept per
 * microsecond, as BMv2's PI layer converts them. Both buckets start full.
 * Tokens are not topped up from the time since the last packet but from the
 * time since the array was made, rounded down once: BMv2 does this to avoid
 * accumulating rounding errors, and we do the same so colours match.
 *
 * Per packet, the peak bucket is checked first: short of tokens, RED; else it
 * pays, then the committed bucket: short, YELLOW; else it pays too, GREEN.
 * An unconfigured cell marks everything GREEN. The clock is injectable so
 * tests can step time.
 */
import { performance } from 'node:perf_hooks';
import { P4inaError } from '../../errors/p4ina-error.js';

export const METER_GREEN = 0;
export const METER_YELLOW = 1;
export const METER_RED = 2;
/** What v1model's execute_meter writes: GREEN 0, YELLOW 1, RED 2. */
export type MeterColor = typeof METER_GREEN | typeof METER_YELLOW | typeof METER_RED;

export type MeterUnit = 'packets' | 'bytes';

/** A two-rate configuration: rates in units per second, bursts in units (the P4Runtime MeterConfig fields). */
export interface MeterRates {
  readonly cir: number;
  readonly cburst: number;
  readonly pir: number;
  readonly pburst: number;
}

/** A monotonic clock in whole microseconds. */
export type MicrosecondClock = () => number;

export const monotonicMicros: MicrosecondClock = () => Math.floor(performance.now() * 1000);

function checkRates(r: MeterRates): void {
  for (const [name, value] of [['cir', r.cir], ['pir', r.pir], ['cburst', r.cburst], ['pburst', r.pburst]] as const) {
    if (!Number.isFinite(value) || value < 0) throw new P4inaError('METER_BAD_RATES', `meter ${name} must be a finite number >= 0, not ${value}`);
  }
  for (const [name, value] of [['cburst', r.cburst], ['pburst', r.pburst]] as const) {
    if (!Number.isInteger(value)) throw new P4inaError('METER_BAD_RATES', `meter ${name} must be a whole number of units, not ${value}`);
  }
  if (r.pir < r.cir) {
    // BMv2 refuses this too (INVALID_INFO_RATE_VALUE): the peak rate bounds the committed one.
    throw new P4inaError('METER_PEAK_BELOW_COMMITTED', `meter pir ${r.pir} is below cir ${r.cir}; the peak rate must be at least the committed rate`);
  }
}

/** One meter per cell, kept in typed arrays so large (direct) meter arrays stay compact. */
export class MeterArray {
  private readonly configs: (MeterRates | undefined)[];
  private readonly peakRate: Float64Array;
  private readonly committedRate: Float64Array;
  private readonly peakBurst: Float64Array;
  private readonly committedBurst: Float64Array;
  private readonly peakTokens: Float64Array;
  private readonly committedTokens: Float64Array;
  private readonly peakLast: Float64Array;
  private readonly committedLast: Float64Array;
  private readonly timeInit: number;

  constructor(
    readonly size: number,
    readonly unit: MeterUnit,
    private readonly clock: MicrosecondClock = monotonicMicros,
  ) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`a meter array size must be a non-negative integer, not ${size}`);
    this.configs = new Array<MeterRates | undefined>(size).fill(undefined);
    this.peakRate = new Float64Array(size);
    this.committedRate = new Float64Array(size);
    this.peakBurst = new Float64Array(size);
    this.committedBurst = new Float64Array(size);
    this.peakTokens = new Float64Array(size);
    this.committedTokens = new Float64Array(size);
    this.peakLast = new Float64Array(size);
    this.committedLast = new Float64Array(size);
    this.timeInit = clock();
  }

  /** The configuration of one cell (undefined: unconfigured, always GREEN). */
  rates(index: number): MeterRates | undefined {
    return this.configs[index];
  }

  /**
   * Configures one cell (undefined resets it to always GREEN) and fills both
   * buckets. Throws P4inaError METER_BAD_RATES or METER_PEAK_BELOW_COMMITTED;
   * RangeError for an index out of range.
   */
  configure(index: number, rates: MeterRates | undefined): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) throw new RangeError(`meter index ${index} is outside 0..${this.size - 1}`);
    if (rates !== undefined) checkRates(rates);
    this.set(index, rates);
  }

  /** Configures every cell alike (checked once). */
  configureAll(rates: MeterRates | undefined): void {
    if (rates !== undefined) checkRates(rates);
    for (let i = 0; i < this.size; i++) this.set(i, rates);
  }

  /**
   * Meters one packet of `packetBytes` (its ingress length, as BMv2 uses)
   * through cell `index`. Returns its colour, or undefined for an index out of
   * range (BMv2 then leaves the destination unchanged).
   */
  execute(index: number, packetBytes: number): MeterColor | undefined {
    if (!(index >= 0 && index < this.size)) return undefined;
    if (this.configs[index] === undefined) return METER_GREEN;
    const micros = this.clock() - this.timeInit;
    const input = this.unit === 'packets' ? 1 : packetBytes;
    if (!this.take(this.peakTokens, this.peakLast, this.peakRate[index]!, this.peakBurst[index]!, index, micros, input)) return METER_RED;
    if (!this.take(this.committedTokens, this.committedLast, this.committedRate[index]!, this.committedBurst[index]!, index, micros, input)) return METER_YELLOW;
    return METER_GREEN;
  }

  private set(index: number, rates: MeterRates | undefined): void {
    this.configs[index] = rates;
    this.peakRate[index] = rates ? rates.pir / 1e6 : 0;
    this.committedRate[index] = rates ? rates.cir / 1e6 : 0;
    this.peakBurst[index] = rates?.pburst ?? 0;
    this.committedBurst[index] = rates?.cburst ?? 0;
    this.peakTokens[index] = rates?.pburst ?? 0;
    this.committedTokens[index] = rates?.cburst ?? 0;
    this.peakLast[index] = 0;
    this.committedLast[index] = 0;
  }

  /** Tops the bucket up to now, then takes `input` tokens if it holds them. */
  private take(tokens: Float64Array, last: Float64Array, ratePerMicro: number, burst: number, i: number, micros: number, input: number): boolean {
    const sinceInit = Math.floor(micros * ratePerMicro);
    // A clock that steps back (only a fake one can) adds nothing rather than removing tokens.
    if (sinceInit > last[i]!) {
      tokens[i] = Math.min(tokens[i]! + (sinceInit - last[i]!), burst);
      last[i] = sinceInit;
    }
    if (tokens[i]! < input) return false;
    tokens[i] = tokens[i]! - input;
    return true;
  }
}
