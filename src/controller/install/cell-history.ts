/**
 * Which aggregation cells of each switch may hold an earlier job's rounds
 * (docs/p4-programs.md §3, "Reusing cells"). A switch whose pipeline this
 * installer pushed starts clean (a commit clears the registers); from then on
 * every slot range a job held is recorded here. A switch whose pipeline was
 * already in place (a controller restart) has an unknown past: all its cells
 * count as used, unless the caller says they are clean.
 *
 * The record lives in the controller's memory only; it is what decides
 * between "no reset needed", "reset over P4Runtime" (p4ina's switch) and
 * "refuse" (BMv2 and Tofino, whose P4Runtime servers cannot write registers).
 */
interface SwitchHistory {
  /** Every cell may be dirty (the switch's past is unknown). */
  unknownPast: boolean;
  /** Slot ranges used since the switch was known clean. */
  readonly used: { base: number; count: number }[];
}

export class CellHistory {
  private readonly switches = new Map<string, SwitchHistory>();

  /** The switch's cells are all clean (its pipeline was just committed, or the operator cleared them). */
  markClean(sw: string): void {
    this.switches.set(sw, { unknownPast: false, used: [] });
  }

  /** Records that a job held these slots. */
  markUsed(sw: string, base: number, count: number): void {
    this.of(sw).used.push({ base, count });
  }

  /** The slot ranges used since the switch was known clean; undefined when its past is unknown. */
  usedSpans(sw: string): { start: number; size: number }[] | undefined {
    const h = this.of(sw);
    return h.unknownPast ? undefined : h.used.map((u) => ({ start: u.base, size: u.count }));
  }

  /** True when some cell of the slots may hold an earlier job's state. */
  mayBeDirty(sw: string, base: number, count: number): boolean {
    const h = this.of(sw);
    return h.unknownPast || h.used.some((u) => u.base < base + count && base < u.base + u.count);
  }

  private of(sw: string): SwitchHistory {
    let h = this.switches.get(sw);
    if (!h) {
      h = { unknownPast: true, used: [] };
      this.switches.set(sw, h);
    }
    return h;
  }
}
