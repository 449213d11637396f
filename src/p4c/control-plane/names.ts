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

/** Annotations as P4Info lists them: `@name(body)` for each, except @name and @id. */
export function p4infoAnnotations(annotations: readonly Annotation[]): string[] {
  return annotations
    .filter((a) => a.name.text !== 'name' && a.name.text !== 'id' && (a.body.kind === 'Empty' || a.body.kind === 'Unparsed'))
    .map((a) => (a.body.kind === 'Empty' ? `@${a.name.text}` : `@${a.name.text}(${annotationBodyText(a)})`));
}
