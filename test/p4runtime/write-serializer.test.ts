// The bulk-write serializer must produce exactly the bytes of protobufjs' own
// fromObject+encode for every kind of update the client builds.
import { describe, expect, it } from 'vitest';
import { P4Schema } from '../../src/p4info/index.js';
import { encodeMessage } from '../../src/proto/codec.js';
import type * as p4r from '../../src/proto/p4r.js';
import {
  action,
  cloneSession,
  counter,
  defaultEntry,
  del,
  digestEntry,
  directCounter,
  encodeUpdate,
  insert,
  meter,
  modify,
  multicastGroup,
  register,
  table,
} from '../../src/p4runtime/index.js';
import { serializeWriteRequest } from '../../src/p4runtime/write-serializer.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';

const schema = new P4Schema(kitchenSinkP4Info());

const updates = [
  insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:ff' }, action('ingress.forward', { port: 2 }))),
  insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.1.0.0/16' }, action('ingress.set_nhop', { dmac: '00:00:00:00:00:01', port: 3 }), { meterConfig: { cir: 1000, cburst: 100, pir: 2000, pburst: 200 } })),
  insert(
    table('ingress.acl', { 'hdr.ipv4.src_addr': '10.0.0.0&&&255.0.0.0', 'hdr.udp.dst_port': '1000..2000', 'hdr.ipv4.protocol': { value: 17 } }, action('ingress.drop'), {
      priority: 7,
      metadata: Buffer.from('cookie'),
    }),
  ),
  modify(defaultEntry('ingress.l2', action('ingress.drop'))),
  del(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 })),
  insert(multicastGroup(5, [{ port: 1, instance: 0 }, { port: 2, instance: 1 }])),
  insert(cloneSession(3, [{ port: 9 }], { classOfService: 2, packetLengthBytes: 128 })),
  modify(register('ingress.slots', { index: 3, value: 0xdeadbeef })),
  modify(counter('ingress.port_packets', { index: 1, data: { packetCount: 10n, byteCount: 1000n } })),
  modify(meter('ingress.port_meter', { index: 2, config: { cir: 1, cburst: 2, pir: 3, pburst: 4 } })),
  modify(directCounter(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }), { packetCount: 1n, byteCount: 2n })),
  insert(digestEntry('learn', { maxTimeoutNs: 1000n, maxListSize: 10, ackTimeoutNs: 5000n })),
];

describe('serializeWriteRequest', () => {
  for (const atomicity of ['CONTINUE_ON_ERROR', 'ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC'] as const) {
    it(`encodes like fromObject+encode (${atomicity})`, () => {
      const request: p4r.WriteRequest = {
        device_id: '7',
        role: 'ina',
        election_id: { high: '1', low: '18446744073709551615' },
        updates: updates.map((u, i) => encodeUpdate(u, schema, i)),
        atomicity,
      };
      expect(serializeWriteRequest(request)).toEqual(Buffer.from(encodeMessage('p4.v1.WriteRequest', request)));
    });
  }

  it('encodes an empty request', () => {
    expect(serializeWriteRequest({ device_id: '0' })).toEqual(Buffer.from(encodeMessage('p4.v1.WriteRequest', { device_id: '0' })));
  });

  it('refuses an unknown enum name instead of sending a wrong number', () => {
    expect(() => serializeWriteRequest({ updates: [{ type: 'UPSERT' as 'INSERT' }] })).toThrow(/unknown enum value UPSERT/);
  });
});
