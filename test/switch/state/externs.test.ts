import { describe, expect, it } from 'vitest';
import { Code } from '../../../src/switch/state/status.js';
import { b, committedDevice, expectOk, expectRefused, id, read, readStatus, write1 } from './helpers.js';

const COUNTER = id.counter('ingress.port_packets');
const METER = id.meter('ingress.port_meter');
const SLOTS = id.register('ingress.slots');
const WIDE = id.register('ingress.wide');

describe('indexed counters', () => {
  it('writes one cell or all cells, reads one or all, and keeps arrays for the data plane', () => {
    const device = committedDevice();
    expectOk(write1(device, 'MODIFY', { counter_entry: { counter_id: COUNTER, index: { index: 7 }, data: { packet_count: 2, byte_count: 128 } } }));
    expect(read(device, { counter_entry: { counter_id: COUNTER, index: { index: 7 } } })).toEqual([
      { counter_entry: { counter_id: COUNTER, index: { index: '7' }, data: { packet_count: '2', byte_count: '128' } }, entity: 'counter_entry' },
    ]);
    const arrays = device.forwarding!.counters.find(COUNTER)!;
    expect(arrays.packets[7]).toBe(2);
    expect(arrays.bytes).toBeInstanceOf(Float64Array);
    // Index unset: every cell.
    expectOk(write1(device, 'MODIFY', { counter_entry: { counter_id: COUNTER, data: { packet_count: 1 } } }));
    const all = read(device, { counter_entry: { counter_id: COUNTER } });
    expect(all).toHaveLength(512);
    expect(all.every((e) => e.counter_entry!.data!.packet_count === '1' && e.counter_entry!.data!.byte_count === '0')).toBe(true);
    expect(read(device, { counter_entry: {} })).toHaveLength(512);
    // Unset data changes nothing.
    expectOk(write1(device, 'MODIFY', { counter_entry: { counter_id: COUNTER, index: { index: 0 } } }));
    expect(arrays.packets[0]).toBe(1);
  });

  it('refuses INSERT/DELETE, unknown ids, negative and out-of-range indexes', () => {
    const device = committedDevice();
    const c = (extra: object): object => ({ counter_entry: { counter_id: COUNTER, data: { packet_count: 1 }, ...extra } });
    expectRefused(device, 'INSERT', c({ index: { index: 1 } }), Code.INVALID_ARGUMENT, /MODIFY/);
    expectRefused(device, 'DELETE', c({ index: { index: 1 } }), Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', c({ index: { index: -1 } }), Code.INVALID_ARGUMENT, /negative/);
    expectRefused(device, 'MODIFY', c({ index: { index: 512 } }), Code.OUT_OF_RANGE);
    expectRefused(device, 'MODIFY', { counter_entry: { counter_id: 0x12000bad, data: {} } }, Code.NOT_FOUND);
    expect(readStatus(device, { counter_entry: { counter_id: COUNTER, index: { index: 600 } } }).code).toBe(Code.OUT_OF_RANGE);
    expect(readStatus(device, { counter_entry: { counter_id: COUNTER, index: { index: -2 } } }).code).toBe(Code.INVALID_ARGUMENT);
  });
});

describe('indexed meters', () => {
  const config = { cir: 10, cburst: 20, pir: 30, pburst: 40 };
  it('configures cells, resets with an unset config, and reads back', () => {
    const device = committedDevice();
    expectOk(write1(device, 'MODIFY', { meter_entry: { meter_id: METER, index: { index: 3 }, config } }));
    expect(read(device, { meter_entry: { meter_id: METER, index: { index: 3 } } })[0]!.meter_entry!.config).toEqual({
      cir: '10',
      cburst: '20',
      pir: '30',
      pburst: '40',
      eburst: '0',
    });
    expect(read(device, { meter_entry: { meter_id: METER, index: { index: 2 } } })[0]!.meter_entry!.config).toBeNull();
    expectOk(write1(device, 'MODIFY', { meter_entry: { meter_id: METER, config } }));
    expect(device.forwarding!.meters.find(METER)!.configs.every((c) => c?.cir === 10)).toBe(true);
    expectOk(write1(device, 'MODIFY', { meter_entry: { meter_id: METER, index: { index: 3 } } }));
    expect(device.forwarding!.meters.find(METER)!.configs[3]).toBeUndefined();
    expect(read(device, { meter_entry: {} })).toHaveLength(64);
  });

  it('refuses INSERT, bad indexes, type violations and colour counters', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', { meter_entry: { meter_id: METER, index: { index: 0 }, config } }, Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: METER, index: { index: 64 }, config } }, Code.OUT_OF_RANGE);
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: METER, index: { index: -1 }, config } }, Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: METER, config: { ...config, eburst: 1 } } }, Code.INVALID_ARGUMENT, /eburst/);
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: METER, config, counter_data: {} } }, Code.UNIMPLEMENTED);
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: 0x14000bad } }, Code.NOT_FOUND);
  });
});

