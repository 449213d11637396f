/**
 * P4Schema: a P4Info indexed for lookups by name, alias, unique suffix or id,
 * for every kind of object a controller or a switch needs to find. Built once
 * per pipeline; checks that the P4Info is consistent (unique ids, references
 * that resolve) and throws P4InfoError if it is not.
 */
import type * as p4i from '../proto/p4i.js';
import { Directory } from './directory.js';
import type {
  ActionInfo,
  ActionProfileInfo,
  ActionRefInfo,
  ActionScope,
  ControllerHeaderInfo,
  CounterInfo,
  CounterUnit,
  DigestInfo,
  DirectCounterInfo,
  DirectMeterInfo,
  MatchFieldInfo,
  MeterInfo,
  MeterType,
  MeterUnit,
  RegisterInfo,
  TableInfo,
  ValueSetInfo,
} from './entities.js';
import { P4InfoError, P4InfoErrorCode } from './lookup-error.js';

/** The id prefixes of P4Ids.Prefix: the top byte of every P4Info id tells its kind. */
export const IdPrefix = {
  ACTION: 0x01,
  TABLE: 0x02,
  VALUE_SET: 0x03,
  CONTROLLER_HEADER: 0x04,
  ACTION_PROFILE: 0x11,
  COUNTER: 0x12,
  DIRECT_COUNTER: 0x13,
  METER: 0x14,
  DIRECT_METER: 0x15,
  REGISTER: 0x16,
  DIGEST: 0x17,
} as const;

function preamble(p: p4i.Preamble__Output | null, kind: string): { id: number; name: string; alias: string } {
  if (!p || !p.id) throw new P4InfoError(P4InfoErrorCode.INCONSISTENT, `a ${kind} in the P4Info has no preamble id`);
  return { id: p.id, name: p.name, alias: p.alias || p.name };
}

function matchFields(fields: readonly p4i.MatchField__Output[], owner: string): Directory<MatchFieldInfo> {
  return new Directory(
    `match field of ${owner}`,
    fields.map((f) => ({
      id: f.id,
      name: f.name,
      alias: f.name,
      bitwidth: f.bitwidth,
      matchType: (f.match === 'other_match_type' ? f.other_match_type : f.match_type) ?? 'UNSPECIFIED',
      raw: f,
    })),
  );
}

/** The width of a plain bit<W> or int<W> type spec, else undefined. */
function bitstringWidth(spec: p4i.P4DataTypeSpec__Output | null): number | undefined {
  const bs = spec?.type_spec === 'bitstring' ? spec.bitstring : null;
  if (!bs) return undefined;
  if (bs.type_spec === 'bit') return bs.bit?.bitwidth;
  if (bs.type_spec === 'int') return bs.int?.bitwidth;
  return undefined;
}

export class P4Schema {
  readonly arch: string;
  readonly actions: Directory<ActionInfo>;
  readonly tables: Directory<TableInfo>;
  readonly actionProfiles: Directory<ActionProfileInfo>;
  readonly counters: Directory<CounterInfo>;
  readonly directCounters: Directory<DirectCounterInfo>;
  readonly meters: Directory<MeterInfo>;
  readonly directMeters: Directory<DirectMeterInfo>;
  readonly registers: Directory<RegisterInfo>;
  readonly digests: Directory<DigestInfo>;
  /** Controller headers by name: `packet_in` and `packet_out`. */
  readonly controllerHeaders: Directory<ControllerHeaderInfo>;
  readonly valueSets: Directory<ValueSetInfo>;

