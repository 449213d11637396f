/**
 * Seeded impairments of the loopback fabric's host links, where the Mininet
 * testbed puts `--loss` (netem on every host link): each host's cable has a
 * relay in the middle that loses, duplicates and reorders frames, each
 * direction from its own stream, so a run is reproducible from the seed.
 */
import type { RelayDirection } from '../demo/impaired-relay.js';

/** `up`: from the host's agent to its ToR; `down`: back. */
export type LinkDirection = RelayDirection;

export const LINK_DIRECTIONS: readonly LinkDirection[] = ['up', 'down'];

export interface FabricImpairment {
  /** Probability (0..1) that a frame is lost, in each direction of every host link. */
  readonly loss: number;
  /** Probability that a frame that is not lost arrives twice. */
  readonly duplicate?: number;
  /** Probability that a frame is held back behind 1..3 later frames of the same event-loop turn. */
  readonly reorder?: number;
  /** Seeds every decision; host H's direction D draws from SeededRandom(seed).derive(impairmentStream(H, D)). */
  readonly seed: number | string;
}

/** What one direction of a host link's relay did since the impairment was last set. */
export interface LinkCounters {
  /** Frames that came in from the sending end. */
  readonly received: number;
  /** Lost by the impairment. */
  readonly lost: number;
  /** Lost because more frames came in during one event-loop turn than the relay queues (also gone). */
  readonly overflowed: number;
  /** Delivered twice (the copy is not in `received`). */
  readonly duplicated: number;
  /** Held back behind later frames. */
  readonly reordered: number;
}

export interface HostLinkCounters {
  readonly up: LinkCounters;
  readonly down: LinkCounters;
}

/** The label of one direction's random stream: independent of every other host's and direction's. */
export function impairmentStream(host: string, direction: LinkDirection): string {
  return `fabric-${host}-${direction}`;
}

/** Whether the impairment can change any frame (a fabric without relays needs none for one that cannot). */
export function impairs(impairment: FabricImpairment): boolean {
  return impairment.loss !== 0 || (impairment.duplicate ?? 0) !== 0 || (impairment.reorder ?? 0) !== 0;
}
