/**
 * A port's transmit rate: packets per second (what BMv2's set_queue_rate
 * takes) or bits per second (what a link's bandwidth is). Written as
 * `1000pps`, `2.5kpps`, `10Mbps`, `1Gbps`; a bare number is packets/s.
 * Prefixes k, M, G are powers of 1000 and case-insensitive (a milli-rate
 * makes no sense, so `10mbps` means 10 Mbit/s, as people type it).
 */
import { QUEUE_ERROR_CODES, QueueError } from './queue-error.js';

export interface PortRate {
  readonly unit: 'pps' | 'bps';
  /** Packets or bits per second; finite and > 0. */
  readonly value: number;
}

/** Above this a rate is a typo: 10^12 packets or bits per second. */
const MAX_RATE = 1e12;

const EXPONENT: Record<string, number> = { '': 0, k: 3, m: 6, g: 9 };

/** Checks a rate given as a value (the device's API); throws QueueError (QUEUE_RATE_RANGE). */
export function checkPortRate(rate: PortRate): PortRate {
  if ((rate.unit !== 'pps' && rate.unit !== 'bps') || !Number.isFinite(rate.value) || rate.value <= 0 || rate.value > MAX_RATE) {
    throw new QueueError(
      QUEUE_ERROR_CODES.rateRange,
      `a port rate must be more than 0 and at most 1e12 packets or bits per second, not ${String(rate.value)} ${String(rate.unit)}; to remove a port's rate, set it to unlimited`,
    );
  }
  return rate;
}

/** Parses `1000pps`, `10Mbps`, `2.5kpps`, `500` (packets/s) or `unlimited`; throws QueueError. */
export function parsePortRate(text: string): PortRate | 'unlimited' {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'unlimited') return 'unlimited';
  const match = /^(\d+(?:\.\d+)?)(?:([kKmMgG]?)(pps|bps))?$/.exec(trimmed);
  if (!match) {
    throw new QueueError(QUEUE_ERROR_CODES.rateSyntax, `"${text}" is not a rate: write packets/s as 1000pps or 2.5kpps, bits/s as 10Mbps or 1Gbps, a bare number for packets/s, or unlimited`);
  }
  // Through the decimal string so that 0.1kpps is exactly 100.
  const value = Number(`${match[1]!}e${EXPONENT[(match[2] ?? '').toLowerCase()]!}`);
  return checkPortRate({ unit: match[3] === 'bps' ? 'bps' : 'pps', value });
}

/** The shortest faithful spelling: `1000pps`, `10Mbps`. */
export function formatPortRate(rate: PortRate | undefined): string {
  if (rate === undefined) return 'unlimited';
  for (const [prefix, exp] of [['G', 9], ['M', 6], ['k', 3]] as const) {
    const scaled = rate.value / 10 ** exp;
    if (scaled >= 1 && Number.isInteger(scaled)) return `${scaled}${prefix}${rate.unit}`;
  }
  return `${rate.value}${rate.unit}`;
}

/** How much of the rate one packet of `bytes` uses: 1 packet, or its bits. */
export function workOf(rate: PortRate, bytes: number): number {
  return rate.unit === 'pps' ? 1 : bytes * 8;
}
