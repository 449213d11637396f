/**
 * The entries a P4 program declares (`const entries`, `entries`), installed
 * into the device state when a pipeline is loaded, as BMv2 does: the data
 * plane then matches them like any other entry and P4Runtime reads return
 * them. Keysets become P4Runtime field matches (a don't-care is left out,
 * as the spec requires); entries without an explicit priority get
 * decreasing priorities so that the first one listed wins.
 */
import type { IrKeyset, IrProgram, IrTable } from '../../p4c/ir/types.js';
import { decodeMessage, encodeMessage } from '../../proto/codec.js';
import type * as p4r from '../../proto/p4r.js';
import type { ForwardingState } from '../state/forwarding-state.js';
import { bitsToBytes, parseConst, toBigInt } from './bits.js';

function canonical(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

function bytes(text: string, width: number): Buffer {
  return canonical(bitsToBytes(parseConst(text, width), width));
}

function ones(width: number): bigint {
  return (1n << BigInt(width)) - 1n;
}

function prefixLength(mask: bigint, width: number): number {
  let n = 0;
  for (let bit = width - 1; bit >= 0 && (mask >> BigInt(bit)) & 1n; bit--) n++;
  return n;
}

function fieldMatch(fieldId: number, matchKind: string, width: number, k: IrKeyset | undefined): p4r.FieldMatch | undefined {
  if (!k || k.kind === 'default' || k.kind === 'value-set') return undefined;
  const all = ones(width).toString();
  switch (matchKind) {
    case 'exact':
      return k.kind === 'value' ? { field_id: fieldId, exact: { value: bytes(k.value, width) } } : undefined;
    case 'optional':
      return k.kind === 'value' ? { field_id: fieldId, optional: { value: bytes(k.value, width) } } : undefined;
    case 'ternary': {
      const [value, mask] = k.kind === 'mask' ? [k.value, k.mask] : k.kind === 'value' ? [k.value, all] : ['0', '0'];
      if (toBigInt(parseConst(mask, width)) === 0n) return undefined;
      const masked = (toBigInt(parseConst(value, width)) & toBigInt(parseConst(mask, width))).toString();
      return { field_id: fieldId, ternary: { value: bytes(masked, width), mask: bytes(mask, width) } };
    }
    case 'lpm': {
      const [value, mask] = k.kind === 'mask' ? [k.value, k.mask] : k.kind === 'value' ? [k.value, all] : ['0', '0'];
      const prefix = prefixLength(toBigInt(parseConst(mask, width)), width);
      if (prefix === 0) return undefined;
      const masked = (toBigInt(parseConst(value, width)) & toBigInt(parseConst(mask, width))).toString();
      return { field_id: fieldId, lpm: { value: bytes(masked, width), prefix_len: prefix } };
    }
    case 'range': {
      const [low, high] = k.kind === 'range' ? [k.low, k.high] : k.kind === 'value' ? [k.value, k.value] : ['0', all];
      if (toBigInt(parseConst(low, width)) === 0n && toBigInt(parseConst(high, width)) === ones(width)) return undefined;
      return { field_id: fieldId, range: { low: bytes(low, width), high: bytes(high, width) } };
    }
    default:
      return undefined;
  }
}

function entriesOf(table: IrTable, state: ForwardingState): p4r.TableEntry[] {
  const store = state.tables.find(table.id);
  if (!store) return [];
  const keys = table.keys.filter((k) => k.matchKind !== 'selector');
  const fields = store.info.matchFields.all;
  const needsPriority = store.info.needsPriority;
  const count = table.entries.length;
  return table.entries.map((e, index) => {
    const match: p4r.FieldMatch[] = [];
    keys.forEach((k, i) => {
      const info = fields[i];
      const m = info ? fieldMatch(info.id, k.matchKind, info.bitwidth, e.keys[i]) : undefined;
      if (m) match.push(m);
    });
    const action = e.action;
    const params = store.info.actionRefs.get(action.actionId)?.action.params.all ?? [];
    return {
      table_id: table.id,
      match,
      priority: needsPriority ? (e.priority ?? count - index) : 0,
      action: {
        action: {
          action_id: action.actionId,
          params: params.map((p, i) => ({ param_id: p.id, value: bytes(action.args[i] ?? '0', p.bitwidth) })),
        },
      },
    };
  });
}

/** Installs every program-declared entry into `state`, and each table's default action; throws EntityError if one is refused. */
export function installProgramEntries(program: IrProgram, state: ForwardingState): void {
  for (const table of program.tables) {
    const store = state.tables.find(table.id);
    const d = table.defaultAction;
    const params = store?.info.actionRefs.get(d.actionId)?.action.params.all;
    // The P4Info (p4c 1.2.4.8's form) has no initial_default_action: the IR tells the default.
    if (store && params) store.useProgramDefault({ actionId: d.actionId, params: params.map((p, i) => bytes(d.args[i] ?? '0', p.bitwidth)) });
    for (const entry of entriesOf(table, state)) {
      state.installProgramEntry(decodeMessage<p4r.TableEntry__Output>('p4.v1.TableEntry', encodeMessage('p4.v1.TableEntry', entry)));
    }
  }
}
