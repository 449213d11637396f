/**
 * The plural of a noun phrase for messages: the head noun takes the plural,
 * a trailing "of ..." stays as it is. "entity" → "entities", "match field
 * of table t" → "match fields of table t".
 */
export function pluralNoun(noun: string): string {
  const at = noun.indexOf(' of ');
  const head = at < 0 ? noun : noun.slice(0, at);
  const tail = at < 0 ? '' : noun.slice(at);
  const plural = /[^aeiou]y$/.test(head) ? `${head.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(head) ? `${head}es` : `${head}s`;
  return plural + tail;
}
