/**
 * The part of a job spec only OmniReduce has (docs/omnireduce.md): where it
 * aggregates — host aggregators (as in the paper) or a switch running
 * p4/omnireduce.p4, with the host aggregators, when given, as what runs where
 * no switch can — the zero threshold, and the aggregator shards, each a host
 * that owns a range of the job's slots.
 *
 * The job's `pool_size` is its slot count S (block b goes to slot b mod S)
 * and `elements_per_packet` its block size. `parameter_server` remains the
 * short form of one shard that owns every slot.
 */
import { ControllerErrorCode as C } from './errors.js';
import type { KeyStyle } from './job-fields.js';
import { readPlace } from './job-fields.js';
import { jsonPath, ObjectReader } from './json-reader.js';
import { OMNIREDUCE_AGGREGATORS, type JobEndpoint, type OmniReduceJobOptions, type OmniReduceShard } from './job.js';

/** The block of OmniReduce's DPDK build: the job's default elements per packet. */
export const OMNIREDUCE_DEFAULT_BLOCK = 256;
/** omnireduce.p4's block as shipped (OMNIREDUCE_BLOCK): the default of a job that prefers the switch. */
export const OMNIREDUCE_SWITCH_BLOCK = 64;
/** Slots of a job whose spec gives neither pool_size nor shards. */
export const OMNIREDUCE_DEFAULT_SLOTS = 64;


const OMNIREDUCE_FIELDS = ['aggregator', 'zero_threshold', 'shards'];
const SHARD_FIELDS = ['host', 'ip', 'udp_port', 'slots'];

/**
 * The `omnireduce` object of an OmniReduce job, defaults filled in; reports
 * a stray one on another algorithm. `poolSize` is the slot count the spec
 * gives (undefined: none, and then the shards' slots set it); `ps` the
 * parameter server, the one-shard short form, which owns every slot.
 */
export function readOmniReduceOptions(
  job: ObjectReader,
  style: KeyStyle,
  isOmniReduce: boolean,
  poolSize: number | undefined,
  ps: JobEndpoint | undefined,
): OmniReduceJobOptions | undefined {
  const k = style.key;
  if (!isOmniReduce) {
    if (job.has('omnireduce')) job.log.add(C.JOB_UNKNOWN_FIELD, job.at('omnireduce'), '"omnireduce" is for OmniReduce jobs only; remove it or set "algorithm": "omnireduce"');
    return undefined;
  }
  const r = job.has('omnireduce') ? job.object('omnireduce', '"omnireduce"') : undefined;
  if (job.has('omnireduce') && !r) return undefined;
  const before = job.log.problems.length;
  r?.rejectUnknown(OMNIREDUCE_FIELDS.map(k), '"omnireduce"');
  const aggregator = r?.oneOf('aggregator', OMNIREDUCE_AGGREGATORS) ?? 'hosts';
  const zeroThreshold = r?.number(k('zero_threshold'), 0, Number.MAX_VALUE) ?? 0;
  const shards = r?.has('shards') ? readShards(r, style, poolSize, ps) : ps ? [{ ...ps, firstSlot: 0, slotCount: poolSize ?? OMNIREDUCE_DEFAULT_SLOTS }] : [];
  if (job.log.problems.length > before || shards === undefined) return undefined;
  if (aggregator === 'hosts' && shards.length === 0) {
    job.log.add(
      C.JOB_NEEDS_PARAMETER_SERVER,
      job.at(k('parameter_server')),
      `OmniReduce aggregates on hosts here; add ${k('parameter_server')}: { "host": "h5", "${k('udp_port')}": 48880 } (one aggregator) or "omnireduce": { "shards": [...] }, or set "aggregator": "switch"`,
    );
    return undefined;
  }
  return { aggregator, zeroThreshold, shards };
}

/** The shards, each with its slot range; their slots must add up to the pool size. */
function readShards(r: ObjectReader, style: KeyStyle, poolSize: number | undefined, ps: JobEndpoint | undefined): OmniReduceShard[] | undefined {
  const k = style.key;
  const list = r.array('shards');
  if (list === undefined) return undefined;
  if (ps) {
    r.log.add(C.JOB_BAD_VALUE, r.at('shards'), `give the aggregators either as ${k('parameter_server')} (one) or as "shards", not both`);
    return undefined;
  }
  if (list.length === 0) {
    r.log.add(C.JOB_BAD_VALUE, r.at('shards'), 'list at least one aggregator shard, or leave "shards" out');
    return undefined;
  }
  const shards: OmniReduceShard[] = [];
  let next = 0;
  list.forEach((value, index) => {
    const sr = ObjectReader.of(value, jsonPath(r.at('shards'), index), r.log, style.codes, 'an aggregator shard');
    if (!sr) return;
    sr.rejectUnknown(SHARD_FIELDS.map(k), 'an aggregator shard');
    sr.require('slots', 'give "slots": how many of the job\'s slots this aggregator owns');
    const place = readPlace(sr, style, 'an aggregator shard');
    const slots = sr.integer('slots', 1, 0x8000, ' (slots this aggregator owns)');
    if (slots === undefined || place.udpPort === undefined || (place.host === undefined && place.ip === undefined)) return;
    shards.push({ host: place.host, ip: place.ip, udpPort: place.udpPort, firstSlot: next, slotCount: slots });
    next += slots;
  });
  if (shards.length !== list.length) return undefined;
  if (next > 0x8000) {
    r.log.add(C.JOB_BAD_VALUE, r.at('shards'), `the shards own ${next} slots in all; the 15-bit slot field allows 32768`);
    return undefined;
  }
  if (poolSize !== undefined && next !== poolSize) {
    r.log.add(C.JOB_BAD_VALUE, r.at('shards'), `the shards own ${next} slots in all but the job's ${k('pool_size')} is ${poolSize}; make them equal (block b goes to slot b mod ${k('pool_size')})`);
    return undefined;
  }
  return shards;
}
