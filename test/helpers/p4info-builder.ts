// Builds small P4Info messages for tests, with ids computed the way p4c computes
// them (never hard-coded), returned in the decoded shape the rest of p4ina uses.
import type * as p4i from '../../src/proto/p4i.js';
import { CONVERSION, messageType } from '../../src/proto/load.js';
import { IdPrefix } from '../../src/p4info/schema.js';
import { assignIds } from '../../src/p4info/ids.js';

type MatchKind = 'EXACT' | 'LPM' | 'TERNARY' | 'RANGE' | 'OPTIONAL';
type Scope = 'TABLE_AND_DEFAULT' | 'TABLE_ONLY' | 'DEFAULT_ONLY';

export interface ActionSpec {
  name: string;
  params?: [name: string, bitwidth: number][];
  annotations?: string[];
}
export interface TableSpec {
  name: string;
  keys: [name: string, kind: MatchKind, bitwidth: number][];
  actions: (string | [name: string, scope: Scope])[];
  size?: number;
  constDefaultAction?: string;
  isConst?: boolean;
  directCounter?: string;
  directMeter?: string;
}
export interface P4InfoSpec {
  actions: ActionSpec[];
  tables?: TableSpec[];
  counters?: { name: string; size: number; unit?: 'BYTES' | 'PACKETS' | 'BOTH' }[];
  meters?: { name: string; size: number; unit?: 'BYTES' | 'PACKETS' }[];
  registers?: { name: string; size: number; bitwidth: number }[];
  digests?: { name: string; fields: [name: string, bitwidth: number][] }[];
  /** p4c hashes the header *type* name for the id (default `<name>_header_t`); the preamble name is packet_in/packet_out. */
  controllerHeaders?: { name: 'packet_in' | 'packet_out'; typeName?: string; fields: [name: string, bitwidth: number][] }[];
}

const lastPart = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/** Aliases as p4c makes them: the shortest dotted suffix that no other name of the program ends with. */
function aliases(names: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of names) {
    const parts = name.split('.');
    let alias = name;
    for (let i = parts.length - 1; i >= 0; i--) {
      const suffix = parts.slice(i).join('.');
      if (names.filter((n) => n === suffix || n.endsWith('.' + suffix)).length === 1) {
        alias = suffix;
        break;
      }
    }
    out.set(name, alias);
  }
  return out;
}

export function buildP4Info(spec: P4InfoSpec): p4i.P4Info__Output {
  const tables = spec.tables ?? [];
  const all = [
    ...spec.actions.map((a) => a.name),
    ...tables.map((t) => t.name),
    ...(spec.counters ?? []).map((c) => c.name),
    ...(spec.meters ?? []).map((m) => m.name),
    ...(spec.registers ?? []).map((r) => r.name),
    ...(spec.digests ?? []).map((d) => d.name),
    ...tables.flatMap((t) => [t.directCounter, t.directMeter].filter((n): n is string => !!n)),
  ];
  const alias = aliases(all);
  const ids = {
    action: assignIds(IdPrefix.ACTION, spec.actions.map((a) => a.name)),
    table: assignIds(IdPrefix.TABLE, tables.map((t) => t.name)),
    counter: assignIds(IdPrefix.COUNTER, (spec.counters ?? []).map((c) => c.name)),
    directCounter: assignIds(IdPrefix.DIRECT_COUNTER, tables.flatMap((t) => (t.directCounter ? [t.directCounter] : []))),
    meter: assignIds(IdPrefix.METER, (spec.meters ?? []).map((m) => m.name)),
    directMeter: assignIds(IdPrefix.DIRECT_METER, tables.flatMap((t) => (t.directMeter ? [t.directMeter] : []))),
    register: assignIds(IdPrefix.REGISTER, (spec.registers ?? []).map((r) => r.name)),
    digest: assignIds(IdPrefix.DIGEST, (spec.digests ?? []).map((d) => d.name)),
    header: assignIds(IdPrefix.CONTROLLER_HEADER, (spec.controllerHeaders ?? []).map((h) => h.typeName ?? `${h.name}_header_t`)),
  };
  const pre = (id: number, name: string, annotations: string[] = []): object => ({ id, name, alias: alias.get(name) ?? lastPart(name), annotations });
  const bit = (bitwidth: number): object => ({ bitstring: { bit: { bitwidth } } });
  const message = {
    pkg_info: { arch: 'v1model' },
    actions: spec.actions.map((a) => ({
      preamble: pre(ids.action.get(a.name)!, a.name, a.annotations),
      params: (a.params ?? []).map(([name, bitwidth], i) => ({ id: i + 1, name, bitwidth })),
    })),
    tables: tables.map((t) => ({
      preamble: pre(ids.table.get(t.name)!, t.name),
      match_fields: t.keys.map(([name, kind, bitwidth], i) => ({ id: i + 1, name, bitwidth, match_type: kind })),
      action_refs: t.actions.map((a) => {
        const [name, scope] = typeof a === 'string' ? [a, 'TABLE_AND_DEFAULT'] : a;
        const annotations = scope === 'TABLE_ONLY' ? ['@tableonly'] : scope === 'DEFAULT_ONLY' ? ['@defaultonly'] : [];
        return { id: ids.action.get(name)!, scope, annotations };
      }),
      const_default_action_id: t.constDefaultAction ? ids.action.get(t.constDefaultAction)! : 0,
      direct_resource_ids: [
        ...(t.directCounter ? [ids.directCounter.get(t.directCounter)!] : []),
        ...(t.directMeter ? [ids.directMeter.get(t.directMeter)!] : []),
      ],
      size: String(t.size ?? 1024),
      is_const_table: t.isConst ?? false,
    })),
    counters: (spec.counters ?? []).map((c) => ({ preamble: pre(ids.counter.get(c.name)!, c.name), spec: { unit: c.unit ?? 'BOTH' }, size: String(c.size) })),
    direct_counters: tables
      .filter((t) => t.directCounter)
      .map((t) => ({ preamble: pre(ids.directCounter.get(t.directCounter!)!, t.directCounter!), spec: { unit: 'BOTH' }, direct_table_id: ids.table.get(t.name)! })),
    meters: (spec.meters ?? []).map((m) => ({ preamble: pre(ids.meter.get(m.name)!, m.name), spec: { unit: m.unit ?? 'BYTES' }, size: String(m.size) })),
    direct_meters: tables
      .filter((t) => t.directMeter)
      .map((t) => ({ preamble: pre(ids.directMeter.get(t.directMeter!)!, t.directMeter!), spec: { unit: 'BYTES' }, direct_table_id: ids.table.get(t.name)! })),
    registers: (spec.registers ?? []).map((r) => ({ preamble: pre(ids.register.get(r.name)!, r.name), type_spec: bit(r.bitwidth), size: r.size })),
    digests: (spec.digests ?? []).map((d) => ({
      preamble: pre(ids.digest.get(d.name)!, d.name),
      type_spec: { struct: { name: lastPart(d.name) + '_t' } },
    })),
    controller_packet_metadata: (spec.controllerHeaders ?? []).map((h) => ({
      preamble: { id: ids.header.get(h.typeName ?? `${h.name}_header_t`)!, name: h.name, alias: h.name, annotations: ['@controller_header("' + h.name + '")'] },
      metadata: h.fields.map(([name, bitwidth], i) => ({ id: i + 1, name, bitwidth })),
    })),
    type_info: {
      structs: Object.fromEntries(
        (spec.digests ?? []).map((d) => [lastPart(d.name) + '_t', { members: d.fields.map(([name, w]) => ({ name, type_spec: bit(w) })) }]),
      ),
    },
  };
  const type = messageType('p4.config.v1.P4Info');
  return type.toObject(type.fromObject(message), CONVERSION) as p4i.P4Info__Output;
}

