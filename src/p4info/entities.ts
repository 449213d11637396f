/**
 * The P4Info objects as p4ina uses them: ids and names up front, sizes as
 * numbers, enums by name, children indexed. Each keeps the decoded message as
 * `raw` for anything less common.
 */
import type * as p4i from '../proto/p4i.js';
import type { Directory, Named } from './directory.js';

export type MatchType = 'EXACT' | 'LPM' | 'TERNARY' | 'RANGE' | 'OPTIONAL' | 'UNSPECIFIED';
export type ActionScope = 'TABLE_AND_DEFAULT' | 'TABLE_ONLY' | 'DEFAULT_ONLY';

export interface MatchFieldInfo extends Named {
  readonly bitwidth: number;
  /** The standard match kind, or the architecture-specific `other_match_type` string. */
  readonly matchType: MatchType | string;
  readonly raw: p4i.MatchField__Output;
}

export interface ParamInfo extends Named {
  readonly bitwidth: number;
  readonly raw: p4i._p4_config_v1_Action_Param__Output;
}

export interface ActionInfo extends Named {
  readonly params: Directory<ParamInfo>;
  readonly annotations: readonly string[];
  readonly raw: p4i.Action__Output;
}

export interface ActionRefInfo {
  readonly action: ActionInfo;
  readonly scope: ActionScope;
}

export interface TableInfo extends Named {
  readonly matchFields: Directory<MatchFieldInfo>;
  /** Allowed actions by action id. */
  readonly actionRefs: ReadonlyMap<number, ActionRefInfo>;
  readonly size: number;
  /** Non-zero when the default action is const (fixed by the program). */
  readonly constDefaultActionId: number;
  readonly isConstTable: boolean;
  /** Non-zero when the table's actions come from an action profile or selector. */
  readonly implementationId: number;
  readonly directCounterId: number | undefined;
  readonly directMeterId: number | undefined;
  /** True when any field is ternary, range or optional: entries then need a priority > 0. */
  readonly needsPriority: boolean;
  readonly idleTimeout: boolean;
  readonly raw: p4i.Table__Output;
}

export interface ActionProfileInfo extends Named {
  readonly tableIds: readonly number[];
  readonly withSelector: boolean;
  readonly size: number;
  readonly maxGroupSize: number;
  readonly raw: p4i.ActionProfile__Output;
}

export type CounterUnit = 'UNSPECIFIED' | 'BYTES' | 'PACKETS' | 'BOTH';
export type MeterUnit = 'UNSPECIFIED' | 'BYTES' | 'PACKETS';
export type MeterType = 'TWO_RATE_THREE_COLOR' | 'SINGLE_RATE_THREE_COLOR' | 'SINGLE_RATE_TWO_COLOR';

export interface CounterInfo extends Named {
  readonly unit: CounterUnit;
  readonly size: number;
  readonly raw: p4i.Counter__Output;
}

export interface DirectCounterInfo extends Named {
  readonly unit: CounterUnit;
  readonly tableId: number;
  readonly raw: p4i.DirectCounter__Output;
}

export interface MeterInfo extends Named {
  readonly unit: MeterUnit;
  readonly type: MeterType;
  readonly size: number;
  readonly raw: p4i.Meter__Output;
}

export interface DirectMeterInfo extends Named {
  readonly unit: MeterUnit;
  readonly type: MeterType;
  readonly tableId: number;
  readonly raw: p4i.DirectMeter__Output;
}

export interface RegisterInfo extends Named {
  readonly size: number;
  /** Width of each cell when it is a plain bit<W>/int<W>, else undefined (structs, tuples). */
  readonly bitwidth: number | undefined;
  readonly typeSpec: p4i.P4DataTypeSpec__Output | null;
  readonly raw: p4i.Register__Output;
}

export interface DigestInfo extends Named {
  readonly typeSpec: p4i.P4DataTypeSpec__Output | null;
  readonly raw: p4i.Digest__Output;
}

export interface PacketMetadataInfo extends Named {
  readonly bitwidth: number;
}

export interface ControllerHeaderInfo extends Named {
  /** The header's fields, in order; ids are 1..n as p4c numbers them. */
  readonly metadata: Directory<PacketMetadataInfo>;
  readonly raw: p4i.ControllerPacketMetadata__Output;
}

export interface ValueSetInfo extends Named {
  readonly match: Directory<MatchFieldInfo>;
  readonly size: number;
  readonly raw: p4i.ValueSet__Output;
}
