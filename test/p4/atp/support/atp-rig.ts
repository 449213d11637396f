// p4/atp.p4 on the emulator (see ../../support/switch-rig.ts), programmed by
// the entry names of docs/p4-programs.md. The switch's timestamps come from
// the test's virtual clock when the test passes one.
import { action, defaultEntry, insert, modify, multicastGroup, table } from '../../../../src/p4runtime/index.js';
import { ipv4ToText, macToText } from '../../../../src/wire/index.js';
import { ATP_P4 } from '../../helpers.js';
import { SwitchRig, type RigOptions } from '../../support/switch-rig.js';
import { PS, UPLINK, worker, type Host } from './atp-network.js';

export const OUTCOMES = 'ingress.atp.atp_outcomes';
/** docs/p4-programs.md, "atp_outcomes". */
export const Outcome = {
  AGGREGATED: 1, COMPLETED: 2, DUPLICATE: 3, COLLISION: 4, FLUSHED: 5, RESEND_ALONE: 6, OVERFLOW: 7, BAD_LENGTH: 8,
  MALFORMED: 9, RECLAIMED: 10, ACK_FREED: 11, ACK_NOT_OWNER: 12, ACK_MULTICAST: 13, OTHER_LEVEL: 14, NO_JOB: 15,
} as const;

export interface Level0Job {
  readonly jobId: number;
  readonly generation?: number;
  readonly group: number;
  /** The rack's workers; replica instance = position in this list. */
  readonly workers: readonly Host[];
}

const ALL_HOSTS: readonly Host[] = [...Array.from({ length: 8 }, (_, w) => worker(w)), PS];

export class AtpRig extends SwitchRig {
  /** atp.p4 compiled with `defines`, on a switch with ports 1..8 and the uplink, the switch address and L2 entries for every host. */
  static async start(defines: readonly string[], hosts: readonly Host[] = ALL_HOSTS, options: RigOptions = {}): Promise<AtpRig> {
    return new AtpRig(await SwitchRig.boot({ program: ATP_P4, defines, ports: [1, 2, 3, 4, 5, 6, 7, 8, UPLINK], hosts, ...options }));
  }

  /** ECN threshold (packets) and reclaim time (µs, 0 = never), as the controller sets them. */
  async settings(ecnThreshold: number, reclaimAfterUs: number): Promise<void> {
    await this.write([modify(defaultEntry('ingress.atp_settings', action('ingress.set_atp_settings', { ecn_threshold: ecnThreshold, reclaim_after_us: reclaimAfterUs })))]);
  }

  /** docs/p4-programs.md's order: the multicast group, the ACK addresses, then the job's entry. */
  async addLevel0Job(job: Level0Job): Promise<void> {
    await this.write([
      insert(multicastGroup(job.group, job.workers.map((w, i) => ({ port: w.switchPort, instance: i })))),
      ...job.workers.map((w, i) => insert(table('egress.ack_rewrite', { job_id: job.jobId, egress_rid: i },
        action('egress.rewrite_ack', { dst_mac: macToText(w.mac), dst_ip: ipv4ToText(w.ip), dst_port: w.udpPort })))),
      insert(table('ingress.atp.atp_jobs', { job_id: job.jobId }, action('ingress.atp.aggregate_at_level0', { generation: job.generation ?? 1, mcast_group: job.group }))),
    ]);
  }

  async addLevel1Job(jobId: number, generation = 1): Promise<void> {
    await this.write([insert(table('ingress.atp.atp_jobs', { job_id: jobId }, action('ingress.atp.aggregate_at_level1', { generation })))]);
  }

  /** The outcome counts by name, zeros left out. */
  async outcomes(): Promise<Partial<Record<keyof typeof Outcome, number>>> {
    return this.namedCounts(OUTCOMES, Outcome);
  }

  /** One register cell (bit<W> registers decode as numbers up to 53 bits). */
  async cell(name: string, index: number): Promise<number> {
    return this.registerCell(`ingress.atp.${name}`, index);
  }

  /** The aggregator at `index` as the registers hold it. */
  async aggregator(index: number, values = 0): Promise<{ owner: number; generation: number; bitmap: number; count: number; ecn: number; values: number[] }> {
    const sums: number[] = [];
    for (let i = 0; i < values; i++) sums.push((await this.cell('values', index * values + i)) | 0);
    return {
      owner: await this.cell('owner', index), generation: await this.cell('owner_generation', index), bitmap: await this.cell('bitmap', index),
      count: await this.cell('count', index), ecn: await this.cell('ecn', index), values: sums,
    };
  }
}
