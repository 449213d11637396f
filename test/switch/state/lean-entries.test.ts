// Entries of all-EXACT tables keep their match only as their key, and
// entries with the same action data share one stored action: reads must
// give back exactly what was written, across MODIFY, direct-resource writes
// and more distinct actions than the sharing cache holds.
import { describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { Code } from '../../../src/switch/state/status.js';
import { buildP4Info } from '../../helpers/p4info-builder.js';
import { decoded, pipelineConfig, quietLogger } from './helpers.js';

function setup(): { device: DeviceState; tableId: number; actionId: number } {
  const p4info = buildP4Info({
    actions: [{ name: 'NoAction' }, { name: 'ingress.forward', params: [['port', 16], ['mac', 48]] }],
    tables: [{ name: 'ingress.hosts', keys: [['hdr.eth.dst', 'EXACT', 48], ['hdr.vlan.vid', 'EXACT', 12]], actions: ['ingress.forward', 'NoAction'], size: 65536 }],
  });
  const device = new DeviceState({ logger: quietLogger() });
  expect(device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)).code).toBe(Code.OK);
  return { device, tableId: p4info.tables[0]!.preamble!.id, actionId: p4info.actions[1]!.preamble!.id };
}

const canonical = (n: number): Buffer => {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes.length ? bytes : [0]);
};

describe('lean exact entries and shared actions', () => {
  it('reads back every entry as written, with more distinct actions than the cache holds, after MODIFY too', () => {
    const { device, tableId, actionId } = setup();
    const entry = (n: number, type: 'INSERT' | 'MODIFY', port: number): p4r.Update__Output =>
      decoded<p4r.Update__Output>('p4.v1.Update', {
        type,
        entity: {
          table_entry: {
            table_id: tableId,
            match: [
              { field_id: 1, exact: { value: canonical(0x020000000000 + n) } },
              { field_id: 2, exact: { value: canonical(n % 4096) } },
            ],
            action: { action: { action_id: actionId, params: [{ param_id: 1, value: canonical(port) }, { param_id: 2, value: canonical(0x0a0000000000 + (n % 7)) }] } },
            controller_metadata: String(n),
          },
        },
      });
    const count = 6000;
    // Ports repeat every 5000 entries: both shared and distinct action data, past the 4,096 cache.
    const statuses = device.write(Array.from({ length: count }, (_, n) => entry(n, 'INSERT', n % 5000)), 'CONTINUE_ON_ERROR');
    expect(Array.isArray(statuses) && statuses.every((s) => s.code === Code.OK)).toBe(true);
    const modified = device.write([entry(17, 'MODIFY', 4242)], 'CONTINUE_ON_ERROR');
    expect(Array.isArray(modified) && modified.every((s) => s.code === Code.OK)).toBe(true);

    const all = [...(device.read([decoded<p4r.Entity__Output>('p4.v1.Entity', { table_entry: { table_id: tableId } })]) as Iterable<p4r.Entity>)];
    expect(all).toHaveLength(count);
    const byMetadata = new Map(all.map((e) => [e.table_entry!.controller_metadata, e.table_entry!]));
    for (const n of [0, 1, 17, 4095, 4096, 4097, 5000, 5999]) {
      const te = byMetadata.get(String(n))!;
      const port = n === 17 ? 4242 : n % 5000;
      expect(te.match).toEqual([
        { field_id: 1, exact: { value: canonical(0x020000000000 + n) } },
        { field_id: 2, exact: { value: canonical(n % 4096) } },
      ]);
      expect(te.action).toEqual({ action: { action_id: actionId, params: [{ param_id: 1, value: canonical(port) }, { param_id: 2, value: canonical(0x0a0000000000 + (n % 7)) }] } });
    }
  });
});
