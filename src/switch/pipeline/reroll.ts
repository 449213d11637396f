/**
 * Loop rerolling of generated statement lists. P4 has no loops, so programs
 * unroll them by hand or by macro: SwitchML-style programs extract, add and
 * store each of 64–364 header-stack values with its own statement. Written
 * out one by one, the generated JavaScript is so long that V8 interprets it
 * for seconds before optimising it, and its optimised form is large too.
 *
 * A run of statement groups whose generated texts are the same except for
 * integer literals that grow by a fixed step from one group to the next
 * (header-stack indices, register index offsets, capture indices) becomes one
 * `for` loop whose body is the first group's text with each such literal
 * written as `(first + step * k)`. Iteration k of the loop is, token for
 * token, the k-th group's own text, so the loop does exactly what the
 * unrolled statements did, in the same order. Texts that could behave
 * differently inside a loop body (`break`, `continue`, declarations outside a
 * block, the loop variable's name) are never rerolled.
 */

/** One piece of a rerolled list: a statement's text, or a loop standing for a run of groups. */
export interface RerolledUnit {
  readonly text: string;
  /** The statements the unit stands for (a loop: one group's), which callers count to split long lists. */
  readonly size: number;
}

/** Repetitions below which a run stays unrolled (a loop would not pay). */
const MIN_REPEATS = 4;
/** The longest group of statements looked for. */
const MAX_PERIOD = 8;
const LOOP_VARIABLE = '$k';
/** Integer literals: digit runs that are not part of a name, a decimal, hex or exponent, or a bigint. */
const INTEGER = /(?<![\w$.])\d+(?![\w$.])/g;

interface Tokenized {
  /** The text with every integer literal cut out, as a number: equal texts but for literals get equal ids. */
  readonly skeleton: number;
  readonly numbers: readonly number[];
  readonly rerollable: boolean;
}

function tokenize(text: string, skeletons: Map<string, number>): Tokenized {
  const numbers: number[] = [];
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(INTEGER)) {
    const n = Number(m[0]);
    // A literal that does not print back the same (leading zeros, beyond 2^53) stays in the skeleton.
    if (!Number.isSafeInteger(n) || String(n) !== m[0]) continue;
    parts.push(text.slice(last, m.index));
    numbers.push(n);
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  const key = parts.join('\u0000');
  let skeleton = skeletons.get(key);
  if (skeleton === undefined) {
    skeleton = skeletons.size;
    skeletons.set(key, skeleton);
  }
  return { skeleton, numbers, rerollable: safeInLoop(text) };
}

/** No `break`/`continue` (they would bind to the loop), no declaration at the top level, no clash with the loop variable. */
function safeInLoop(text: string): boolean {
  if (/\b(break|continue)\b/.test(text) || text.includes(LOOP_VARIABLE)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && /^(let|const|var|function|class)\b/.test(text.slice(i, i + 8)) && (i === 0 || !/[\w$]/.test(text[i - 1]!))) return false;
  }
  return depth === 0;
}

interface Run {
  readonly period: number;
  readonly repeats: number;
  readonly steps: readonly number[];
}

/** The longest run of groups of `period` statements from `start` whose literals move by fixed steps. */
function runAt(tokens: readonly Tokenized[], start: number, period: number): Run | undefined {
  if (start + 2 * period > tokens.length) return undefined;
  for (let s = 0; s < period; s++) if (!tokens[start + s]!.rerollable) return undefined;
  // Statement s of group g is like statement s of group 0, its literals moved by g steps.
  const steps: number[] = [];
  for (let s = 0; s < period; s++) {
    const a = tokens[start + s]!;
    const b = tokens[start + period + s]!;
    if (b.skeleton !== a.skeleton || !b.rerollable) return undefined;
    for (let i = 0; i < a.numbers.length; i++) steps.push(b.numbers[i]! - a.numbers[i]!);
  }
  let repeats = 2;
  for (; start + (repeats + 1) * period <= tokens.length; repeats++) {
    let k = 0;
    let like = true;
    for (let s = 0; s < period && like; s++) {
      const a = tokens[start + s]!;
      const b = tokens[start + repeats * period + s]!;
      like = b.skeleton === a.skeleton && b.rerollable;
      for (let i = 0; like && i < a.numbers.length; i++) like = b.numbers[i] === a.numbers[i]! + repeats * steps[k++]!;
    }
    if (!like) break;
  }
  return repeats >= MIN_REPEATS ? { period, repeats, steps } : undefined;
}

