/**
 * P4Info ids as p4c assigns them (control-plane/p4RuntimeSymbolTable.cpp):
 * `prefix << 24 | suffix`, the suffix being the low 24 bits of the Jenkins
 * one-at-a-time hash of the fully qualified name; on a collision the hash
 * input is bumped by one and hashed again (linear probing). `@id` values are
 * taken first.
 */

/** Jenkins one-at-a-time hash of a string's bytes (UTF-8), in 32-bit arithmetic. */
export function jenkinsOneAtATime(text: string): number {
  let h = 0;
  for (const c of Buffer.from(text, 'utf8')) {
    h = (h + c) >>> 0;
    h = (h + (h << 10)) >>> 0;
    h = (h ^ (h >>> 6)) >>> 0;
  }
  h = (h + (h << 3)) >>> 0;
  h = (h ^ (h >>> 11)) >>> 0;
  h = (h + (h << 15)) >>> 0;
  return h;
}

/**
 * Assigns ids to the names of one kind, as p4c does: fixed ids first (a zero
 * top byte gets the prefix), then the other names in sorted order, each the
 * hash of its name, probing upwards past ids already taken. Returns name → id.
 */
export function assignIds(prefix: number, names: readonly string[], fixed: ReadonlyMap<string, number> = new Map()): Map<string, number> {
  const ids = new Map<string, number>();
  const taken = new Set<number>();
  for (const [name, raw] of fixed) {
    const id = raw >>> 24 === 0 ? ((prefix << 24) | raw) >>> 0 : raw >>> 0;
    if (id >>> 24 !== prefix) throw new RangeError(`@id ${raw} of ${name} has the wrong prefix for its kind (want 0x${prefix.toString(16)})`);
    if (taken.has(id)) throw new RangeError(`@id ${raw} of ${name} is used twice`);
    ids.set(name, id);
    taken.add(id);
  }
  // p4c's probeForId: a suffix of 0 is fine (the prefix keeps the id non-zero); only a taken id moves on.
  for (const name of [...names].filter((n) => !ids.has(n)).sort()) {
    let suffix = jenkinsOneAtATime(name) & 0xffffff;
    let id = ((prefix << 24) | suffix) >>> 0;
    for (let tries = 1; taken.has(id); tries++) {
      if (tries > 0xffffff) throw new RangeError(`no free id left for ${name} with prefix 0x${prefix.toString(16)}`);
      suffix = (suffix + 1) & 0xffffff;
      id = ((prefix << 24) | suffix) >>> 0;
    }
    ids.set(name, id);
    taken.add(id);
  }
  return ids;
}

/** The id of one name with no collisions to avoid: `prefix << 24 | hash & 0xffffff`. */
export function idFor(prefix: number, name: string): number {
  return ((prefix << 24) | (jenkinsOneAtATime(name) & 0xffffff)) >>> 0;
}
