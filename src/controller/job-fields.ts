/**
 * The parts of a job spec with structure of their own: the worker list
 * (ranks exactly 0..n−1, no two workers on one address and port), the
 * parameter server, and the timeouts. Keys are named through a KeyStyle so
 * the JSON (snake_case) and TypeScript (camelCase) forms share this code.
 */
import { parseIpv4, parseMac, type Parsed } from './address-text.js';
import { ControllerErrorCode as C } from './errors.js';
import { jsonPath, ObjectReader, type ReaderCodes } from './json-reader.js';
import { DEFAULT_TIMEOUTS, MAX_JOB_WORKERS, type JobEndpoint, type JobTimeouts, type JobWorker } from './job.js';

export interface KeyStyle {
  /** The key as written in this style, from its snake_case name. */
  readonly key: (snake: string) => string;
  readonly codes: ReaderCodes;
}

const WORKER_FIELDS = ['rank', 'host', 'ip', 'mac', 'udp_port'];
const ENDPOINT_FIELDS = ['host', 'ip', 'udp_port'];
const TIMEOUT_FIELDS = ['timeout_ms', 'backoff_factor', 'min_timeout_ms', 'max_timeout_ms', 'max_retries'];

function address(r: ObjectReader, key: string, parse: (text: string) => Parsed<number>): number | undefined {
  const text = r.text(key);
  if (text === undefined) return undefined;
  const parsed = parse(text);
  if (!parsed.ok) r.log.add(C.JOB_BAD_ADDRESS, r.at(key), parsed.why);
  return parsed.ok ? parsed.value : undefined;
}

/** host and/or ip, and the UDP port, of a worker or a service. */
export function readPlace(r: ObjectReader, style: KeyStyle, what: string): { host: string | undefined; ip: number | undefined; udpPort: number | undefined } {
  const k = style.key;
  if (!r.has('host') && !r.has('ip')) {
    r.log.add(C.JOB_MISSING_FIELD, r.path, `${what} needs "host" (a topology host) or "ip" (its address)`);
  }
  r.require(k('udp_port'), `give the UDP port ${what} receives on`);
  return { host: r.text('host'), ip: address(r, 'ip', parseIpv4), udpPort: r.integer(k('udp_port'), 1, 65535) };
}

export function readWorkers(job: ObjectReader, style: KeyStyle): JobWorker[] | undefined {
  const k = style.key;
  const list = job.array('workers');
  if (list === undefined) return undefined;
  const before = job.log.problems.length;
  if (list.length === 0 || list.length > MAX_JOB_WORKERS) {
    job.log.add(C.JOB_BAD_VALUE, job.at('workers'), `a job has 1 to ${MAX_JOB_WORKERS} workers, not ${list.length}`);
    return undefined;
  }
  const workers: JobWorker[] = [];
  list.forEach((value, index) => {
    const r = ObjectReader.of(value, jsonPath(job.at('workers'), index), job.log, style.codes, 'a worker');
    if (!r) return;
    r.rejectUnknown(WORKER_FIELDS.map(k), 'a worker');
    r.require('rank', 'give the worker\'s rank, 0 to (number of workers − 1)');
    const rank = r.integer('rank', 0, list.length - 1, ` (ranks are 0..n−1 for the job's ${list.length} workers)`);
    const place = readPlace(r, style, 'a worker');
    const mac = address(r, 'mac', parseMac);
    if (rank === undefined || place.udpPort === undefined) return;
    workers.push({ rank, host: place.host, ip: place.ip, mac, udpPort: place.udpPort, index });
  });
  if (job.log.problems.length > before) return undefined;
  const byRank = new Map<number, JobWorker>();
  const byPlace = new Map<string, JobWorker>();
  for (const w of workers) {
    const at = jsonPath(job.at('workers'), w.index);
    const same = byRank.get(w.rank);
    if (same) job.log.add(C.JOB_BAD_RANKS, jsonPath(at, 'rank'), `rank ${w.rank} is also the rank of workers[${same.index}]; each rank 0..${workers.length - 1} must appear once`);
    else byRank.set(w.rank, w);
    const place = `${w.host ?? w.ip}:${w.udpPort}`;
    const twin = byPlace.get(place);
    if (twin) {
      job.log.add(C.JOB_DUPLICATE_WORKER, at, `workers[${twin.index}] already receives on the same ${w.host === undefined ? 'address' : 'host'} and UDP port ${w.udpPort}; give each worker its own port`);
    } else byPlace.set(place, w);
  }
  if (job.log.problems.length > before) return undefined;
  return workers.sort((x, y) => x.rank - y.rank);
}

export function readEndpoint(job: ObjectReader, style: KeyStyle, key: string): JobEndpoint | undefined {
  const r = job.object(key, `"${key}"`);
  if (!r) return undefined;
  r.rejectUnknown(ENDPOINT_FIELDS.map(style.key), `"${key}"`);
  const place = readPlace(r, style, `"${key}"`);
  if (place.udpPort === undefined || (place.host === undefined && place.ip === undefined)) return undefined;
  return { host: place.host, ip: place.ip, udpPort: place.udpPort };
}

export function readTimeouts(job: ObjectReader, style: KeyStyle): JobTimeouts | undefined {
  const k = style.key;
  if (!job.has('timeouts')) return DEFAULT_TIMEOUTS;
  const r = job.object('timeouts', '"timeouts"');
  if (!r) return undefined;
  const before = r.log.problems.length;
  r.rejectUnknown(TIMEOUT_FIELDS.map(k), '"timeouts"');
  const d = DEFAULT_TIMEOUTS;
  const day = 86_400_000;
  const timeouts: JobTimeouts = {
    timeoutMs: r.number(k('timeout_ms'), 0.001, day, ' ms') ?? d.timeoutMs,
    backoffFactor: r.number(k('backoff_factor'), 1, 16) ?? d.backoffFactor,
    minTimeoutMs: r.number(k('min_timeout_ms'), 0.001, day, ' ms') ?? d.minTimeoutMs,
    maxTimeoutMs: r.number(k('max_timeout_ms'), 0.001, day, ' ms') ?? d.maxTimeoutMs,
    maxRetries: r.integer(k('max_retries'), 0, 1_000_000) ?? d.maxRetries,
  };
  if (r.log.problems.length > before) return undefined;
  if (timeouts.maxTimeoutMs < timeouts.minTimeoutMs) {
    r.log.add(C.JOB_BAD_VALUE, r.at(k('max_timeout_ms')), `${k('max_timeout_ms')} (${timeouts.maxTimeoutMs}) is below ${k('min_timeout_ms')} (${timeouts.minTimeoutMs}); raise it`);
    return undefined;
  }
  if (timeouts.maxTimeoutMs < timeouts.timeoutMs) {
    r.log.add(C.JOB_BAD_VALUE, r.at(k('max_timeout_ms')), `${k('max_timeout_ms')} (${timeouts.maxTimeoutMs}) is below ${k('timeout_ms')} (${timeouts.timeoutMs}); raise it`);
    return undefined;
  }
  return timeouts;
}
