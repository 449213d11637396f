/**
 * Whether a program can observe standard_metadata's timestamps: it names
 * one of them as a field, or uses the whole standard_metadata struct as a
 * value anywhere but as the base of a field access, an argument of a
 * control/parser application, or mark_to_drop's argument (all of which
 * only reach fields by name). When it cannot, the traffic manager skips
 * reading the clock and building the 48-bit values per packet.
 */
import type { IrProgram } from '../../p4c/ir/types.js';

const TIMESTAMPS = new Set(['ingress_global_timestamp', 'enq_timestamp', 'egress_global_timestamp']);

type Node = Record<string, unknown>;

function isStandardMetadata(node: Node): boolean {
  const type = node['type'] as Node | undefined;
  return typeof node['op'] === 'string' && type?.['kind'] === 'struct' && type['name'] === 'standard_metadata_t';
}

/** Walks IR JSON; `passing` is true where a whole standard_metadata value is only passed on by reference. */
function observes(value: unknown, passing: boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => observes(v, passing));
  if (value === null || typeof value !== 'object') return false;
  const node = value as Node;
  if (isStandardMetadata(node) && !passing && node['op'] !== 'field') return true;
  if (node['op'] === 'field') {
    if (TIMESTAMPS.has(node['field'] as string)) return true;
    return observes(node['base'], true);
  }
  if (node['kind'] === 'apply-block') return observes(node['args'], true);
  const target = node['target'] as Node | undefined;
  if (target?.['kind'] === 'function' && target['name'] === 'mark_to_drop') return observes(node['args'], true);
  if (typeof node['op'] !== 'string' && typeof node['kind'] !== 'string' && 'value' in node && 'direction' in node) {
    // An argument: passing-ness comes from the call it belongs to.
    return observes(node['value'], passing);
  }
  return Object.values(node).some((v) => observes(v, false));
}

export function observesTimestamps(program: IrProgram): boolean {
  return observes(program.blocks, false) || observes(program.actions, false) || observes(program.functions, false);
}
