/**
 * From a Rina plan to each worker's `p4ina agent rina-worker` arguments: the
 * ring in the plan's order (one `--member` per member, an INA rack's agent
 * first, then its workers by worker id), the worker's place in it, and the
 * job's constants; an INA rack's agent also gets its ToR's address
 * (`--tor`), where its own contributions go so that they leave its host.
 * Testbeds and the loopback sweep take these as they are
 * and add only what they decide (transport, timing, tensor, seed, output),
 * so that the agents run the ring the switches were programmed for. Like
 * atp-agents.ts, the controller does not import the agents.
 */
import { ipv4ToText } from '../wire/index.js';
import type { JobSpec } from './job.js';
import type { RolloutPlan } from './rollout-plan.js';
import type { Topology } from './topology.js';

export interface RinaWorkerCommand {
  readonly rank: number;
  readonly host: string;
  /** `p4ina agent rina-worker` arguments: --member…, --position, --worker-id, [--tor,] --rank, --job, --pool. */
  readonly args: readonly string[];
}

/** Every worker's arguments, by rank. Throws when the plan has no ring (it is not a Rina or ring plan). */
export function rinaWorkerCommands(spec: JobSpec, plan: RolloutPlan, topology: Topology): RinaWorkerCommand[] {
  const ring = plan.ring;
  if (!ring) throw new Error(`job ${spec.id}'s plan (${plan.runs}) has no ring to give Rina workers`);
  const worker = (rank: number): { host: string; address: string; port: number } => {
    const placed = plan.workers.find((w) => w.rank === rank);
    const own = spec.workers.find((w) => w.rank === rank);
    const host = placed && topology.hosts.get(placed.host);
    if (!placed || !own || !host) throw new Error(`rank ${rank} of job ${spec.id} is not a planned worker on a topology host`);
    return { host: placed.host, address: `${ipv4ToText(host.ip)}:${own.udpPort}`, port: own.udpPort };
  };
  // The ToR's own address, on the agent's port: a port of the Rina block, which is how the ToR knows the datagram.
  const torOf = (rank: number): string => {
    const point = plan.workers.find((w) => w.rank === rank)?.aggregationPoint;
    const ip = point === undefined ? undefined : topology.switches.get(point)?.ip;
    if (ip === undefined) throw new Error(`rank ${rank} of job ${spec.id} is an INA rack's agent whose ToR has no address in the topology`);
    return `${ipv4ToText(ip)}:${worker(rank).port}`;
  };
  const members = ring.flatMap((m) => ['--member', `${m.kind}:${m.ranks.map((r) => worker(r).address).join(',')}`]);
  return [...spec.workers]
    .sort((a, b) => a.rank - b.rank)
    .map((w) => {
      const member = ring.find((m) => m.ranks.includes(w.rank));
      if (!member) throw new Error(`rank ${w.rank} of job ${spec.id} is in no member of its ring`);
      const workerId = member.ranks.indexOf(w.rank);
      const tor = member.kind === 'rack' && workerId === 0 ? torOf(w.rank) : undefined;
      return {
        rank: w.rank,
        host: worker(w.rank).host,
        args: [
          ...members,
          '--position', String(member.position),
          '--worker-id', String(workerId),
          ...(tor === undefined ? [] : ['--tor', tor]),
          '--rank', String(w.rank),
          '--job', String(spec.id),
          '--pool', String(spec.poolSize),
        ],
      };
    });
}
