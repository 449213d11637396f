/**
 * What one OmniReduce job needs on a switch that aggregates it with
 * p4/omnireduce.p4, as entities (docs/p4-programs.md §5, "What the
 * controller installs per job"):
 *
 *   group     PRE multicast group `multicastGroup`: one replica per worker,
 *             port = the switch's port towards it, instance = its rank
 *   rewrites  egress.reply_rewrite: (job_id, egress_rid = rank) →
 *             rewrite_reply(worker's MAC or next hop's, worker IP, UDP port)
 *   workers   ingress.omnireduce.omnireduce_workers: (worker IP, UDP port) →
 *             accept_worker(job_id, 1 << rank): the OmniReduce header names
 *             no job or worker, so the sender's address is both
 *   job       ingress.omnireduce.omnireduce_jobs: job_id →
 *             set_job(slot_base, first_slot, slot_count, worker_count, mcast_group)
 *
 * Write them in that order (the job entry switches the job on) and delete
 * them in the reverse. `omniReduceCellResets` gives the zeros for slots an
 * earlier job used. Pure: the same inputs give the same entities, so a
 * controller can compare a switch with a spec. Inputs a switch would take
 * but misroute (a worker twice, ranks not 0..n−1, a slot range past the
 * 15-bit field) throw a RangeError.
 */
import { action, multicastGroup, register, table, type MulticastGroupEntry, type RegisterEntry, type TableEntry } from '../../p4runtime/index.js';

export const OMNIREDUCE_NAMES = {
  jobs: 'ingress.omnireduce.omnireduce_jobs',
  setJob: 'ingress.omnireduce.set_job',
  workers: 'ingress.omnireduce.omnireduce_workers',
  acceptWorker: 'ingress.omnireduce.accept_worker',
  rewrite: 'egress.reply_rewrite',
  rewriteReply: 'egress.rewrite_reply',
  seen: 'ingress.omnireduce.round.seen',
  remaining: 'ingress.omnireduce.round.remaining',
} as const;

/** The seen bitmap is 32 bits wide. */
export const OMNIREDUCE_SWITCH_MAX_WORKERS = 32;

export interface OmniReduceWorkerEndpoint {
  /** The worker's rank in the job: its bit (1 << rank) and its replica's instance. */
  readonly rank: number;
  /** IPv4 address and UDP port the worker sends from and receives replies on. */
  readonly ip: number;
  readonly udpPort: number;
  /** Ethernet destination of its reply copy: its own MAC, or the next hop's. */
  readonly mac: number;
  /** The switch's port towards it. */
  readonly switchPort: number;
}

export interface OmniReduceJobOnSwitch {
  readonly jobId: number;
  readonly workers: readonly OmniReduceWorkerEndpoint[];
  /** The switch's slots slotBase .. slotBase + slotCount − 1 (its registers). */
  readonly slotBase: number;
  readonly slotCount: number;
  /** The first OmniReduce slot (the wire's) the switch owns for the job: its shard's firstSlot (default 0). */
  readonly firstSlot?: number;
  /** The PRE group of the job's workers (≥ 1; shares the id space with flood groups). */
  readonly multicastGroup: number;
}

export interface OmniReduceSwitchEntries {
  readonly jobId: number;
  readonly group: MulticastGroupEntry;
  /** By rank. */
  readonly rewrites: readonly TableEntry[];
  readonly workers: readonly TableEntry[];
  readonly job: TableEntry;
}

function check(job: OmniReduceJobOnSwitch): void {
  const bad = (what: string): never => {
    throw new RangeError(`OmniReduce job ${job.jobId} on the switch: ${what}`);
  };
  const isCount = (n: number, min: number, max: number): boolean => Number.isInteger(n) && n >= min && n <= max;
  const n = job.workers.length;
  const firstSlot = job.firstSlot ?? 0;
  if (!isCount(job.jobId, 0, 0xffff)) bad('the job id must be in 0..65535');
  if (!isCount(n, 1, OMNIREDUCE_SWITCH_MAX_WORKERS)) bad(`${n} workers; the switch takes 1..${OMNIREDUCE_SWITCH_MAX_WORKERS} (its seen bitmap is 32 bits)`);
  const ranks = new Set(job.workers.map((w) => w.rank));
  if (ranks.size !== n || ![...ranks].every((r) => isCount(r, 0, n - 1))) bad('ranks must be 0..n−1, each once');
  const sources = new Set(job.workers.map((w) => `${w.ip}:${w.udpPort}`));
  if (sources.size !== n) bad('two workers share an IPv4 address and UDP port; the switch tells workers apart by them');
  if (!isCount(job.slotCount, 1, 0x8000) || !isCount(job.slotBase, 0, 0xffff)) bad('slotCount must be ≥ 1 and slotBase ≥ 0');
  if (!isCount(firstSlot, 0, 0x7fff) || firstSlot + job.slotCount > 0x8000) bad(`slots ${firstSlot}..${firstSlot + job.slotCount - 1} do not fit the 15-bit slot field`);
  if (!isCount(job.multicastGroup, 1, 0xffff)) bad('the multicast group must be in 1..65535');
}

export function omniReduceSwitchEntries(job: OmniReduceJobOnSwitch): OmniReduceSwitchEntries {
  check(job);
  const n = OMNIREDUCE_NAMES;
  const workers = [...job.workers].sort((x, y) => x.rank - y.rank);
  return {
    jobId: job.jobId,
    group: multicastGroup(job.multicastGroup, workers.map((w) => ({ port: w.switchPort, instance: w.rank }))),
    rewrites: workers.map((w) => table(n.rewrite, { job_id: job.jobId, egress_rid: w.rank }, action(n.rewriteReply, { dst_mac: w.mac, dst_ip: w.ip, dst_port: w.udpPort }))),
    workers: workers.map((w) => table(n.workers, { src_addr: w.ip, src_port: w.udpPort }, action(n.acceptWorker, { job_id: job.jobId, bitmap_bit: 2 ** w.rank }))),
    job: table(n.jobs, { job_id: job.jobId }, action(n.setJob, {
      slot_base: job.slotBase, first_slot: job.firstSlot ?? 0, slot_count: job.slotCount, worker_count: workers.length, mcast_group: job.multicastGroup,
    })),
  };
}

/** Zeros for `seen` and `remaining` of both copies of every slot of the range: the slots then read as never used. */
export function omniReduceCellResets(allocation: { readonly slotBase: number; readonly slots: number }): RegisterEntry[] {
  const out: RegisterEntry[] = [];
  for (let cell = 2 * allocation.slotBase; cell < 2 * (allocation.slotBase + allocation.slots); cell++) {
    out.push(register(OMNIREDUCE_NAMES.seen, { index: cell, value: 0 }), register(OMNIREDUCE_NAMES.remaining, { index: cell, value: 0 }));
  }
  return out;
}
