/**
 * Reading the switch back over P4Runtime, as a controller would: every table
 * entry and multicast group as sorted lines (to compare a switch before and
 * after), entry counts per table, and the SwitchML counters by the names the
 * reference model uses (reference-switch-drops.ts maps them to the indices).
 */
import {
  SWITCHML_DROP_CODES,
  SWITCHML_OUTCOME_CODES,
  zeroCounters,
  type SwitchMlSwitchCounters,
} from '../../../agent/switchml/reference/reference-switch-drops.js';
import type { SwitchSession } from '../../../../src/controller/install/index.js';
import { allTables, counter, defaultEntry, multicastGroup, type Action, type TableEntry } from '../../../../src/p4runtime/index.js';

function describeEntry(e: TableEntry): string {
  const a = e.action as Action | undefined;
  return `${e.table}${e.isDefault ? ' (default)' : ''} ${JSON.stringify(e.match)} -> ${a ? `${a.name}${JSON.stringify(a.params)}` : 'none'}`;
}

/** Every table entry, the switch-address default and every multicast group, sorted. */
export async function readState(session: SwitchSession): Promise<string[]> {
  const lines: string[] = [];
  for (const e of await session.readAll(allTables())) lines.push(describeEntry(e));
  for (const e of await session.readAll(defaultEntry('ingress.identity.switch_address'))) lines.push(describeEntry(e));
  for (const g of await session.readAll(multicastGroup())) lines.push(`group ${g.groupId}: ${g.replicas.map((r) => `${String(r.port)}/${r.instance ?? 0}`).join(' ')}`);
  return lines.sort();
}

/** How many entries each table holds, and how many multicast groups there are. */
export async function countEntries(session: SwitchSession): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const e of await session.readAll(allTables())) counts[e.table ?? '?'] = (counts[e.table ?? '?'] ?? 0) + 1;
  counts['multicast groups'] = (await session.readAll(multicastGroup())).length;
  return counts;
}

/** `switchml_drops` and `switchml_outcomes`, keyed as the reference model's counters. */
export async function readSwitchMlCounters(session: SwitchSession): Promise<SwitchMlSwitchCounters> {
  const packets = async (name: string): Promise<Map<number, number>> => {
    const cells = await session.readAll(counter(name));
    return new Map(cells.map((c) => [c.index ?? -1, Number(c.data?.packetCount ?? 0)]));
  };
  const drops = await packets('ingress.switchml.switchml_drops');
  const outcomes = await packets('ingress.switchml.switchml_outcomes');
  const out = zeroCounters();
  for (const [reason, code] of Object.entries(SWITCHML_DROP_CODES)) out[reason as keyof typeof SWITCHML_DROP_CODES] = drops.get(code) ?? 0;
  for (const [outcome, code] of Object.entries(SWITCHML_OUTCOME_CODES)) out[outcome as keyof typeof SWITCHML_OUTCOME_CODES] = outcomes.get(code) ?? 0;
  return out;
}
