/**
 * Reading and validating job specs, from JSON (snake_case keys) or from
 * TypeScript (camelCase keys): one reader, two key styles, so both forms
 * accept and refuse exactly the same specs and messages name the key as the
 * user wrote it. Every problem is reported at once.
 */
import { readFile } from 'node:fs/promises';
import { SWITCHML_DEFAULT_ELEMENTS } from '../wire/index.js';
import { MAX_JOB_SLOTS } from './capacity-limits.js';
import { ControllerError, ControllerErrorCode as C, ProblemLog } from './errors.js';
import { ObjectReader } from './json-reader.js';
import { ATP_DEFAULT_POOL, ATP_MAX_POOL } from './atp-limits.js';
import { checkAtpFields, readAtpOptions } from './job-atp-fields.js';
import { OMNIREDUCE_DEFAULT_BLOCK, OMNIREDUCE_DEFAULT_SLOTS, OMNIREDUCE_SWITCH_BLOCK, readOmniReduceOptions } from './job-omnireduce-fields.js';
import { readEndpoint, readTimeouts, readWorkers, type KeyStyle } from './job-fields.js';
import {
  ALGORITHMS,
  DEFAULT_POOL_SIZE,
  FALLBACKS,
  maxElementsPerPacket,
  MTU,
  type Algorithm,
  type Fallback,
  type JobSpec,
  type JobSpecInput,
} from './job.js';

// OmniReduce's aggregators are its own business (job-omnireduce-fields.ts).
const needsParameterServer = (algorithm: Algorithm, fallback: Fallback): boolean =>
  algorithm === 'ps' || algorithm === 'atp' || (fallback === 'ps' && (algorithm === 'switchml' || algorithm === 'rina' || algorithm === 'omnireduce'));

const JOB_FIELDS = ['id', 'name', 'algorithm', 'workers', 'pool_size', 'elements_per_packet', 'timeouts', 'fallback', 'parameter_server', 'atp', 'omnireduce'];

function readJob(value: unknown, style: KeyStyle, source: string | undefined): JobSpec {
  const log = new ProblemLog();
  const r = ObjectReader.of(value, '$', log, style.codes, 'a job spec');
  if (!r) return failed(log, source);
  const k = style.key;
  r.rejectUnknown(JOB_FIELDS.map(k), 'a job spec');
  r.require(k('id'), 'give the job number (0..65535) that its packets carry');
  r.require(k('algorithm'), `choose one of ${ALGORITHMS.join(', ')}`);
  r.require(k('workers'), 'list the workers, e.g. [{ "rank": 0, "host": "h1", "udp_port": 48864 }]');
  const id = r.integer(k('id'), 0, 0xffff, ' (the 16-bit job_id of the INA headers)');
  const name = r.text(k('name'));
  const algorithm = r.oneOf(k('algorithm'), ALGORITHMS);
  const workers = readWorkers(r, style);
  const isAtp = algorithm === 'atp';
  const isOmniReduce = algorithm === 'omnireduce';
  // ATP hashes over a shared pool (16-bit aggregator indices); SwitchML reserves a range (15-bit slot indices).
  const poolSize = isAtp
    ? (r.integer(k('pool_size'), 1, ATP_MAX_POOL, ' (aggregators of the shared pool, a 16-bit index)') ?? (r.has(k('pool_size')) ? undefined : ATP_DEFAULT_POOL))
    : (r.integer(k('pool_size'), 1, MAX_JOB_SLOTS, ' (a 15-bit slot index)') ?? (r.has(k('pool_size')) ? undefined : isOmniReduce ? OMNIREDUCE_DEFAULT_SLOTS : DEFAULT_POOL_SIZE));
  const maxElements = maxElementsPerPacket(algorithm ?? 'switchml');
  const elements =
    r.integer(k('elements_per_packet'), 1, maxElements, ` (a ${algorithm ?? 'switchml'} packet must fit a ${MTU}-byte MTU)`) ??
    (r.has(k('elements_per_packet')) ? undefined : isOmniReduce ? OMNIREDUCE_DEFAULT_BLOCK : SWITCHML_DEFAULT_ELEMENTS);
  const timeouts = readTimeouts(r, style);
  const fallback = r.oneOf(k('fallback'), FALLBACKS) ?? 'ring';
  const parameterServer = readEndpoint(r, style, k('parameter_server'));
  const atp = readAtpOptions(r, style, isAtp, timeouts, poolSize);
  if (isAtp) checkAtpFields(r, style, id, workers, parameterServer);
  const omnireduce = readOmniReduceOptions(r, style, isOmniReduce, r.has(k('pool_size')) ? poolSize : undefined, parameterServer);
  if (algorithm !== undefined && needsParameterServer(algorithm, fallback) && !r.has(k('parameter_server'))) {
    const why = algorithm === 'ps' || algorithm === 'atp' ? `${algorithm} sends to a parameter server` : 'the fallback is "ps"';
    log.add(C.JOB_NEEDS_PARAMETER_SERVER, r.at(k('parameter_server')), `${why}; add ${k('parameter_server')}: { "host": "h5", "${k('udp_port')}": 48880 }`);
  }
  if (!log.empty || id === undefined || algorithm === undefined || !workers || poolSize === undefined || elements === undefined || !timeouts || (isAtp && !atp) || (isOmniReduce && !omnireduce)) {
    return failed(log, source);
  }
  // Shards listed without a pool_size set the slot count.
  const slots = omnireduce && omnireduce.shards.length > 0 && !r.has(k('pool_size')) ? omnireduce.shards.reduce((n, s) => n + s.slotCount, 0) : poolSize;
  // A job that prefers the switch gets omnireduce.p4's shipped block unless it names one.
  const block = omnireduce?.aggregator === 'switch' && !r.has(k('elements_per_packet')) ? OMNIREDUCE_SWITCH_BLOCK : elements;
  return { id, name, algorithm, workers, poolSize: slots, elementsPerPacket: block, timeouts, fallback, parameterServer, atp, ...(omnireduce ? { omnireduce } : {}) };
}

function failed(log: ProblemLog, source: string | undefined): never {
  log.throwIfAny(source);
  throw new Error('unreachable: a job spec failed without a problem');
}

const JSON_STYLE: KeyStyle = {
  key: (snake) => snake,
  codes: { wrongType: C.JOB_WRONG_TYPE, missing: C.JOB_MISSING_FIELD, unknownField: C.JOB_UNKNOWN_FIELD, badValue: C.JOB_BAD_VALUE },
};
const TS_STYLE: KeyStyle = { ...JSON_STYLE, key: (snake) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) };

/** Validates a job spec given as JSON (snake_case keys). Throws ControllerError listing every problem. */
export function parseJobSpec(json: unknown, options: { sourcePath?: string } = {}): JobSpec {
  return readJob(json, JSON_STYLE, options.sourcePath);
}

/** Validates a job spec written in TypeScript (camelCase keys). */
export function defineJob(input: JobSpecInput): JobSpec {
  return readJob(input, TS_STYLE, undefined);
}

/** Reads and validates a job spec file. */
export async function loadJobSpec(path: string): Promise<JobSpec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ControllerError([{ code: C.JOB_FILE_UNREADABLE, path: '$', message: `cannot read job spec ${path}: ${(error as Error).message}` }], { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ControllerError([{ code: C.JOB_BAD_JSON, path: '$', message: `${path}: not JSON (${(error as Error).message})` }], { cause: error });
  }
  return parseJobSpec(json, { sourcePath: path });
}
