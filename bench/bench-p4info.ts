/** The P4Info of the insert benchmark: one big exact table, ids as p4c would give them. */
import { IdPrefix, idFor } from '../src/p4info/index.js';
import { CONVERSION, messageType } from '../src/proto/load.js';
import type * as p4i from '../src/proto/p4i.js';

export const BENCH_TABLE = 'ingress.bench';
export const BENCH_ACTION = 'ingress.forward';
export const BENCH_KEY = 'hdr.ipv4.dst_addr';

export function benchP4Info(size: number): p4i.P4Info__Output {
  const action = idFor(IdPrefix.ACTION, BENCH_ACTION);
  const noAction = idFor(IdPrefix.ACTION, 'NoAction');
  const type = messageType('p4.config.v1.P4Info');
  const message = {
    pkg_info: { arch: 'v1model' },
    actions: [
      { preamble: { id: noAction, name: 'NoAction', alias: 'NoAction' } },
      { preamble: { id: action, name: BENCH_ACTION, alias: 'forward' }, params: [{ id: 1, name: 'port', bitwidth: 9 }] },
    ],
    tables: [
      {
        preamble: { id: idFor(IdPrefix.TABLE, BENCH_TABLE), name: BENCH_TABLE, alias: 'bench' },
        match_fields: [{ id: 1, name: BENCH_KEY, bitwidth: 32, match_type: 'EXACT' }],
        action_refs: [{ id: action }, { id: noAction }],
        size: String(size),
      },
    ],
  };
  return type.toObject(type.fromObject(message), CONVERSION) as p4i.P4Info__Output;
}
