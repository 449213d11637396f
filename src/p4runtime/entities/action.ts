/**
 * An action call with parameters by name: `action('ingress.forward', { port: 2 })`.
 * Names are full names, aliases or unique suffixes; decoding gives full names
 * and parameter values as P4Numbers.
 */
import type * as p4r from '../../proto/p4r.js';
import { encodeValue, type ActionInfo, type P4Schema, type ValueInput } from '../../p4info/index.js';
import { EntityErrorCode, entityError, inContext, withContext } from './entity-error.js';
import { bytesToP4Number } from './values.js';

/** Parameter values by parameter name. */
export type ParamSpec = Readonly<Record<string, ValueInput>>;

export class Action {
  constructor(
    readonly name: string,
    readonly params: ParamSpec = {},
  ) {}

  /** The P4Info action this names; throws P4InfoError when there is none. */
  info(schema: P4Schema): ActionInfo {
    return schema.actions.get(this.name);
  }

  /** The P4Runtime Action: every parameter must be given, each fitting its width. */
  encode(schema: P4Schema): p4r.Action {
    const info = this.info(schema);
    // try/catch rather than inContext's closures, and no Set for the usual handful of parameters:
    // a bulk write encodes the action of every entry here.
    try {
      const params: p4r._p4_v1_Action_Param[] = [];
      for (const name of Object.keys(this.params)) {
        const param = info.params.get(name);
        if (params.some((p) => p.param_id === param.id)) throw entityError(EntityErrorCode.DUPLICATE_NAME, `parameter ${param.name} is given twice`);
        let value: Buffer;
        try {
          value = encodeValue(this.params[name]!, param.bitwidth);
        } catch (err) {
          throw withContext(err, `parameter ${param.name}`);
        }
        params.push({ param_id: param.id, value });
      }
      if (params.length < info.params.all.length) {
        const missing = info.params.all.filter((p) => !params.some((given) => given.param_id === p.id)).map((p) => p.name);
        throw entityError(EntityErrorCode.MISSING_PARAM, `missing value for parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
      }
      params.sort((a, b) => (a.param_id ?? 0) - (b.param_id ?? 0));
      return { action_id: info.id, params };
    } catch (err) {
      throw withContext(err, `action ${info.name}`);
    }
  }

  static decode(msg: p4r.Action__Output, schema: P4Schema): Action {
    const info = schema.actions.get(msg.action_id);
    const params: Record<string, ValueInput> = {};
    for (const p of msg.params) {
      const param = inContext(`action ${info.name}`, () => info.params.get(p.param_id));
      params[param.name] = bytesToP4Number(p.value, param.bitwidth);
    }
    return new Action(info.name, params);
  }
}

/** An action call: `action('ingress.forward', { port: 2 })`. */
export function action(name: string, params: ParamSpec = {}): Action {
  return new Action(name, params);
}
