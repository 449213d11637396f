/**
 * The ring as a Rina agent sees it: members in ring order, each an INA rack
 * (its workers' addresses by worker id, the agent first) or an autonomous
 * worker, and where this worker stands. It comes from the controller's plan
 * (RolloutPlan.ring: kind and ranks per member, the agent the lowest rank)
 * and the hosts' addresses; `ringFromPlan` takes anything of that shape, so
 * agents need not import the controller.
 */
import type { SocketAddress } from '../transport/index.js';
import { RINA_MAX_RACK_WORKERS } from '../../wire/index.js';
import { RINA_ERROR_CODES, RinaError } from './rina-error.js';

export interface RinaMember {
  /** 'rack': an INA rack, one member; 'worker': an autonomous worker. */
  readonly kind: 'rack' | 'worker';
  /** By worker id: index 0 is the agent, whose address is the member's. An autonomous worker has one. */
  readonly workers: readonly SocketAddress[];
}

export interface RinaPlace {
  /** The member this worker belongs to. */
  readonly position: number;
  /** Its worker id in the rack (0: the agent; always 0 for an autonomous worker). */
  readonly workerId: number;
}

/** What this worker does in the ring. */
export type RinaRole = 'autonomous' | 'agent' | 'rack-member';

/** The shape of the controller's RingMember that matters here. */
export interface PlanRingMember {
  readonly kind: 'rack' | 'worker';
  /** Every worker the member stands for, by rank; the first is its agent. */
  readonly ranks: readonly number[];
}

export function bad(message: string): RinaError {
  return new RinaError(RINA_ERROR_CODES.badConfig, message);
}

/** Checks a ring: at least one member, autonomous members with one address, racks with 1..32. */
export function checkRing(members: readonly RinaMember[]): readonly RinaMember[] {
  if (members.length === 0) throw bad('the ring has no members');
  if (members.length > 0xffff) throw bad(`the ring has ${members.length} members; sender_rank has 16 bits`);
  members.forEach((m, position) => {
    if (m.kind === 'worker' && m.workers.length !== 1) throw bad(`ring member ${position} is an autonomous worker with ${m.workers.length} addresses; it has one`);
    if (m.kind === 'rack' && (m.workers.length < 1 || m.workers.length > RINA_MAX_RACK_WORKERS)) {
      throw bad(`ring member ${position} is a rack of ${m.workers.length} workers; a ToR tells 1..${RINA_MAX_RACK_WORKERS} apart`);
    }
  });
  return members;
}

/** The ring of a plan, with each rank's address. */
export function ringFromPlan(ring: readonly PlanRingMember[], addressOf: (rank: number) => SocketAddress): RinaMember[] {
  return ring.map((m) => ({ kind: m.kind, workers: m.ranks.map(addressOf) }));
}

/** Where the worker of `rank` stands in a plan's ring. */
export function placeInPlan(ring: readonly PlanRingMember[], rank: number): RinaPlace {
  for (const [position, m] of ring.entries()) {
    const workerId = m.ranks.indexOf(rank);
    if (workerId >= 0) return { position, workerId };
  }
  throw bad(`rank ${rank} is in no member of the ring`);
}

/** Workers in the job: every rack's and every autonomous one. */
export function worldSizeOf(members: readonly RinaMember[]): number {
  return members.reduce((n, m) => n + m.workers.length, 0);
}

export function roleOf(members: readonly RinaMember[], place: RinaPlace): RinaRole {
  const m = members[place.position];
  if (!m) throw bad(`position ${place.position} is not in a ring of ${members.length}`);
  if (!Number.isInteger(place.workerId) || place.workerId < 0 || place.workerId >= m.workers.length) {
    throw bad(`worker id ${place.workerId} is not in member ${place.position} (${m.workers.length} workers)`);
  }
  if (m.kind === 'worker') return 'autonomous';
  return place.workerId === 0 ? 'agent' : 'rack-member';
}
