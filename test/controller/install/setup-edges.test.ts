// Less common paths of job setup: a failure at the last step, source checks,
// a switch whose program cannot aggregate, and the allocator's avoided slots.
import { describe, expect, it } from 'vitest';
import { CapacityAllocator, RangePool, type Topology } from '../../../src/controller/index.js';
import { Installer, InstallError } from '../../../src/controller/install/index.js';
import { action, insert, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, dumpState, FORWARD_P4, programs, singleSwitch, switchmlJob, TestSwitch } from './helpers.js';

describe('job setup edge cases', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  async function installerFor(make: (s: TestSwitch) => Topology, options: { checkSource?: boolean } = {}): Promise<Installer> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const installer = await closing.connect(make(s1), { programs, ...options });
    return installer;
  }

  it('rolls back every earlier step when the jobs entry itself fails', async () => {
    const installer = await installerFor(singleSwitch);
    const session = installer.sessions.get('s1')!;
    await installer.setupJob(switchmlJob(1, ['h1'], 4));
    await installer.teardownJob(1);
    // A jobs entry for job 6 that this controller did not write (no group, no workers).
    await session.client.write(insert(table('jobs', { job_id: 6 }, action('set_job', { slot_base: 60, pool_size: 1, worker_count: 1, mcast_group: 99 }))));
    const before = await dumpState(session);
    const err = await installer.setupJob(switchmlJob(6, ['h1', 'h2'], 4)).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_WRITE_FAILED');
    expect((err as InstallError).message).toMatch(/removed and its resources released/);
    expect(await dumpState(session)).toEqual(before);
    expect(installer.allocator.usage('s1').slotsFree).toBe(64);
  });

  it('writes accept_worker_from (IPv4 source and UDP port) by default', async () => {
    const installer = await installerFor(singleSwitch);
    await installer.setupJob(switchmlJob(3, ['h1', 'h2'], 4));
    const workers = await installer.sessions.get('s1')!.readAll(table('workers'));
    expect(workers.map((w) => w.action)).toEqual([
      action('ingress.switchml.accept_worker_from', { bitmap_bit: 1, src_addr: 0x0a000101, src_port: 0xbee0 }),
      action('ingress.switchml.accept_worker_from', { bitmap_bit: 2, src_addr: 0x0a000102, src_port: 0xbee1 }),
    ]);
  });

  it('writes accept_worker when told not to check sources', async () => {
    const installer = await installerFor(singleSwitch, { checkSource: false });
    await installer.setupJob(switchmlJob(3, ['h1', 'h2'], 4));
    const workers = await installer.sessions.get('s1')!.readAll(table('workers'));
    expect(workers.map((w) => w.action)).toEqual([action('ingress.switchml.accept_worker', { bitmap_bit: 1 }), action('ingress.switchml.accept_worker', { bitmap_bit: 2 })]);
  });

  it('refuses a job on an INA switch whose program has no aggregation, allocating nothing', async () => {
    const installer = await installerFor((s) => {
      const topo = singleSwitch(s);
      const s1 = { ...topo.switches.get('s1')!, program: { p4: FORWARD_P4 } };
      return { ...topo, switches: new Map([['s1', s1]]) };
    });
    const err = await installer.setupJob(switchmlJob(3, ['h1', 'h2'], 4)).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_PIPELINE_MISMATCH');
    expect(installer.allocator.has(3)).toBe(false);
    expect(installer.counters().writes).toBe(0);
  });

  it("refuses a job whose elements_per_packet is not the switch's SWITCHML_ELEMENTS, saying what to set or compile, allocating nothing", async () => {
    const installer = await installerFor(singleSwitch);
    // The P4Info of the shared cache's switchml.p4 says 8 values per packet (DEFINES).
    for (const [sent, fix] of [
      [64, 'set elements_per_packet to 8, or compile switchml.p4 with -DSWITCHML_ELEMENTS=64'],
      [364, 'set elements_per_packet to 8, or compile switchml.p4 with -DSWITCHML_ELEMENTS=364'],
    ] as const) {
      const err = await installer.setupJob({ ...switchmlJob(3, ['h1', 'h2'], 4), elementsPerPacket: sent }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'INSTALL_PIPELINE_MISMATCH', switchName: 's1' });
      expect((err as InstallError).message).toBe(`s1: job 3 aggregates here, but its switchml.p4 adds 8 values per packet and the job sends ${sent}; ${fix}`);
    }
    expect(installer.allocator.has(3)).toBe(false);
    expect(installer.counters().writes).toBe(0);
    await installer.setupJob(switchmlJob(3, ['h1', 'h2'], 4));
    expect(installer.allocator.has(3)).toBe(true);
  });

  it('the allocator skips avoided slots and reports a shortfall when only they would fit', () => {
    const pool = new RangePool(0, 15);
    pool.take(0, 2);
    expect(pool.findFirstFit(4, [{ start: 2, size: 3 }])).toBe(5);
    expect(pool.findFirstFit(4, [{ start: 4, size: 10 }])).toBeUndefined();
    expect(pool.findFirstFit(2, [{ start: 2, size: 2 }, { start: 4, size: 1 }])).toBe(5);

    const allocator = new CapacityAllocator({ perSwitch: { s1: { slots: 16 } } });
    const a = allocator.allocate({ jobId: 1, switches: [{ switch: 's1', slots: 4, workers: 1 }] }, { avoidSlots: { s1: [{ start: 0, size: 6 }] } });
    expect(a.switches[0]!.slotBase).toBe(6);
    expect(() => allocator.allocate({ jobId: 2, switches: [{ switch: 's1', slots: 8, workers: 1 }] }, { avoidSlots: { s1: [{ start: 0, size: 6 }] } })).toThrow(/slots/);
    expect(allocator.has(2)).toBe(false);
  });
});