function loopText(texts: readonly string[], start: number, run: Run): string {
  const body = texts.slice(start, start + run.period).join('\n');
  let index = 0;
  const rewritten = body.replace(INTEGER, (literal) => {
    const n = Number(literal);
    if (!Number.isSafeInteger(n) || String(n) !== literal) return literal;
    const step = run.steps[index++]!;
    if (step === 0) return literal;
    return step === 1 ? `(${literal} + ${LOOP_VARIABLE})` : `(${literal} + ${step} * ${LOOP_VARIABLE})`;
  });
  return hoistInvariants(`for (let ${LOOP_VARIABLE} = 0; ${LOOP_VARIABLE} < ${run.repeats}; ${LOOP_VARIABLE}++) {\n${rewritten}\n}`);
}

const HOISTED = '$h';
/** A slot's field array, or a header stack's element array or packed data in a slot's field: paths with literal indices only. */
const INVARIANT_PATH = /(?<![\w$.])ctx\.slots\[(\d+)\]\.fields(?:\[(\d+)\]\.(?:elements|data))?(?![\w$])/g;

/**
 * The loop with the field arrays and stack element arrays it reaches by a
 * path of literal indices read once before it, not once per access: V8
 * reloads `ctx.slots[7].fields` after every store into an array, which
 * could alias. Those arrays are never replaced (a struct's field array and
 * a stack's element array are fixed), so the reads are invariant unless the
 * loop replaces the slot, the stack, or calls out with the context (a call
 * applying a block rebinds its parameter slots): then the loop stays as it is.
 */
function hoistInvariants(loop: string): string {
  if (/\(ctx[,)]/.test(loop) || loop.includes(HOISTED)) return loop;
  const names = new Map<string, string>();
  for (const m of loop.matchAll(INVARIANT_PATH)) {
    const slot = m[1]!;
    // An index that is not a literal (`[(10 + $k)]`) may be this one.
    if (new RegExp(`ctx\\.slots\\[(?:${slot}|\\([^\\]]*\\))\\] =(?!=)`).test(loop)) continue;
    if (m[2] !== undefined && new RegExp(`ctx\\.slots\\[${slot}\\]\\.fields\\[(?:${m[2]}|\\([^\\]]*\\))\\] =(?!=)`).test(loop)) continue;
    if (!names.has(m[0])) names.set(m[0], `${HOISTED}${names.size}`);
  }
  if (names.size === 0) return loop;
  const body = loop.replace(INVARIANT_PATH, (path) => names.get(path) ?? path);
  const declarations = [...names].map(([path, name]) => `${name} = ${path}`).join(', ');
  return `{ const ${declarations};\n${body}\n}`;
}

/** A literal in a place only a literal may take (none is known in our generated code) would not parse: stay unrolled then. */
function parses(loop: string): boolean {
  try {
    new Function('$', 'ctx', `let fl;\n${loop}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The statements' texts with runs of like groups as loops. `sizes[i]` is what
 * statement i counts for splitting (nested statements included).
 */
export function rerollStatements(texts: readonly string[], sizes: readonly number[]): RerolledUnit[] {
  const skeletons = new Map<string, number>();
  const tokens = texts.map((t) => tokenize(t, skeletons));
  const units: RerolledUnit[] = [];
  for (let i = 0; i < texts.length; ) {
    let best: Run | undefined;
    for (let period = 1; period <= MAX_PERIOD; period++) {
      const run = runAt(tokens, i, period);
      if (run && (!best || run.period * run.repeats > best.period * best.repeats)) best = run;
    }
    const loop = best && loopText(texts, i, best);
    if (best && loop !== undefined && parses(loop)) {
      units.push({ text: loop, size: sizes.slice(i, i + best.period).reduce((a, b) => a + b, 0) });
      i += best.period * best.repeats;
    } else {
      units.push({ text: texts[i]!, size: sizes[i]! });
      i++;
    }
  }
  return units;
}
