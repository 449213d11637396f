/**
 * The busiest link's lower bound on one AllReduce of S bytes per worker, for
 * each algorithm of the rollout sweep on `leafspine,racks=R,hosts=H` with
 * every link at B (full duplex, each direction on its own), k racks INA.
 * Payload bytes only (headers are inside the measured ratio), worked out
 * from what each algorithm sends (docs/wire.md, docs/rina.md, docs/atp.md):
 *
 * - ring over n = R·H workers: every worker's link carries 2(n−1)/n·S each way.
 * - hierarchical: a rack leader receives its H−1 members' tensors and sends
 *   them the result, and runs a ring among the R leaders: (H−1 + 2(R−1)/R)·S.
 * - ATP (one PS host): the PS's link carries one stream of S per contributor,
 *   each way: the k INA racks' aggregates plus (R−k)·H legacy workers.
 * - Rina, a ring of M = k + (R−k)·H members: autonomous members carry
 *   2(M−1)/M·S each way. A worker of an INA rack sends S of CONTRIBUTIONs and
 *   receives every round's result (its ACK, S) and the all-gather data
 *   ((M−1)/M·S); the agent also sends the all-gather on: (2M−1)/M·S.
 */
export type BoundAlgorithm = 'rina' | 'atp' | 'hierarchical' | 'ring';

export interface LeafSpine {
  readonly racks: number;
  readonly hostsPerRack: number;
}

/** The busiest link's bytes, in units of S. */
export function busiestLinkShare(algorithm: BoundAlgorithm, topo: LeafSpine, inaRacks: number): number {
  const { racks: R, hostsPerRack: H } = topo;
  if (!(inaRacks >= 0 && inaRacks <= R)) throw new RangeError(`inaRacks must be 0..${R}, not ${inaRacks}`);
  const n = R * H;
  const ringShare = (members: number): number => (members > 1 ? (2 * (members - 1)) / members : 0);
  switch (algorithm) {
    case 'ring':
      return ringShare(n);
    case 'hierarchical':
      return H - 1 + ringShare(R);
    case 'atp':
      return inaRacks + (R - inaRacks) * H;
    case 'rina': {
      const M = inaRacks + (R - inaRacks) * H;
      return inaRacks === 0 ? ringShare(M) : Math.max(ringShare(M), (2 * M - 1) / M);
    }
  }
}

/** The bound in ms for S bytes at B Mbit/s. */
export function linkBoundMs(algorithm: BoundAlgorithm, topo: LeafSpine, inaRacks: number, bytes: number, mbps: number): number {
  return (busiestLinkShare(algorithm, topo, inaRacks) * bytes * 8) / (mbps * 1000);
}