/**
 * A program with one of everything the P4Runtime server must handle: exact, LPM,
 * ternary (ACL), range and optional tables, a const table, a small table, action
 * scopes, a const default action, direct and indirect counters and meters, a
 * register, a digest and both controller headers.
 */
export function kitchenSinkP4Info(): p4i.P4Info__Output {
  return buildP4Info({
    actions: [
      { name: 'NoAction' },
      { name: 'ingress.drop' },
      { name: 'ingress.forward', params: [['port', 9]] },
      { name: 'ingress.set_nhop', params: [['dmac', 48], ['port', 9]] },
      { name: 'ingress.to_cpu' },
      { name: 'ingress.set_mark', params: [['mark', 8]], annotations: [] },
    ],
    tables: [
      { name: 'ingress.l2', keys: [['hdr.ethernet.dst_addr', 'EXACT', 48]], actions: ['ingress.forward', 'ingress.drop', ['NoAction', 'DEFAULT_ONLY']], directCounter: 'ingress.l2_counter' },
      { name: 'ingress.ipv4_lpm', keys: [['hdr.ipv4.dst_addr', 'LPM', 32]], actions: ['ingress.set_nhop', 'ingress.drop', 'NoAction'], size: 4096, directMeter: 'ingress.ipv4_meter' },
      {
        name: 'ingress.acl',
        keys: [
          ['standard_metadata.ingress_port', 'TERNARY', 9],
          ['hdr.ipv4.src_addr', 'TERNARY', 32],
          ['hdr.ipv4.protocol', 'OPTIONAL', 8],
          ['hdr.udp.dst_port', 'RANGE', 16],
        ],
        actions: [['ingress.to_cpu', 'TABLE_ONLY'], 'ingress.drop', 'ingress.set_mark', 'NoAction'],
        size: 256,
      },
      { name: 'ingress.tiny', keys: [['hdr.ethernet.ether_type', 'EXACT', 16]], actions: ['ingress.set_mark', 'NoAction'], size: 4, constDefaultAction: 'NoAction' },
      { name: 'ingress.fixed', keys: [['hdr.ipv4.ttl', 'EXACT', 8]], actions: ['ingress.drop', 'NoAction'], isConst: true, size: 8 },
    ],
    counters: [{ name: 'ingress.port_packets', size: 512, unit: 'PACKETS' }],
    meters: [{ name: 'ingress.port_meter', size: 64, unit: 'BYTES' }],
    registers: [{ name: 'ingress.slots', size: 64, bitwidth: 32 }],
    digests: [{ name: 'learn', fields: [['src_addr', 48], ['port', 9]] }],
    controllerHeaders: [
      { name: 'packet_in', fields: [['ingress_port', 9], ['_pad', 7]] },
      { name: 'packet_out', fields: [['egress_port', 9], ['_pad', 7]] },
    ],
  });
}
