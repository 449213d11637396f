/**
 * @fileoverview How deeply an IR document may nest. The switch compiles IR
 * expressions and statements by recursion, so before it compiles anything
 * it refuses a document nested deeper than IR_MAX_DEPTH; the compiler
 * measures what it emits the same way and refuses the program instead, so a
 * program that compiles always loads. Depth counts every object and list
 * from the document (depth 0) down: `blocks[0].apply[0]` is at depth 4.
 */

/** The deepest object or list the switch loads, counted as above. */
export const IR_MAX_DEPTH = 512;

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
