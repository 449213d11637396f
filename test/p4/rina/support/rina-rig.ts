// p4/rina_tor.p4 on the emulator (see ../../support/switch-rig.ts), programmed
// by the entry names of docs/rina.md.
import path from 'node:path';
import { action, insert, multicastGroup, table, type Update } from '../../../../src/p4runtime/index.js';
import { ipv4ToText, macToText } from '../../../../src/wire/index.js';
import { P4_DIR } from '../../helpers.js';
import { SwitchRig } from '../../support/switch-rig.js';
import { NEXT, PRED, STRANGER, worker, type Host } from './rina-network.js';

export const RINA_TOR_P4 = path.join(P4_DIR, 'rina_tor.p4');

/** docs/rina.md, "Counters". */
export const Drop = {
  BAD_VERSION: 1, BAD_MESSAGE_TYPE: 2, BAD_PHASE: 3, BAD_ELEMENT_COUNT: 4, TRUNCATED: 5, BAD_LENGTH: 6, SLOT_OUT_OF_RANGE: 7,
  SLOT_BEYOND_REGISTERS: 8, BAD_STEP: 9, UNKNOWN_WORKER: 10, WRONG_SOURCE: 11, DUPLICATE: 12, STALE: 13, EARLY: 14,
} as const;
export const Outcome = {
  AGGREGATED: 1, EMITTED: 2, ANSWERED: 3, REEMITTED: 4, TO_AGENT: 5, RACK_MULTICAST: 6, TAKEOVER: 7, NO_JOB: 8, PASSING: 9, STASHED: 10,
} as const;
export const NEXT_MEMBER_RID = 32;

export interface RinaJob {
  readonly jobId: number;
  readonly slotBase: number;
  readonly poolSize: number;
  /** Rack workers 0..rackWorkers−1 (worker 0 the agent), on ports 1.. . */
  readonly rackWorkers: number;
  readonly group: number;
  /** The rack's ring position and the ring's length. */
  readonly rank: number;
  readonly ringLength: number;
  /** The previous and next members (none for a ring of one). */
  readonly pred?: Host;
  readonly next?: Host;
}

const ALL_HOSTS: readonly Host[] = [...Array.from({ length: 8 }, (_, w) => worker(w)), PRED, NEXT, STRANGER];

export class RinaRig extends SwitchRig {
  /** rina_tor.p4 compiled with `defines`, ports 1..11, the switch address and L2 entries for every host. */
  static async start(defines: readonly string[]): Promise<RinaRig> {
    return new RinaRig(await SwitchRig.boot({ program: RINA_TOR_P4, defines, ports: Array.from({ length: 11 }, (_, i) => i + 1), hosts: ALL_HOSTS }));
  }

  /** docs/rina.md's order: the group, the rewrites, the rack's workers, then the job's entry. */
  async addJob(job: RinaJob): Promise<void> {
    const workers = Array.from({ length: job.rackWorkers }, (_, w) => worker(w));
    const rewrite = (rid: number, h: Host): Update =>
      insert(table('egress.rina_rewrite', { job_id: job.jobId, egress_rid: rid }, action('egress.rina_rewrite_to', { dst_mac: macToText(h.mac), dst_ip: ipv4ToText(h.ip), dst_port: h.udpPort })));
    const replicas = workers.map((w, i) => ({ port: w.switchPort, instance: i }));
    if (job.next) replicas.push({ port: job.next.switchPort, instance: NEXT_MEMBER_RID });
    const agent = workers[0]!;
    await this.write([
      insert(multicastGroup(job.group, replicas)),
      ...workers.map((w, i) => rewrite(i, w)),
      ...(job.next ? [rewrite(NEXT_MEMBER_RID, job.next)] : []),
      ...workers.map((w, i) => insert(table('ingress.rina.rina_workers', { job_id: job.jobId, worker_id: i }, action('ingress.rina.rack_worker', { bitmap_bit: 2 ** i, src_addr: ipv4ToText(w.ip), src_port: w.udpPort })))),
      insert(table('ingress.rina.rina_jobs', { job_id: job.jobId }, action('ingress.rina.set_rina_job', {
        slot_base: job.slotBase, pool_size: job.poolSize, rack_mask: 2 ** job.rackWorkers - 1, rack_workers: job.rackWorkers,
        mcast_group: job.group, rank: job.rank, last_step: job.ringLength - 1,
        agent_ip: ipv4ToText(agent.ip), agent_port: agent.udpPort,
        pred_ip: ipv4ToText(job.pred?.ip ?? 0), pred_port: job.pred?.udpPort ?? 0,
      }))),
    ]);
  }

  async drops(): Promise<Partial<Record<keyof typeof Drop, number>>> {
    return this.namedCounts('ingress.rina.rina_drops', Drop);
  }

  async outcomes(): Promise<Partial<Record<keyof typeof Outcome, number>>> {
    return this.namedCounts('ingress.rina.rina_outcomes', Outcome);
  }

  /** One register cell of the slot copies. */
  async cell(name: string, index: number): Promise<number> {
    return this.registerCell(`ingress.rina.round.${name}`, index);
  }
}

/** How much each count grew from `before` to `after`, zeros left out. */
export function grew<K extends string>(before: Partial<Record<K, number>>, after: Partial<Record<K, number>>): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const k of Object.keys(after) as K[]) {
    const d = (after[k] ?? 0) - (before[k] ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}
