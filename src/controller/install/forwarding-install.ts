/**
 * Installs a switch's forwarding plan (src/controller/forwarding-plan.ts)
 * with the names of docs/p4-programs.md §2:
 *
 *   switch-address   MODIFY the default entry of ingress.identity.switch_address
 *                    to set_switch_address(mac, ip)
 *   flood-group      a PRE multicast group with one replica per flood port
 *                    (instance 0); the ingress port stays in the group, since
 *                    the program's egress (PruneFlood) drops that copy
 *   l2-flood         ingress.forwarding.l2_forward: dst_mac → flood(group)
 *   l2-unicast       ingress.forwarding.l2_forward: dst_mac → forward(port)
 *   ipv4-host-route  ingress.forwarding.ipv4_routes: dst_addr/32 → route(next_hop_mac, port)
 *
 * Idempotence: the installer reads the switch first and writes only the
 * difference: an absent entry is INSERTed, one with another action is
 * MODIFYed, an identical one is left alone. Reading first (rather than
 * INSERT then MODIFY on ALREADY_EXISTS) makes a second install send no
 * Write at all, which is how a restarted controller proves it changed
 * nothing. Entries on the switch that the plan does not name are left in
 * place and counted as `foreign`: they may belong to someone else.
 *
 * Order: groups in one Write, then the entries that use them in another
 * (a server may reorder the updates of one Write).
 */
import { action, defaultEntry, insert, modify, multicastGroup, table, type MulticastGroupEntry, type TableEntry, type Update } from '../../p4runtime/index.js';
import type { ForwardingEntry, SwitchForwardingPlan } from '../forwarding-plan.js';
import { groupSignature, tableEntryKey, tableEntrySignature } from './entity-signature.js';
import type { SwitchSession } from './switch-session.js';

export const FORWARDING_NAMES = {
  switchAddress: 'ingress.identity.switch_address',
  setSwitchAddress: 'ingress.identity.set_switch_address',
  l2Forward: 'ingress.forwarding.l2_forward',
  forward: 'ingress.forwarding.forward',
  flood: 'ingress.forwarding.flood',
  ipv4Routes: 'ingress.forwarding.ipv4_routes',
  route: 'ingress.forwarding.route',
} as const;

export interface ForwardingReport {
  readonly switch: string;
  readonly inserted: number;
  readonly modified: number;
  readonly unchanged: number;
  /** l2_forward and ipv4_routes entries on the switch that the plan does not name (left alone). */
  readonly foreign: number;
}

/** The entity a plan entry becomes: a table entry (default entry for the address) or a multicast group. */
export function forwardingEntity(entry: ForwardingEntry): TableEntry | MulticastGroupEntry {
  const n = FORWARDING_NAMES;
  switch (entry.role) {
    case 'switch-address':
      return defaultEntry(n.switchAddress, action(n.setSwitchAddress, { mac: entry.mac, ip: entry.ip }));
    case 'flood-group':
      return multicastGroup(entry.group, entry.ports.map((port) => ({ port, instance: 0 })));
    case 'l2-flood':
      return table(n.l2Forward, { dst_mac: entry.dstMac }, action(n.flood, { group: entry.group }));
    case 'l2-unicast':
      return table(n.l2Forward, { dst_mac: entry.dstMac }, action(n.forward, { port: entry.port }));
    case 'ipv4-host-route':
      return table(n.ipv4Routes, { dst_addr: { value: entry.dstIp, prefixLen: entry.prefixLength } }, action(n.route, { next_hop_mac: entry.nextHopMac, port: entry.port }));
  }
}

/** Writes what the switch lacks of its plan, groups first; returns what it did. */
export async function installForwarding(session: SwitchSession, plan: SwitchForwardingPlan): Promise<ForwardingReport> {
  const schema = session.schema;
  const entities = plan.entries.map(forwardingEntity);
  const groups = entities.filter((e): e is MulticastGroupEntry => e.kind === 'multicast_group_entry');
  const entries = entities.filter((e): e is TableEntry => e.kind === 'table_entry');

  const existingGroups = new Map((await session.readAll(multicastGroup())).map((g) => [g.groupId, groupSignature(g)]));
  const tables = [...new Set(entries.filter((e) => !e.isDefault).map((e) => e.table!))];
  const readBack: TableEntry[] = [];
  for (const name of tables) readBack.push(...(await session.readAll(table(name))));
  for (const d of entries.filter((e) => e.isDefault)) readBack.push(...(await session.readAll(defaultEntry(d.table!))));
  const existing = new Map(readBack.map((e) => [tableEntryKey(schema, e), tableEntrySignature(schema, e)]));

  let unchanged = 0;
  const groupUpdates: Update[] = [];
  for (const g of groups) {
    const now = existingGroups.get(g.groupId);
    if (now === undefined) groupUpdates.push(insert(g));
    else if (now !== groupSignature(g)) groupUpdates.push(modify(g));
    else unchanged++;
  }
  const entryUpdates: Update[] = [];
  const wanted = new Set<string>();
  for (const e of entries) {
    const key = tableEntryKey(schema, e);
    wanted.add(key);
    const now = existing.get(key);
    // The default entry always exists: it is modified, never inserted.
    if (now === undefined) entryUpdates.push(e.isDefault ? modify(e) : insert(e));
    else if (now !== tableEntrySignature(schema, e)) entryUpdates.push(modify(e));
    else unchanged++;
  }
  await session.write(groupUpdates);
  await session.write(entryUpdates);
  const all = [...groupUpdates, ...entryUpdates];
  return {
    switch: session.name,
    inserted: all.filter((u) => u.type === 'INSERT').length,
    modified: all.filter((u) => u.type === 'MODIFY').length,
    unchanged,
    foreign: [...existing.keys()].filter((k) => !wanted.has(k)).length,
  };
}
