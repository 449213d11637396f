/**
 * The aggregator a window position starts on: a hash of (job, position) over
 * the pool, as ATP's workers precompute CRC32(appID, i, salt) mod pool size
 * (reference notes, "Allocation and collisions"). Only the hosts compute it
 * (the switch takes the index from the packet), so any well-mixed function
 * that every worker and the PS compute alike will do; different jobs land on
 * different indices, which is the point of hashing a shared pool.
 */

/** A 32-bit avalanche mixer (the finaliser of MurmurHash3). */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The first aggregator of `position` (0..) in job `jobId` (0..65535), in 0..poolSize−1. */
export function initialAggregatorIndex(jobId: number, position: number, poolSize: number): number {
  return mix32(mix32(jobId + 0x9e37_79b9) ^ position) % poolSize;
}
