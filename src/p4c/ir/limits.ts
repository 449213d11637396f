/**
 * @fileoverview What the switch takes of an IR document beyond its types,
 * and the compiler refuses up front, so that a program that compiles loads.
 *
 * Depth: the switch compiles IR expressions and statements by recursion, so
 * before it compiles anything it refuses a document nested deeper than
 * IR_MAX_DEPTH; the compiler measures what it emits the same way. Depth
 * counts every object and list from the document (depth 0) down:
 * `blocks[0].apply[0]` is at depth 4.
 *
 * Header stacks: every packet carries all the elements of every stack.
 */

/** The deepest object or list the switch loads, counted as above. */
export const IR_MAX_DEPTH = 512;

/** The most elements of a header stack. */
export const IR_MAX_STACK_SIZE = 4096;

/** The depth of the deepest object or list in `value` (0 when `value` is one with none inside), without recursion. */
export function irDepth(value: unknown): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return deepest;
}
