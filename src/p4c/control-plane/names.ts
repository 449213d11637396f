/**
 * @fileoverview Control-plane names as p4c gives them: an object declared in
 * a block instance is `Block.object`; `@name("x")` replaces the local part
 * and `@name(".x")` makes the name global. Aliases are the shortest suffix
 * of dot-separated components that no other object shares (p4c's
 * P4SymbolSuffixSet).
 */
import { annotationBodyText, findAnnotation, type Annotation } from '../ast/annotations.js';

/** The string in `@name("...")`, or undefined. */
export function nameAnnotation(annotations: readonly Annotation[]): string | undefined {
  const a = findAnnotation(annotations, 'name');
  if (!a) return undefined;
  const text = annotationBodyText(a).trim();
  return text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

export function controlPlaneName(prefix: string, localName: string, annotations: readonly Annotation[]): string {
  const given = nameAnnotation(annotations);
  if (given !== undefined && given.startsWith('.')) return given.slice(1);
  const local = given ?? localName;
  return prefix === '' ? local : `${prefix}.${local}`;
}

/** name → alias for every name of every kind. */
export function aliases(names: readonly string[]): Map<string, string> {
  const unique = [...new Set(names)];
  const split = unique.map((n) => n.split('.'));
  const result = new Map<string, string>();
  unique.forEach((name, index) => {
    const parts = split[index]!;
    for (let n = 1; n <= parts.length; n++) {
      const suffix = parts.slice(-n).join('.');
      const sharing = split.filter((other, j) => j !== index && other.length >= n && other.slice(-n).join('.') === suffix).length;
      if (sharing === 0 || n === parts.length) {
        result.set(name, suffix);
        break;
      }
    }
  });
  return result;
}

/**
 * Annotations p4c parses before writing P4Info (its ParseAnnotations and
 * ParseP4RuntimeAnnotations): their arguments print as expressions, `a, b`.
 * Any other annotation keeps its body as tokens, which p4c prints separated
 * by single spaces (`@my_anno("a" , 1)`).
 */
const PARSED_ANNOTATIONS = new Set([
  'tableonly', 'defaultonly', 'hidden', 'atomic', 'optional', 'pure', 'noSideEffects', 'disable_optimization', 'unroll', 'nounroll',
  'name', 'deprecated', 'noWarn', 'length', 'match', 'priority',
  'controller_header', 'id', 'brief', 'description', 'max_group_size', 'selector_size_semantics', 'max_member_weight',
]);

/** One annotation as p4c's ToP4 prints it into P4Info. */
export function serializeAnnotation(a: Annotation): string {
  if (a.body.kind !== 'Unparsed' || a.body.tokens.length === 0) return `@${a.name.text}`;
  const tokens = a.body.tokens;
  if (!PARSED_ANNOTATIONS.has(a.name.text)) return `@${a.name.text}(${tokens.map((t) => t.text).join(' ')})`;
  // Parsed: the top-level comma-separated arguments, each as written, joined by ", ".
  const args: string[] = [];
  let current = '';
  let depth = 0;
  tokens.forEach((t, i) => {
    if (t.text === ',' && depth === 0) {
      args.push(current);
      current = '';
      return;
    }
    if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
    if (t.text === ')' || t.text === ']' || t.text === '}') depth--;
    current += (current !== '' && i > 0 && t.spaceBefore ? ' ' : '') + t.text;
  });
  args.push(current);
  return `@${a.name.text}(${args.join(', ')})`;
}

/** Annotations as P4Info lists them, in source order: all but @name, @id and the documentation (@brief, @description). */
export function p4infoAnnotations(annotations: readonly Annotation[]): string[] {
  return annotations
    .filter((a) => !['name', 'id', 'brief', 'description'].includes(a.name.text) && (a.body.kind === 'Empty' || a.body.kind === 'Unparsed'))
    .map(serializeAnnotation);
}

/** `@brief("…")` and `@description("…")` as a P4Info Documentation, or undefined when there is neither. */
export function documentation(annotations: readonly Annotation[]): { brief?: string; description?: string } | undefined {
  const text = (name: string): string | undefined => {
    const a = findAnnotation(annotations, name);
    if (!a) return undefined;
    const body = annotationBodyText(a).trim();
    return body.startsWith('"') && body.endsWith('"') ? unescape(body.slice(1, -1)) : body;
  };
  const brief = text('brief');
  const description = text('description');
  if (brief === undefined && description === undefined) return undefined;
  return { ...(brief === undefined ? {} : { brief }), ...(description === undefined ? {} : { description }) };
}

function unescape(s: string): string {
  return s.replace(/\\(["\\nt])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** `@hidden`: p4c leaves the object out of P4Info. */
export function isHidden(annotations: readonly Annotation[]): boolean {
  return findAnnotation(annotations, 'hidden') !== undefined;
}
