// p4/omnireduce.p4 on the emulator (see ../../support/switch-rig.ts), its
// jobs installed from the controller's entry builder
// (src/controller/install/omnireduce-entries.ts) in the documented order.
import path from 'node:path';
import { omniReduceCellResets, omniReduceSwitchEntries, type OmniReduceJobOnSwitch } from '../../../../src/controller/install/omnireduce-entries.js';
import { insert, modify } from '../../../../src/p4runtime/index.js';
import { P4_DIR } from '../../helpers.js';
import { SwitchRig, type RigOptions } from '../../support/switch-rig.js';
import { HOST_AGGREGATOR, STRANGER, worker, type Host } from './omnireduce-network.js';

export const OMNIREDUCE_P4 = path.join(P4_DIR, 'omnireduce.p4');

/** docs/p4-programs.md §5, "Counters". */
export const Drop = {
  TRUNCATED: 1, BAD_LENGTH: 2, BAD_MESSAGE: 3, UNKNOWN_WORKER: 4, UNKNOWN_JOB: 5, SLOT_OUT_OF_RANGE: 6, SLOT_BEYOND_REGISTERS: 7, DUPLICATE: 8, STALE: 9,
} as const;
export const Outcome = { ADDED: 1, REPLIED: 2, RESENT: 3, TAKEOVER: 4 } as const;

const ALL_HOSTS: readonly Host[] = [...Array.from({ length: 8 }, (_, w) => worker(w)), STRANGER, HOST_AGGREGATOR];

/** A job of workers 0..n−1 (rank = worker number, on ports 1..n). */
export function jobOf(jobId: number, n: number, extra: Partial<OmniReduceJobOnSwitch> = {}): OmniReduceJobOnSwitch {
  const workers = Array.from({ length: n }, (_, rank) => {
    const h = worker(rank);
    return { rank, ip: h.ip, udpPort: h.udpPort, mac: h.mac, switchPort: h.switchPort };
  });
  return { jobId, workers, slotBase: 0, slotCount: 8, multicastGroup: 1, ...extra };
}

export class OmniReduceRig extends SwitchRig {
  /** omnireduce.p4 compiled with `defines`, ports 1..10, the switch address and L2 entries for every host. */
  static async start(defines: readonly string[], options: RigOptions = {}): Promise<OmniReduceRig> {
    return new OmniReduceRig(await SwitchRig.boot({ program: OMNIREDUCE_P4, defines, ports: Array.from({ length: 10 }, (_, i) => i + 1), hosts: ALL_HOSTS, ...options }));
  }

  /** The builder's entities in its order: group, rewrites, workers, then the job's entry. */
  async addJob(job: OmniReduceJobOnSwitch): Promise<void> {
    const e = omniReduceSwitchEntries(job);
    await this.write([insert(e.group), ...e.rewrites.map(insert), ...e.workers.map(insert), insert(e.job)]);
  }

  /** Zeros for the job's slots, as the controller writes them before reusing slots. */
  async resetSlots(slotBase: number, slots: number): Promise<void> {
    await this.write(omniReduceCellResets({ slotBase, slots }).map(modify));
  }

  async drops(): Promise<Partial<Record<keyof typeof Drop, number>>> {
    return this.namedCounts('ingress.omnireduce.omnireduce_drops', Drop);
  }

  async outcomes(): Promise<Partial<Record<keyof typeof Outcome, number>>> {
    return this.namedCounts('ingress.omnireduce.omnireduce_outcomes', Outcome);
  }

  /** One register cell of the slots' state. */
  async cell(name: string, index: number): Promise<number> {
    return this.registerCell(`ingress.omnireduce.round.${name}`, index);
  }
}
