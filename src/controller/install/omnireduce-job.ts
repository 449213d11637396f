/**
 * Setting up and tearing down one OmniReduce job at the switch that
 * aggregates it with p4/omnireduce.p4 (docs/p4-programs.md §5, "What the
 * controller installs per job"). Only `"aggregator": "switch"` plans hold
 * switch state; with host aggregators there is nothing to install.
 *
 * Setup: check that the switch runs omnireduce.p4 with the job's block size
 * (elements_per_packet) and at least its slots (INSTALL_PIPELINE_MISMATCH
 * otherwise); allocate a slot range (the job's pool size) and a multicast
 * group (a CapacityError means nothing was taken and nothing is written);
 * refuse workers whose IPv4 address and UDP port are another job's workers
 * there (INSTALL_WORKER_TAKEN: omnireduce_workers is keyed by them alone);
 * decide about reused cells (dirty-cells.ts); then write, each step its own
 * Write: the group, the reply_rewrite entries, the omnireduce_workers
 * entries, the cells an earlier job used cleared, and last the
 * omnireduce_jobs entry, which switches the job on, so that no round
 * completes before its reply can be addressed. Every update that succeeded
 * is journalled; a failure undoes it all and releases the allocation.
 *
 * Teardown is the reverse: omnireduce_jobs first (the job's messages are
 * then dropped as of no job), workers and rewrites, then the group; entries
 * already gone (NOT_FOUND) are not an error. The slots were recorded as used
 * at setup, so the next job on them gets them cleared.
 */
import { table } from '../../p4runtime/index.js';
import { ipv4ToText } from '../../wire/index.js';
import type { JobAllocation } from '../capacity.js';
import { jobDemand } from '../job-demand.js';
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import { allocateAvoidingDirtyCells, switchesToClear } from './dirty-cells.js';
import { tableEntryKey } from './entity-signature.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import { removeJobEntities, writeJobEntities } from './job-entity-writes.js';
import { OMNIREDUCE_NAMES, omniReduceCellResets } from './omnireduce-entries.js';
import { omniReduceEntriesAt, omniReducePoint, type OmniReduceEntriesAt } from './omnireduce-job-on-switch.js';
import { actionParam } from './switch-state-read.js';
import type { SwitchSession } from './switch-session.js';
import type { JobContext } from './switchml-job.js';

/** Where omnireduce.p4 keeps a round's block: OMNIREDUCE_BLOCK values per cell, two cells per slot. */
const OMNIREDUCE_VALUES = 'ingress.omnireduce.round.values';
/** The registers an operator clears by hand where the installer cannot (messages only). */
const OMNIREDUCE_CELL_REGISTERS = 'seen and remaining';
/** The block sizes omnireduce.p4 compiles with (omnireduce_headers.p4). */
const isProgramBlock = (n: number): boolean => Number.isInteger(n) && n >= 8 && n <= 128 && n % 8 === 0;

/** SwitchML's context without its entry options: OmniReduce's entries come from the plan alone. */
export type OmniReduceJobContext = Omit<JobContext, 'entryOptions'>;

export interface OmniReduceInstalledJob {
  readonly algorithm: 'omnireduce';
  /** Undefined for a job found on a switch that no spec asked for (reconcile's "foreign"). */
  readonly spec: JobSpec | undefined;
  readonly plan: RolloutPlan | undefined;
  readonly allocation: JobAllocation;
  /** What was written at the aggregating switch: exactly what teardown removes. */
  readonly switches: readonly OmniReduceEntriesAt[];
  /** Register cells set to 0 before the job was switched on. */
  readonly cellsCleared: number;
}

