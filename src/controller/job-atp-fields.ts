/**
 * The parts of a job spec only ATP has (docs/atp.md): the `atp` object
 * (window positions, initial window, value range, ECN threshold, reclaim
 * time, by default 1 s or the longest resend timeout if that is longer) and ATP's rules on fields every job has: a job id other than 0 (an
 * owner tag of 0 marks a free aggregator), a pool of up to 65536 aggregators,
 * and UDP ports in the ATP block for the workers and the parameter server,
 * since switches recognise ATP packets and ACKs by their destination port.
 * The spec is the same at every rollout stage, so the ports are required even
 * where no switch aggregates yet.
 */
import { ATP_PORTS } from '../wire/index.js';
import {
  ATP_DEFAULT_RECLAIM_MS,
  ATP_DEFAULT_VALUE_RANGE,
  ATP_DEFAULT_WINDOW,
  ATP_ECN_THRESHOLD_OFF,
  ATP_MAX_POOL,
  ATP_MAX_RECLAIM_MS,
  ATP_MAX_WINDOW,
  isAtpPort,
} from './atp-limits.js';
import { ControllerErrorCode as C } from './errors.js';
import type { KeyStyle } from './job-fields.js';
import { jsonPath, type ObjectReader } from './json-reader.js';
import type { AtpJobOptions, JobEndpoint, JobTimeouts, JobWorker } from './job.js';

const ATP_FIELDS = ['window', 'initial_window', 'value_range', 'ecn_threshold', 'reclaim_ms', 'pool_base'];

function positive(r: ObjectReader, key: string): number | undefined {
  const v = r.number(key, 0, Number.MAX_VALUE);
  if (v !== 0) return v;
  r.log.add(C.JOB_BAD_VALUE, r.at(key), `"${key}" must be above 0: the largest magnitude sent as fixed point`);
  return undefined;
}

/**
 * The `atp` object of an ATP job, defaults filled in; reports a stray `atp` on another algorithm.
 * `poolSize` (undefined when it was bad) bounds `pool_base`: the job's range must fit the 16-bit index.
 */
export function readAtpOptions(job: ObjectReader, style: KeyStyle, isAtp: boolean, timeouts: JobTimeouts | undefined, poolSize: number | undefined): AtpJobOptions | undefined {
  const k = style.key;
  if (!isAtp) {
    if (job.has('atp')) job.log.add(C.JOB_UNKNOWN_FIELD, job.at('atp'), '"atp" is for ATP jobs only; remove it or set "algorithm": "atp"');
    return undefined;
  }
  // By default the reclaim time covers the longest resend timeout too (when that fits the 60 s limit).
  const reclaimMs = Math.max(ATP_DEFAULT_RECLAIM_MS, Math.min(Math.ceil(timeouts?.maxTimeoutMs ?? 0), ATP_MAX_RECLAIM_MS));
  const defaults: AtpJobOptions = { window: ATP_DEFAULT_WINDOW, initialWindow: undefined, valueRange: ATP_DEFAULT_VALUE_RANGE, ecnThreshold: undefined, reclaimMs, poolBase: 0 };
  const r = job.has('atp') ? job.object('atp', '"atp"') : undefined;
  if (job.has('atp') && !r) return undefined;
  const before = job.log.problems.length;
  r?.rejectUnknown(ATP_FIELDS.map(k), '"atp"');
  const window = r?.integer('window', 1, ATP_MAX_WINDOW, ' (window positions; sequence numbers are 16 bits)') ?? defaults.window;
  const options: AtpJobOptions = r
    ? {
        window,
        initialWindow: r.integer(k('initial_window'), 1, window, ' (at most the window)'),
        valueRange: positive(r, k('value_range')) ?? defaults.valueRange,
        ecnThreshold: r.integer(k('ecn_threshold'), 0, ATP_ECN_THRESHOLD_OFF - 1, ' packets (the 19-bit threshold; its largest value means no marking)'),
        reclaimMs:
          r.integer(k('reclaim_ms'), 1, ATP_MAX_RECLAIM_MS, ' ms (leftovers must be reclaimed, and within the 65.5 s a generation lasts)') ?? defaults.reclaimMs,
        poolBase:
          r.integer(k('pool_base'), 0, ATP_MAX_POOL - (poolSize ?? 1), ` (the job's aggregators pool_base..pool_base + pool_size − 1 must be below ${ATP_MAX_POOL})`) ?? defaults.poolBase,
      }
    : defaults;
  if (job.log.problems.length > before) return undefined;
  if (timeouts && options.reclaimMs < timeouts.maxTimeoutMs) {
    job.log.add(
      C.JOB_BAD_VALUE,
      jsonPath(job.at('atp'), k('reclaim_ms')),
      `${k('reclaim_ms')} (${options.reclaimMs}${r?.has(k('reclaim_ms')) ? '' : ', the default'}) is below the workers' longest resend timeout (${k('max_timeout_ms')} ${timeouts.maxTimeoutMs}): an aggregate waiting for a resend would be taken for a leftover; raise it`,
    );
    return undefined;
  }
  return options;
}

/** ATP's rules on the job id and on the workers' and the parameter server's UDP ports. */
export function checkAtpFields(job: ObjectReader, style: KeyStyle, id: number | undefined, workers: readonly JobWorker[] | undefined, ps: JobEndpoint | undefined): void {
  const k = style.key;
  const block = `${ATP_PORTS.first}..${ATP_PORTS.last} (0x${ATP_PORTS.first.toString(16)}..0x${ATP_PORTS.last.toString(16)})`;
  if (id === 0) job.log.add(C.JOB_BAD_VALUE, job.at(k('id')), 'an ATP job id is 1..65535: an owner tag of 0 marks a free aggregator');
  for (const w of workers ?? []) {
    if (!isAtpPort(w.udpPort)) {
      job.log.add(C.JOB_BAD_VALUE, jsonPath(jsonPath(job.at('workers'), w.index), k('udp_port')), `an ATP worker receives ACKs on a port in ${block}, where switches recognise them; not ${w.udpPort}`);
    }
  }
  if (ps && !isAtpPort(ps.udpPort)) {
    job.log.add(C.JOB_BAD_VALUE, jsonPath(job.at(k('parameter_server')), k('udp_port')), `the ATP parameter server listens on a port in ${block}, where switches recognise contributions; not ${ps.udpPort}`);
  }
}
