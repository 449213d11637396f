// A table's initial default action comes from the loaded IR: P4Info as p4c
// 1.2.4.8 (and p4ina) writes it has no initial_default_action, so without the
// IR a non-const `default_action = flood(1)` would be unknown to the switch.
import { afterEach, describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { rig, type Rig } from './harness.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

function readDefault(rig: Rig, table: string): p4r.TableEntry {
  const tableId = rig.program.schema.tables.get(table).id;
  const entity = decodeMessage<p4r.Entity__Output>('p4.v1.Entity', encodeMessage('p4.v1.Entity', { table_entry: { table_id: tableId, is_default_action: true } }));
  const [read] = [...(rig.device.state.read([entity]) as Iterable<p4r.Entity>)];
  return read!.table_entry!;
}

describe('the default action of the program, from the IR', () => {
  it('multicast.p4: mac_table reads back flood(1), which the P4Info does not carry', () => {
    r = rig('multicast');
    expect(r.program.p4info.tables.find((t) => t.preamble!.name === 'McIngress.mac_table')!.initial_default_action).toBeNull();
    const entry = readDefault(r, 'McIngress.mac_table');
    expect(entry.action!.action!.action_id).toBe(r.program.schema.actions.get('McIngress.flood').id);
    expect(entry.action!.action!.params!.map((p) => Buffer.from(p.value as Buffer))).toEqual([Buffer.from([1])]);
  });
});