/** The switch's session, checked against the job: omnireduce.p4's tables, its block size, slots enough for the pool. */
function checkedSession(ctx: OmniReduceJobContext, spec: JobSpec, sw: string): SwitchSession {
  const session = ctx.sessions.get(sw);
  if (!session) throw new InstallError(E.INSTALL_UNKNOWN_SWITCH, `OmniReduce job ${spec.id} aggregates here, but the installer has no P4Runtime session with this switch`, sw);
  const mismatch = (why: string): InstallError => new InstallError(E.INSTALL_PIPELINE_MISMATCH, `OmniReduce job ${spec.id} aggregates here, but ${why}`, sw);
  const { tables, registers } = session.schema;
  const seen = registers.find(OMNIREDUCE_NAMES.seen);
  const values = registers.find(OMNIREDUCE_VALUES);
  if (![OMNIREDUCE_NAMES.jobs, OMNIREDUCE_NAMES.workers, OMNIREDUCE_NAMES.rewrite].every((t) => tables.find(t)) || !seen || !values || !registers.find(OMNIREDUCE_NAMES.remaining)) {
    throw mismatch(
      `the switch's program is not omnireduce.p4 (it lacks ${OMNIREDUCE_NAMES.jobs}, ${OMNIREDUCE_NAMES.workers}, ${OMNIREDUCE_NAMES.rewrite} or the rounds' registers); run p4/omnireduce.p4 on it, mark it "ina": false, or set "omnireduce": { "aggregator": "hosts" }`,
    );
  }
  const block = values.size / seen.size;
  if (block !== spec.elementsPerPacket) {
    const fix = isProgramBlock(spec.elementsPerPacket) ? `, or compile omnireduce.p4 with -DOMNIREDUCE_BLOCK=${spec.elementsPerPacket}` : ' (omnireduce.p4 takes blocks of 8 to 128 values, in steps of 8)';
    throw mismatch(`its omnireduce.p4 adds blocks of ${block} values and the job's are ${spec.elementsPerPacket}; set elements_per_packet to ${block}${fix}`);
  }
  const slots = Math.floor(seen.size / 2);
  if (slots < spec.poolSize) {
    throw mismatch(`its omnireduce.p4 has ${slots} slots and the job's pool_size is ${spec.poolSize}; lower pool_size to at most ${slots}, or compile omnireduce.p4 with -DOMNIREDUCE_SLOTS=${spec.poolSize}`);
  }
  return session;
}

/** INSTALL_WORKER_TAKEN when a worker's (IPv4 address, UDP port) is another job's on the switch. */
async function checkWorkersFree(session: SwitchSession, spec: JobSpec, entries: OmniReduceEntriesAt): Promise<void> {
  const held = new Map((await session.readAll(table(OMNIREDUCE_NAMES.workers))).map((e) => [tableEntryKey(session.schema, e), actionParam(e, 'job_id')]));
  // The builder lists workers by rank, and ranks are 0..n−1.
  const taken = entries.workers.flatMap((w, rank) => {
    const owner = held.get(tableEntryKey(session.schema, w));
    return owner === undefined || owner === spec.id ? [] : [`rank ${rank} (${ipv4ToText(Number(w.match.src_addr))}:${String(w.match.src_port)}) is job ${owner}'s`];
  });
  if (taken.length > 0) {
    throw new InstallError(
      E.INSTALL_WORKER_TAKEN,
      `OmniReduce job ${spec.id}'s worker ${taken.join('; worker ')}; omnireduce.p4 tells workers apart by IPv4 address and UDP port alone, so give this job's workers other udp_ports, or tear the other job down first`,
      session.name,
    );
  }
}

/** Installs the job at its switch, or nothing (see the file comment). */
export async function setupOmniReduceJob(ctx: OmniReduceJobContext, spec: JobSpec, plan: RolloutPlan): Promise<OmniReduceInstalledJob> {
  const point = omniReducePoint(plan);
  if (!point) throw new InstallError(E.INSTALL_NOTHING_TO_INSTALL, `OmniReduce job ${spec.id} aggregates on no switch (${plan.runs} runs on hosts); there is nothing to install`);
  const session = checkedSession(ctx, spec, point.switch);
  const allocation = allocateAvoidingDirtyCells(ctx, [session], jobDemand(plan), OMNIREDUCE_CELL_REGISTERS);
  const at = allocation.switches.find((a) => a.switch === point.switch)!;
  let entries: OmniReduceEntriesAt;
  let dirty: Set<string>;
  try {
    dirty = switchesToClear(ctx.cells, ctx.sessions, allocation, OMNIREDUCE_CELL_REGISTERS);
    entries = omniReduceEntriesAt(ctx.topology, spec, point, at);
    await checkWorkersFree(session, spec, entries);
  } catch (err) {
    ctx.allocator.release(spec.id);
    throw err;
  }
  const cellsCleared = await writeJobEntities(ctx, spec.id, [entries], dirty, () => omniReduceCellResets(at));
  ctx.cells.markUsed(at.switch, at.slotBase, at.slots);
  ctx.log.info({ job: spec.id, switch: at.switch, slotBase: at.slotBase, slots: at.slots, cellsCleared }, 'OmniReduce job installed');
  return { algorithm: 'omnireduce', spec, plan, allocation, switches: [entries], cellsCleared };
}

/** Removes what the job installed and releases its capacity. */
export async function teardownOmniReduceJob(ctx: OmniReduceJobContext, job: Pick<OmniReduceInstalledJob, 'allocation' | 'switches'>): Promise<void> {
  for (const e of job.switches) await removeJobEntities(ctx.sessions, e);
  if (ctx.allocator.has(job.allocation.jobId)) ctx.allocator.release(job.allocation.jobId);
  ctx.log.info({ job: job.allocation.jobId }, 'OmniReduce job removed');
}
