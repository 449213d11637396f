// The write path must be cheap (the benchmark target is 50,000 inserts/s over
// gRPC); this only checks that a large run completes and is all there. No
// timing is asserted.
import { describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { Code } from '../../../src/switch/state/status.js';
import { buildP4Info } from '../../helpers/p4info-builder.js';
import { decoded, pipelineConfig, quietLogger } from './helpers.js';

describe('bulk inserts', () => {
  it('inserts 10,000 exact entries in batches of 1,000 and reads them all back', () => {
    const p4info = buildP4Info({
      actions: [{ name: 'NoAction' }, { name: 'ingress.forward', params: [['port', 9]] }],
      tables: [{ name: 'ingress.big', keys: [['hdr.ipv4.dst_addr', 'EXACT', 32]], actions: ['ingress.forward', 'NoAction'], size: 65536 }],
    });
    const tableId = p4info.tables[0]!.preamble!.id;
    const actionId = p4info.actions[1]!.preamble!.id;
    const device = new DeviceState({ logger: quietLogger() });
    expect(device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)).code).toBe(Code.OK);
    for (let batch = 0; batch < 10; batch++) {
      const updates: p4r.Update__Output[] = [];
      for (let i = 0; i < 1000; i++) {
        const n = batch * 1000 + i;
        updates.push(
          decoded<p4r.Update__Output>('p4.v1.Update', {
            type: 'INSERT',
            entity: {
              table_entry: {
                table_id: tableId,
                match: [{ field_id: 1, exact: { value: Buffer.from([10, 0, n >> 8, n & 0xff]) } }],
                action: { action: { action_id: actionId, params: [{ param_id: 1, value: Buffer.from([n % 256]) }] } },
              },
            },
          }),
        );
      }
      const statuses = device.write(updates, 'CONTINUE_ON_ERROR');
      expect(Array.isArray(statuses) && statuses.every((s) => s.code === Code.OK)).toBe(true);
    }
    const table = device.forwarding!.tables.lookup(tableId);
    expect(table.size).toBe(10_000);
    expect(table.lookupExact(Buffer.from([10, 0, 0x27, 0x0f]).toString('latin1'))?.action).toMatchObject({ call: { actionId, params: [Buffer.from([9999 % 256])] } });
    const all = device.read([decoded<p4r.Entity__Output>('p4.v1.Entity', { table_entry: { table_id: tableId } })]);
    expect([...(all as Iterable<p4r.Entity>)]).toHaveLength(10_000);
  });
});