describe('registers', () => {
  it('writes and reads 32-bit cells (Uint32Array) and wide cells (bigint)', () => {
    const device = committedDevice();
    expectOk(write1(device, 'MODIFY', { register_entry: { register_id: SLOTS, index: { index: 5 }, data: { bitstring: b(0, 0, 1, 0) } } }));
    expect(read(device, { register_entry: { register_id: SLOTS, index: { index: 5 } } })).toEqual([
      { register_entry: { register_id: SLOTS, index: { index: '5' }, data: { bitstring: b(1, 0), data: 'bitstring' } }, entity: 'register_entry' },
    ]);
    const slots = device.forwarding!.registers.find(SLOTS)!;
    expect(slots.cells).toBeInstanceOf(Uint32Array);
    expect(slots.cells[5]).toBe(256);
    expectOk(write1(device, 'MODIFY', { register_entry: { register_id: SLOTS, data: { bitstring: b(0xff, 0xff, 0xff, 0xff) } } }));
    expect(read(device, { register_entry: { register_id: SLOTS } }).every((e) => e.register_entry!.data!.bitstring!.equals(b(0xff, 0xff, 0xff, 0xff)))).toBe(true);

    const big = b(0x80, 0, 0, 0, 0, 0, 0, 1);
    expectOk(write1(device, 'MODIFY', { register_entry: { register_id: WIDE, index: { index: 3 }, data: { bitstring: big } } }));
    expect(device.forwarding!.registers.find(WIDE)!.cells[3]).toBe(0x8000000000000001n);
    expect(read(device, { register_entry: { register_id: WIDE, index: { index: 3 } } })[0]!.register_entry!.data!.bitstring).toEqual(big);
    expect(read(device, { register_entry: { register_id: WIDE, index: { index: 0 } } })[0]!.register_entry!.data!.bitstring).toEqual(b(0));
    // Wildcard over all registers.
    expect(read(device, { register_entry: {} })).toHaveLength(64 + 4);
  });

  it('refuses values wider than the cell, non-bitstring data, INSERT and bad indexes', () => {
    const device = committedDevice();
    const r = (extra: object): object => ({ register_entry: { register_id: SLOTS, index: { index: 1 }, ...extra } });
    expectRefused(device, 'MODIFY', r({ data: { bitstring: b(1, 0, 0, 0, 0) } }), Code.INVALID_ARGUMENT, /32 bits/);
    expectRefused(device, 'MODIFY', r({ data: { bool: true } }), Code.INVALID_ARGUMENT, /bitstring/);
    expectRefused(device, 'MODIFY', r({}), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', r({ data: { bitstring: b(1) } }), Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', { register_entry: { register_id: SLOTS, index: { index: 64 }, data: { bitstring: b(1) } } }, Code.OUT_OF_RANGE);
    expectRefused(device, 'MODIFY', { register_entry: { register_id: 0x16000bad, data: { bitstring: b(1) } } }, Code.NOT_FOUND);
  });
});
