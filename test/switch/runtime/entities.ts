// Entities of the kitchen-sink program for server tests, built from names through the schema.
import { P4Schema } from '../../../src/p4info/schema.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { kitchenSinkP4Info } from '../../helpers/p4info-builder.js';

export const P4INFO = kitchenSinkP4Info();
export const SCHEMA = new P4Schema(P4INFO);

const LPM = SCHEMA.tables.get('ingress.ipv4_lpm');
const SET_NHOP = SCHEMA.actions.get('ingress.set_nhop');
export const DIGEST_ID = SCHEMA.digests.get('learn').id;

/** An ipv4_lpm entry for 10.0.i/32 → set_nhop. */
export function lpmEntry(i: number): p4r.Entity {
  return {
    table_entry: {
      table_id: LPM.id,
      match: [{ field_id: 1, lpm: { value: Buffer.from([10, 0, (i >> 8) & 255, i & 255]), prefix_len: 32 } }],
      action: {
        action: {
          action_id: SET_NHOP.id,
          params: [
            { param_id: 1, value: Buffer.from([0xaa, i & 255]) },
            { param_id: 2, value: Buffer.from([1]) },
          ],
        },
      },
    },
  };
}

export const insert = (entity: p4r.Entity): p4r.Update => ({ type: 'INSERT', entity });
export const modify = (entity: p4r.Entity): p4r.Update => ({ type: 'MODIFY', entity });
export const remove = (entity: p4r.Entity): p4r.Update => ({ type: 'DELETE', entity });

/** A wildcard read of one table's entries. */
export const allOfTable = (tableId = LPM.id): p4r.Entity => ({ table_entry: { table_id: tableId } });

/** A table entry naming a table the program does not have. */
export function unknownTableEntry(): p4r.Entity {
  const entity = lpmEntry(1);
  return { table_entry: { ...entity.table_entry!, table_id: 0x02ffffff } };
}

/** A DigestEntry enabling the `learn` digest with this config. */
export function digestEntry(config: { maxListSize: number; maxTimeoutNs: bigint; ackTimeoutNs: bigint }): p4r.Entity {
  return {
    digest_entry: {
      digest_id: DIGEST_ID,
      config: { max_list_size: config.maxListSize, max_timeout_ns: config.maxTimeoutNs.toString(), ack_timeout_ns: config.ackTimeoutNs.toString() },
    },
  };
}

/** Digest data for the learn_t struct {src_addr: bit<48>, port: bit<9>}. */
export function learnData(mac: number, port: number): p4r.P4Data {
  return { struct: { members: [{ bitstring: Buffer.from([mac]) }, { bitstring: Buffer.from([port]) }] } };
}