  constructor(readonly p4info: p4i.P4Info__Output) {
    this.arch = p4info.pkg_info?.arch ?? '';
    this.actions = new Directory(
      'action',
      p4info.actions.map((a) => {
        const pre = preamble(a.preamble, 'action');
        const params = new Directory(
          `parameter of action ${pre.name}`,
          a.params.map((p) => ({ id: p.id, name: p.name, alias: p.name, bitwidth: p.bitwidth, raw: p })),
        );
        return { ...pre, params, annotations: a.preamble?.annotations ?? [], raw: a };
      }),
    );
    this.directCounters = new Directory(
      'direct counter',
      p4info.direct_counters.map((c) => ({
        ...preamble(c.preamble, 'direct counter'),
        unit: (c.spec?.unit ?? 'UNSPECIFIED') as CounterUnit,
        tableId: c.direct_table_id,
        raw: c,
      })),
    );
    this.directMeters = new Directory(
      'direct meter',
      p4info.direct_meters.map((m) => ({
        ...preamble(m.preamble, 'direct meter'),
        unit: (m.spec?.unit ?? 'UNSPECIFIED') as MeterUnit,
        type: (m.spec?.type ?? 'TWO_RATE_THREE_COLOR') as MeterType,
        tableId: m.direct_table_id,
        raw: m,
      })),
    );
    this.tables = new Directory(
      'table',
      p4info.tables.map((t) => this.table(t)),
    );
    this.actionProfiles = new Directory(
      'action profile',
      p4info.action_profiles.map((ap) => ({
        ...preamble(ap.preamble, 'action profile'),
        tableIds: ap.table_ids,
        withSelector: ap.with_selector,
        size: Number(ap.size),
        maxGroupSize: ap.max_group_size,
        raw: ap,
      })),
    );
    this.counters = new Directory(
      'counter',
      p4info.counters.map((c) => ({
        ...preamble(c.preamble, 'counter'),
        unit: (c.spec?.unit ?? 'UNSPECIFIED') as CounterUnit,
        size: Number(c.size),
        raw: c,
      })),
    );
    this.meters = new Directory(
      'meter',
      p4info.meters.map((m) => ({
        ...preamble(m.preamble, 'meter'),
        unit: (m.spec?.unit ?? 'UNSPECIFIED') as MeterUnit,
        type: (m.spec?.type ?? 'TWO_RATE_THREE_COLOR') as MeterType,
        size: Number(m.size),
        raw: m,
      })),
    );
    this.registers = new Directory(
      'register',
      p4info.registers.map((r) => ({
        ...preamble(r.preamble, 'register'),
        size: r.size,
        bitwidth: bitstringWidth(r.type_spec),
        typeSpec: r.type_spec,
        raw: r,
      })),
    );
    this.digests = new Directory(
      'digest',
      p4info.digests.map((d) => ({ ...preamble(d.preamble, 'digest'), typeSpec: d.type_spec, raw: d })),
    );
    this.controllerHeaders = new Directory(
      'controller header',
      p4info.controller_packet_metadata.map((h) => {
        const pre = preamble(h.preamble, 'controller header');
        return {
          ...pre,
          metadata: new Directory(
            `field of controller header ${pre.name}`,
            h.metadata.map((m) => ({ id: m.id, name: m.name, alias: m.name, bitwidth: m.bitwidth })),
          ),
          raw: h,
        };
      }),
    );
    this.valueSets = new Directory(
      'value set',
      p4info.value_sets.map((v) => {
        const pre = preamble(v.preamble, 'value set');
        return { ...pre, match: matchFields(v.match, pre.name), size: v.size, raw: v };
      }),
    );
  }

  private table(t: p4i.Table__Output): TableInfo {
    const pre = preamble(t.preamble, 'table');
    const actionRefs = new Map<number, ActionRefInfo>();
    for (const ref of t.action_refs) {
      const action = this.actions.find(ref.id);
      if (!action) {
        throw new P4InfoError(P4InfoErrorCode.INCONSISTENT, `table ${pre.name} refers to action id ${ref.id}, which the P4Info does not define`);
      }
      actionRefs.set(ref.id, { action, scope: ref.scope as ActionScope });
    }
    const fields = matchFields(t.match_fields, pre.name);
    const directCounterId = t.direct_resource_ids.find((id) => id >>> 24 === IdPrefix.DIRECT_COUNTER);
    const directMeterId = t.direct_resource_ids.find((id) => id >>> 24 === IdPrefix.DIRECT_METER);
    return {
      ...pre,
      matchFields: fields,
      actionRefs,
      size: Number(t.size),
      constDefaultActionId: t.const_default_action_id,
      isConstTable: t.is_const_table,
      implementationId: t.implementation_id,
      directCounterId,
      directMeterId,
      needsPriority: fields.all.some((f) => f.matchType === 'TERNARY' || f.matchType === 'RANGE' || f.matchType === 'OPTIONAL'),
      idleTimeout: t.idle_timeout_behavior === 'NOTIFY_CONTROL',
      raw: t,
    };
  }

  /** The controller header `packet_in` or `packet_out`, if the program declares it. */
  packetHeader(which: 'packet_in' | 'packet_out'): ControllerHeaderInfo | undefined {
    return this.controllerHeaders.find(which);
  }
}
