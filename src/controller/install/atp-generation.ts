/**
 * The generation of an ATP job's entry on a switch (docs/atp.md, "The
 * switch"): a 16-bit number that must differ from the one of the job's
 * previous setup on that switch, so that what the earlier setup left in the
 * shared pool is taken over instead of being added to.
 *
 * A controller restart forgets what it wrote, and a torn-down job leaves no
 * entry to read back, so the generation comes from the wall clock: the
 * milliseconds since the epoch modulo 2^16, moved on by one where it would
 * repeat a generation this installer knows for the job on the switch (its
 * own earlier setups, and entries it read back). Two setups less than
 * 65,536 ms apart then always differ, within one controller run or across
 * runs (each `p4ina controller` command is a run of its own). Setups further
 * apart may coincide, with odds of 1 in 65,536, but by then what the earlier
 * one left has aged past any reclaim time a job may ask for (60 s at most,
 * atp-limits.ts) unless that setup ran until less than a reclaim time
 * before the new one. On p4ina's switch the installer also clears the job's
 * aggregators at setup and teardown (atp-cells.ts), which leaves nothing to
 * mistake; BMv2 and Tofino cannot write registers over P4Runtime, so there
 * the generation and the reclaim time carry it alone.
 */

export interface WallClock {
  /** Milliseconds since the epoch (Date.now's). */
  now(): number;
}

export const SYSTEM_CLOCK: WallClock = { now: () => Date.now() };

export class AtpGenerations {
  private readonly known = new Map<string, Set<number>>();

  constructor(private readonly clock: WallClock = SYSTEM_CLOCK) {}

  private of(sw: string, jobId: number): Set<number> {
    const key = `${sw}/${jobId}`;
    let set = this.known.get(key);
    if (!set) {
      set = new Set();
      this.known.set(key, set);
    }
    return set;
  }

  /** Records a generation found on a switch (reconcile), so that the next setup there avoids it. */
  remember(sw: string, jobId: number, generation: number): void {
    this.of(sw, jobId).add(generation);
  }

  /** A generation for a new setup of the job on the switch, remembered from now on. */
  next(sw: string, jobId: number): number {
    const used = this.of(sw, jobId);
    let g = Math.floor(this.clock.now()) & 0xffff;
    // At most 65,536 values: the loop ends (and in practice stops at once).
    for (let i = 0; i < 0x1_0000 && used.has(g); i++) g = (g + 1) & 0xffff;
    used.add(g);
    return g;
  }
}
