/**
 * The reference switch's job and worker tables: what the controller installs
 * per job (slot base, pool size, worker count; one worker entry per worker id
 * with its bitmap bit). Checked when installed, so that a test cannot build a
 * configuration our controller would refuse (overlapping slot ranges, a range
 * past the registers, more than 32 workers). A job may also name each
 * worker's IPv4 source and UDP source port, as the controller's
 * `accept_worker_from` entries do.
 */
import { MAX_POOL_SLOTS, SWITCHML_MAX_WORKERS } from '../../../../src/wire/index.js';

export interface ReferenceJobConfig {
  /** The job number in the packets (0..65535). */
  readonly jobId: number;
  /** The first register index of the job's slots. */
  readonly slotBase: number;
  /** Slots of the job (the workers' window). */
  readonly poolSize: number;
  /** The job's worker ids (0..31); the worker count n is their number, each worker's bit is 1 << id. */
  readonly workerIds: readonly number[];
  /**
   * The IPv4 source (a number) each worker must send from, in the order of
   * `workerIds`, as `accept_worker_from` checks it; undefined: not checked.
   */
  readonly sources?: readonly number[];
  /** With `sources`: the UDP source port of each worker, in the same order (required with `sources`). */
  readonly sourcePorts?: readonly number[];
}

export interface ReferenceJob {
  readonly jobId: number;
  readonly slotBase: number;
  readonly poolSize: number;
  readonly numWorkers: number;
  readonly workerIds: readonly number[];
  /** worker id → bitmap bit. */
  readonly bits: ReadonlyMap<number, number>;
  /** worker id → the IPv4 source and UDP source port its updates must come from; undefined: no check. */
  readonly sources: ReadonlyMap<number, { readonly ip: number; readonly port: number }> | undefined;
}

function integerIn(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${what} must be an integer in ${min}..${max}, not ${value}`);
}

/** Checks a job against the registers and the jobs already installed; returns its table entries. */
export function registerJob(config: ReferenceJobConfig, installed: ReadonlyMap<number, ReferenceJob>, capacity: number): ReferenceJob {
  integerIn(config.jobId, 0, 0xffff, 'jobId');
  integerIn(config.poolSize, 1, MAX_POOL_SLOTS, `job ${config.jobId} poolSize`);
  integerIn(config.slotBase, 0, capacity - config.poolSize, `job ${config.jobId} slotBase (its ${config.poolSize} slots must fit ${capacity} registers)`);
  if (installed.has(config.jobId)) throw new RangeError(`job ${config.jobId} is already installed`);
  const ids = config.workerIds;
  if (ids.length < 1 || ids.length > SWITCHML_MAX_WORKERS) throw new RangeError(`job ${config.jobId} needs 1..${SWITCHML_MAX_WORKERS} workers, not ${ids.length}`);
  const bits = new Map<number, number>();
  for (const id of ids) {
    integerIn(id, 0, SWITCHML_MAX_WORKERS - 1, `job ${config.jobId} worker id`);
    if (bits.has(id)) throw new RangeError(`job ${config.jobId} lists worker ${id} twice`);
    bits.set(id, (1 << id) >>> 0);
  }
  if (config.sources !== undefined && config.sources.length !== ids.length) {
    throw new RangeError(`job ${config.jobId} names ${config.sources.length} sources for ${ids.length} workers`);
  }
  if (config.sources !== undefined && config.sourcePorts?.length !== ids.length) {
    throw new RangeError(`job ${config.jobId} checks sources: it needs a UDP source port for each of its ${ids.length} workers`);
  }
  for (const port of config.sourcePorts ?? []) integerIn(port, 0, 0xffff, `job ${config.jobId} source port`);
  const sources = config.sources === undefined ? undefined : new Map(ids.map((id, i) => [id, { ip: config.sources![i]! >>> 0, port: config.sourcePorts![i]! }]));
  for (const other of installed.values()) {
    if (config.slotBase < other.slotBase + other.poolSize && other.slotBase < config.slotBase + config.poolSize) {
      throw new RangeError(
        `job ${config.jobId}'s slots ${config.slotBase}..${config.slotBase + config.poolSize - 1} overlap job ${other.jobId}'s ${other.slotBase}..${other.slotBase + other.poolSize - 1}`,
      );
    }
  }
  return { jobId: config.jobId, slotBase: config.slotBase, poolSize: config.poolSize, numWorkers: ids.length, workerIds: [...ids], bits, sources };
}
