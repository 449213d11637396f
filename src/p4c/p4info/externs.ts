/**
 * @fileoverview P4Info messages for v1model's externs: counters, direct
 * counters, meters, direct meters (unit from the constructor's
 * CounterType/MeterType argument), registers (type_spec of the cell type),
 * action profiles and selectors.
 */
import type * as p4i from '../../proto/p4i.js';
import { annotationBodyText, findAnnotation, type Annotation } from '../ast/annotations.js';
import type { Instantiation } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { Named } from '../control-plane/model.js';
import { p4infoAnnotations } from '../control-plane/names.js';
import type { ExpressionTyper } from '../semantics/expression-typer.js';
import type { P4Type } from '../semantics/p4-types.js';
import type { SymbolKind, SymbolTable } from './symbols.js';
import { typeSpec, type TypeInfoBuilder } from './type-spec.js';

export interface ExternKind {
  readonly symbol: SymbolKind;
  readonly extern: string;
}

export const EXTERN_KINDS: Readonly<Record<string, ExternKind>> = {
  counter: { symbol: 'COUNTER', extern: 'counter' },
  direct_counter: { symbol: 'DIRECT_COUNTER', extern: 'direct_counter' },
  meter: { symbol: 'METER', extern: 'meter' },
  direct_meter: { symbol: 'DIRECT_METER', extern: 'direct_meter' },
  register: { symbol: 'REGISTER', extern: 'register' },
  action_profile: { symbol: 'ACTION_PROFILE', extern: 'action_profile' },
  action_selector: { symbol: 'ACTION_PROFILE', extern: 'action_selector' },
};

export interface ExternContext {
  readonly preamble: (id: number, name: string, annotations: string[], docOf?: readonly Annotation[]) => p4i.Preamble;
  readonly symbols: SymbolTable;
  readonly typer: ExpressionTyper;
  readonly typeInfo: TypeInfoBuilder;
  readonly tableIdsUsing: (extern: Named<Instantiation>, property: string) => number[];
}

const COUNTER_UNITS: Readonly<Record<string, p4i._p4_config_v1_CounterSpec_Unit>> = { packets: 'PACKETS', bytes: 'BYTES', packets_and_bytes: 'BOTH' };
const METER_UNITS: Readonly<Record<string, p4i._p4_config_v1_MeterSpec_Unit>> = { packets: 'PACKETS', bytes: 'BYTES' };

export function externMessages(externs: readonly { named: Named<Instantiation>; kind: ExternKind; type: P4Type }[], ctx: ExternContext): Partial<p4i.P4Info> {
  const out = {
    action_profiles: [] as p4i.ActionProfile[], counters: [] as p4i.Counter[], direct_counters: [] as p4i.DirectCounter[],
    meters: [] as p4i.Meter[], direct_meters: [] as p4i.DirectMeter[], registers: [] as p4i.Register[],
  };
  for (const { named, kind, type } of externs) {
    const inst = named.decl;
    const preamble = ctx.preamble(ctx.symbols.id(kind.symbol, named.name), named.name, p4infoAnnotations(inst.annotations), inst.annotations);
    const arg = (i: number): Expression | undefined => inst.args[i]?.value;
    const size = (i: number): string => String(ctx.typer.resolver.constants.integer(arg(i) ?? { kind: 'DontCareExpression', span: inst.span }) ?? 0n);
    const enumMember = (e: Expression | undefined): string => (e?.kind === 'MemberExpression' ? e.member.text : '');
    switch (kind.extern) {
      case 'counter':
        out.counters.push({ preamble, spec: { unit: COUNTER_UNITS[enumMember(arg(1))] ?? 'UNSPECIFIED' }, size: size(0) });
        break;
      case 'direct_counter':
        out.direct_counters.push({ preamble, spec: { unit: COUNTER_UNITS[enumMember(arg(0))] ?? 'UNSPECIFIED' }, direct_table_id: ctx.tableIdsUsing(named, 'counters')[0] ?? 0 });
        break;
      case 'meter':
        out.meters.push({ preamble, spec: { unit: METER_UNITS[enumMember(arg(1))] ?? 'UNSPECIFIED' }, size: size(0) });
        break;
      case 'direct_meter':
        out.direct_meters.push({ preamble, spec: { unit: METER_UNITS[enumMember(arg(0))] ?? 'UNSPECIFIED' }, direct_table_id: ctx.tableIdsUsing(named, 'meters')[0] ?? 0 });
        break;
      case 'register': {
        const cell = type.kind === 'extern' ? type.args[0] : undefined;
        out.registers.push({ preamble, type_spec: cell ? typeSpec(cell, ctx.typeInfo) : {}, size: Number(size(0)) });
        break;
      }
      case 'action_profile':
      case 'action_selector': {
        const selector = kind.extern === 'action_selector';
        const profile: p4i.ActionProfile = { preamble, table_ids: ctx.tableIdsUsing(named, 'implementation') };
        if (selector) profile.with_selector = true;
        profile.size = size(selector ? 1 : 0);
        // `@max_group_size(N)` on a selector (p4c ignores it, with a warning, on a plain profile).
        const maxGroup = findAnnotation(inst.annotations, 'max_group_size');
        const maxGroupSize = maxGroup ? Number(annotationBodyText(maxGroup).trim()) : NaN;
        if (selector && Number.isInteger(maxGroupSize)) profile.max_group_size = maxGroupSize;
        out.action_profiles.push(profile);
        break;
      }
    }
  }
  return Object.fromEntries(Object.entries(out).filter(([, list]) => list.length > 0));
}
