/**
 * Node names: what a name may look like, and the order in which names are
 * listed. Natural order (s2 before s10) makes every derived view, path
 * tie-break and plan deterministic and readable, whatever the file's order.
 */

/** Compares names with digit runs as numbers: h2 < h10, s1 < s1a < s2. */
export function compareNames(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    const xd = /^\d/.test(x);
    const yd = /^\d/.test(y);
    if (xd && yd) {
      const diff = Number(x) - Number(y);
      if (diff !== 0) return diff;
      if (x.length !== y.length) return x.length - y.length;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return pa.length - pb.length;
}

export function sortNames(names: Iterable<string>): string[] {
  return [...names].sort(compareNames);
}

const NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;
/** A trailing `-p<digits>` is how links name a switch port, so a node name must not end with one. */
const PORT_SUFFIX = /-p\d+$/;

/** Why `name` cannot name a node, or undefined when it can. */
export function nodeNameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return `"${name}" is not a usable node name; start with a letter and use letters, digits, "_", "." and "-"`;
  if (PORT_SUFFIX.test(name)) return `"${name}" ends like a switch port reference ("-p<number>"); rename the node`;
  return undefined;
}
