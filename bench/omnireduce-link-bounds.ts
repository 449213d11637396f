/**
 * The busiest link's bytes for one AllReduce of the OmniReduce density sweep
 * on `single,hosts=n` plus one aggregator host, every link shaped to the same
 * rate each way (TCLink's htb shapes each direction on its own), counted as
 * htb counts them: whole frames without preamble or FCS, so Ethernet, IPv4
 * and UDP headers (42 bytes) on every datagram; TCP in full frames of 1514
 * bytes carrying 1448 (timestamps on, offloads off in the testbed).
 *
 * OmniReduce (docs/omnireduce.md, "Rounds"): block b belongs to slot b mod S.
 * Each slot has a priming round, then one round per block that opens the
 * slot (the first block is always sent) or that some worker holds. In every
 * round every worker sends one message: the block's values (12 + 4B bytes)
 * when the round's block is its own, else 12 bytes with no values; every
 * worker gets the round's reply, with the sum (12 + 4B) except for priming.
 * - `switch`: the switch multicasts the replies; each worker's link carries
 *   its own messages up and every reply down.
 * - `hosts`: one aggregator host; its link carries every worker's messages
 *   in and one reply per worker out (unicast).
 * SwitchML: (chunks + pool) packets of 64 values up (14-byte header + 256
 * bytes; the pool's worth are the priming packets) and as many results down.
 * Ring: 2(n−1)/n·S each way on every link.
 */

export const UDP_FRAME_OVERHEAD = 14 + 20 + 8;
const OMNIREDUCE_MESSAGE_OVERHEAD = 12;
const SWITCHML_HEADER = 14;
const SWITCHML_VALUES = 64;
const TCP_PAYLOAD_PER_FRAME = 1448;
const TCP_FRAME = 1514;

export interface OmniReduceLayout {
  readonly blocks: number;
  readonly blockElements: number;
  readonly slots: number;
}

/** Frame bytes of one OmniReduce AllReduce on each worker's link: `up[w]` worker w's messages, `down` the replies each worker gets. */
export interface OmniReduceWire {
  readonly up: readonly number[];
  readonly down: number;
  /** Rounds of the call over all slots, priming rounds included (what the worker reports as `rounds`). */
  readonly rounds: number;
}

/**
 * `masks[w][b]` is 1 when worker w's block b has values (at the job's block
 * size; nonZeroBlockMask for the pattern's). Throws a RangeError for a
 * layout with fewer blocks than slots or masks of another length.
 */
export function omniReduceWire(masks: readonly Uint8Array[], layout: OmniReduceLayout): OmniReduceWire {
  const { blocks, blockElements, slots } = layout;
  if (!(Number.isInteger(slots) && slots >= 1 && slots <= blocks)) throw new RangeError(`slots must be 1..${blocks} (the blocks), not ${slots}`);
  if (masks.length === 0 || masks.some((m) => m.length !== blocks)) throw new RangeError(`every worker's mask must have ${blocks} blocks`);
  const message = UDP_FRAME_OVERHEAD + OMNIREDUCE_MESSAGE_OVERHEAD;
  const values = 4 * blockElements;
  const up = masks.map(() => 0);
  let down = 0;
  let rounds = 0;
  for (let slot = 0; slot < slots; slot++) {
    // The priming round.
    let slotRounds = 1;
    for (let b = slot; b < blocks; b += slots) {
      const first = b === slot;
      if (!first && !masks.some((m) => m[b] === 1)) continue;
      slotRounds++;
      down += values;
      masks.forEach((m, w) => {
        if (first || m[b] === 1) up[w]! += values;
      });
    }
    rounds += slotRounds;
    down += slotRounds * message;
    for (let w = 0; w < up.length; w++) up[w]! += slotRounds * message;
  }
  return { up, down, rounds };
}

/** The busiest link's frame bytes: a worker's (switch variant) or the one aggregator's (host variant). */
export function omniReduceBusiestLink(variant: 'hosts' | 'switch', wire: OmniReduceWire): number {
  const workers = wire.up.length;
  if (variant === 'switch') return Math.max(wire.down, ...wire.up);
  return Math.max(wire.up.reduce((sum, u) => sum + u, 0), workers * wire.down);
}

/** Each SwitchML worker's link, each way: (chunks + pool) packets of 64 values. */
export function switchMlLinkBytes(elements: number, pool: number): number {
  const packets = Math.ceil(elements / SWITCHML_VALUES) + pool;
  return packets * (UDP_FRAME_OVERHEAD + SWITCHML_HEADER + 4 * SWITCHML_VALUES);
}

/** Each ring member's link, each way, for S bytes per worker. */
export function ringLinkBytes(bytes: number, workers: number): number {
  const payload = workers > 1 ? ((2 * (workers - 1)) / workers) * bytes : 0;
  return (payload / TCP_PAYLOAD_PER_FRAME) * TCP_FRAME;
}

/** The mask at a block `factor` times smaller: each block's values fall in all of its parts (the seeded values are never exactly 0). */
export function splitBlocks(mask: Uint8Array, factor: number): Uint8Array {
  if (!(Number.isInteger(factor) && factor >= 1)) throw new RangeError(`factor must be a positive integer, not ${factor}`);
  const out = new Uint8Array(mask.length * factor);
  mask.forEach((v, b) => out.fill(v, b * factor, (b + 1) * factor));
  return out;
}

/** Milliseconds to carry `bytes` at `mbps` Mbit/s. */
export function linkBoundMs(bytes: number, mbps: number): number {
  return (bytes * 8) / (mbps * 1000);
}
