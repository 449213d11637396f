/**
 * Action specifications (`p4.v1.Action`) checked against the actions a table
 * (or the tables of an action profile) may run: the action must be one of the
 * table's `action_refs` (INVALID_ARGUMENT), used within its scope
 * (PERMISSION_DENIED), with every parameter given once, with a known id and a
 * value that fits its width (INVALID_ARGUMENT).
 */
import type { ActionInfo, ActionRefInfo, ActionScope, ParamInfo, TableInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { invalidArgument, permissionDenied } from './entity-error.js';
import { canonicalOf, checkBytes } from './validation.js';

/** An action with its arguments: canonical values in the P4Info order of the parameters. */
export interface ActionCall {
  readonly actionId: number;
  readonly params: readonly Buffer[];
}

/** Where an action is being used: as a match entry's action (or an action profile member's), or as the default. */
export type ActionUse = 'entry' | 'default';

interface ActionShape {
  readonly info: ActionInfo;
  readonly scope: ActionScope;
  readonly params: readonly ParamInfo[];
  readonly indexById: ReadonlyMap<number, number>;
  /** "parameter P of action A" per parameter, for messages (made once: every entry's checks take it). */
  readonly paramWhat: readonly string[];
}

export class ActionValidator {
  private readonly shapes = new Map<number, ActionShape>();

  constructor(
    refs: ReadonlyMap<number, ActionRefInfo>,
    /** What the actions belong to, for messages. */
    private readonly owner: string,
  ) {
    for (const [id, ref] of refs) {
      const params = ref.action.params.all;
      this.shapes.set(id, {
        info: ref.action,
        scope: ref.scope,
        params,
        indexById: new Map(params.map((p, i) => [p.id, i])),
        paramWhat: params.map((p) => `parameter ${p.name} of action ${ref.action.name}`),
      });
    }
  }

  /** Validates an action for `use`; throws EntityError. */
  parse(action: p4r.Action__Output, use: ActionUse): ActionCall {
    return keep(this.check(action, use));
  }

  /**
   * Validates an action for `use` as parse does, but the values of the call it returns may be views
   * of the request's bytes: `keep` it before storing it. For callers that may not need to store it
   * (a table that already holds an equal call).
   */
  check(action: p4r.Action__Output, use: ActionUse): ActionCall {
    const shape = this.shapes.get(action.action_id);
    if (!shape) throw invalidArgument(`action id ${action.action_id} is not one of the actions of ${this.owner}`);
    const name = shape.info.name;
    if (use === 'entry' && shape.scope === 'DEFAULT_ONLY') {
      throw permissionDenied(`action ${name} is @defaultonly in ${this.owner}: it can only be the default action`);
    }
    if (use === 'default' && shape.scope === 'TABLE_ONLY') {
      throw permissionDenied(`action ${name} is @tableonly in ${this.owner}: it cannot be the default action`);
    }
    const values = new Array<Buffer | undefined>(shape.params.length);
    const given = action.params;
    for (let k = 0; k < given.length; k++) {
      const p = given[k]!;
      // Parameters usually come in P4Info order: then the position is the index.
      const i = shape.params[k]?.id === p.param_id ? k : shape.indexById.get(p.param_id);
      if (i === undefined) throw invalidArgument(`action ${name} has no parameter with id ${p.param_id}`);
      const param = shape.params[i]!;
      if (values[i]) throw invalidArgument(`parameter ${param.name} of action ${name} is given twice`);
      values[i] = checkBytes(p.value, param.bitwidth, shape.paramWhat[i]!);
    }
    for (let i = 0; i < values.length; i++) {
      if (!values[i]) throw invalidArgument(`parameter ${shape.params[i]!.name} (id ${shape.params[i]!.id}) of action ${name} is missing`);
    }
    return { actionId: action.action_id, params: values as Buffer[] };
  }

  /** The canonical `p4.v1.Action` of a stored call. */
  toProto(call: ActionCall): p4r.Action {
    const shape = this.shapes.get(call.actionId);
    const params = shape?.params ?? [];
    return {
      action_id: call.actionId,
      params: call.params.map((value, i) => ({ param_id: params[i]?.id ?? i + 1, value: Buffer.from(canonicalOf(value)) })),
    };
  }
}

/** The call with its values copied out of the request, to store. */
export function keep(call: ActionCall): ActionCall {
  return call instanceof StoredCall ? call : new StoredCall(call.actionId, callData(call));
}

/**
 * A call as tables and action profiles keep it: the values in one latin1
 * string (callData), where an array of Buffers would be three or more objects
 * per entry for the collector to move and ~200 bytes of heap; `params` decodes
 * them on each read (the data plane resolves a call once and caches it).
 * It is also the direct action of the entries that run it (table-store.ts's
 * EntryAction of kind 'action', whose `call` is itself): one object per route
 * with its own data, not two.
 */
export class StoredCall implements ActionCall {
  readonly kind = 'action';

  constructor(
    readonly actionId: number,
    /** callData of the call: also what tells equal calls apart (shared-actions.ts). */
    readonly data: string,
  ) {}

  get call(): StoredCall {
    return this;
  }

  get params(): readonly Buffer[] {
    const bytes = Buffer.from(this.data, 'latin1');
    const values: Buffer[] = [];
    for (let at = 4; at < bytes.length; ) {
      const length = bytes.readUInt32BE(at);
      values.push(bytes.subarray(at + 4, at + 4 + length));
      at += 4 + length;
    }
    return values;
  }
}

let dataScratch = Buffer.alloc(256);

/**
 * A string that tells calls apart and holds their values: the action id, then each value after
 * its length, as latin1 (written into one buffer, so that the string is flat and nothing else is made).
 */
export function callData(call: ActionCall): string {
  if (call instanceof StoredCall) return call.data;
  let size = 4;
  for (const p of call.params) size += 4 + p.length;
  if (size > dataScratch.length) dataScratch = Buffer.alloc(2 * size);
  const out = dataScratch;
  let at = out.writeUInt32BE(call.actionId, 0);
  for (const p of call.params) {
    at = out.writeUInt32BE(p.length, at);
    at += p.copy(out, at);
  }
  return out.toString('latin1', 0, at);
}

/**
 * What a table does on a miss until the controller changes it, as far as the
 * P4Info tells: `initial_default_action` (newer p4c emits it; p4c 1.2.4.8 and
 * p4ina do not), else the const default action, else `NoAction` when the
 * table lists it (P4's default for a table without `default_action`).
 * Undefined when none of these is known. When the pipeline's IR is loaded,
 * its `default_action` replaces this (TableStore.useProgramDefault).
 */
export function programDefaultAction(table: TableInfo, schema: P4Schema): ActionCall | undefined {
  const initial = table.raw.initial_default_action;
  if (initial && initial.action_id) {
    const action = schema.actions.find(initial.action_id);
    if (action) {
      const byId = new Map(initial.arguments.map((a) => [a.param_id, a.value]));
      return { actionId: initial.action_id, params: action.params.all.map((p) => Buffer.from(canonicalOf(byId.get(p.id) ?? Buffer.from([0])))) };
    }
  }
  const fixedId = table.constDefaultActionId;
  // `NoAction` by its exact name only: a suffix lookup could throw on an ambiguous name.
  // Without an IR the default is only guessed as `NoAction` when the table may run it.
  const noAction = schema.actions.all.find((a) => a.name === 'NoAction');
  const fallback = fixedId ? schema.actions.find(fixedId) : noAction && table.actionRefs.has(noAction.id) ? noAction : undefined;
  if (!fallback) return undefined;
  return { actionId: fallback.id, params: fallback.params.all.map(() => Buffer.from([0])) };
}

