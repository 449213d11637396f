import { describe, expect, it } from 'vitest';
import { CapacityError } from '../../../src/controller/index.js';
import { Installer, InstallError } from '../../../src/controller/install/index.js';
import { action, insert, modify, multicastGroup, register, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, dumpState, leafSpine, programs, singleSwitch, SLOTS, switchmlJob, TestSwitch } from './helpers.js';

const HOSTS = ['h1', 'h2', 'h3', 'h4'];
const mac = (rack: number, n: number) => 0x020000000000 + rack * 0x100 + n;
const ip = (rack: number, n: number) => (10 << 24) + rack * 256 + n;

describe('SwitchML job setup and teardown', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  async function singleSwitchInstaller(): Promise<Installer> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const installer = await closing.connect(singleSwitch(s1), { programs });
    await installer.installForwarding();
    return installer;
  }

  it('installs exactly the documented entries, and teardown leaves the switch as it was', async () => {
    const installer = await singleSwitchInstaller();
    const session = installer.sessions.get('s1')!;
    const before = await dumpState(session, { registers: true });
    const job = await installer.setupJob(switchmlJob(7, HOSTS, 8));
    expect(job.cellsCleared).toBe(0); // the pipeline was just pushed: every cell is clean
    const after = await dumpState(session, { registers: true });
    const added = after.filter((l) => !before.includes(l));
    const expected = [
      `ingress.switchml.jobs {"job_id":7} -> ingress.switchml.set_job{"slot_base":0,"pool_size":8,"worker_count":4,"mcast_group":16}`,
      'group 16: 1/0 2/1 3/2 4/3',
      // Source checks are on by default: the worker's IP and UDP port.
      ...[0, 1, 2, 3].map(
        (w) => `ingress.switchml.workers {"job_id":7,"worker_id":${w}} -> ingress.switchml.accept_worker_from{"bitmap_bit":${2 ** w},"src_addr":${0x0a000101 + w},"src_port":${0xbee0 + w}}`,
      ),
      ...[0, 1, 2, 3].map(
        (w) =>
          `egress.result_rewrite {"job_id":7,"egress_rid":${w}} -> egress.rewrite_result{"dst_mac":${mac(1, w + 1)},"dst_ip":${ip(1, w + 1)},"dst_port":${0xbee0 + w}}`,
      ),
    ];
    expect(added.sort()).toEqual(expected.sort());
    expect(before.filter((l) => !after.includes(l))).toEqual([]);
    expect(installer.allocator.usage('s1')).toMatchObject({ slotsFree: SLOTS - 8, jobEntriesFree: 63 });

    await installer.teardownJob(7);
    expect(await dumpState(session, { registers: true })).toEqual(before);
    expect(installer.allocator.usage('s1')).toMatchObject({ slotsFree: SLOTS, jobEntriesFree: 64 });
    expect(installer.jobs()).toEqual([]);
  });

  it('gives two jobs disjoint slot ranges and groups', async () => {
    const installer = await singleSwitchInstaller();
    const a = await installer.setupJob(switchmlJob(1, ['h1', 'h2'], 8));
    const b = await installer.setupJob(switchmlJob(2, ['h3', 'h4'], 16));
    expect(a.allocation.switches).toEqual([{ switch: 's1', jobId: 1, slotBase: 0, slots: 8, multicastGroup: 16, workers: 2 }]);
    expect(b.allocation.switches).toEqual([{ switch: 's1', jobId: 2, slotBase: 8, slots: 16, multicastGroup: 17, workers: 2 }]);
    const session = installer.sessions.get('s1')!;
    const jobs = await session.readAll(table('jobs'));
    expect(jobs.map((e) => e.action)).toEqual([
      action('ingress.switchml.set_job', { slot_base: 0, pool_size: 8, worker_count: 2, mcast_group: 16 }),
      action('ingress.switchml.set_job', { slot_base: 8, pool_size: 16, worker_count: 2, mcast_group: 17 }),
    ]);
    const [g2] = await session.readAll(multicastGroup(17));
    expect(g2!.replicas).toEqual([
      { port: 3, instance: 0 },
      { port: 4, instance: 1 },
    ]);
    // The same spec again is a no-op; another spec with the same id is refused.
    const writes = installer.counters().writes;
    expect(await installer.setupJob(switchmlJob(1, ['h1', 'h2'], 8))).toBe(a);
    expect(installer.counters().writes).toBe(writes);
    const err = await installer.setupJob(switchmlJob(1, ['h1', 'h2'], 4)).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_JOB_CONFLICT');
  });

  it('refuses a job that does not fit, writing nothing', async () => {
    const installer = await singleSwitchInstaller();
    await installer.setupJob(switchmlJob(1, ['h1', 'h2'], 8));
    const session = installer.sessions.get('s1')!;
    const before = await dumpState(session, { registers: true });
    const writes = installer.counters().writes;
    const err = await installer.setupJob(switchmlJob(2, ['h3', 'h4'], SLOTS)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CapacityError);
    expect((err as CapacityError).code).toBe('CAPACITY_EXHAUSTED');
    expect((err as CapacityError).shortfalls).toEqual([{ switch: 's1', resource: 'slots', needed: SLOTS, free: SLOTS - 8, limit: SLOTS, largestFree: SLOTS - 8 }]);
    expect(installer.counters().writes).toBe(writes);
    expect(await dumpState(session, { registers: true })).toEqual(before);
    // What is left still fits exactly.
    await installer.setupJob(switchmlJob(2, ['h3', 'h4'], SLOTS - 8));
  });

  it('rolls back what it wrote when a write fails midway', async () => {
    const installer = await singleSwitchInstaller();
    const session = installer.sessions.get('s1')!;
    // Someone else's entry where job 5's third rewrite goes: that INSERT fails with ALREADY_EXISTS.
    await session.client.write(insert(table('result_rewrite', { job_id: 5, egress_rid: 2 }, action('rewrite_result', { dst_mac: 1, dst_ip: 2, dst_port: 3 }))));
    const before = await dumpState(session, { registers: true });
    const err = await installer.setupJob(switchmlJob(5, HOSTS, 8)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('INSTALL_WRITE_FAILED');
    expect((err as InstallError).message).toMatch(/ALREADY_EXISTS/);
    expect(await dumpState(session, { registers: true })).toEqual(before);
    expect(installer.allocator.has(5)).toBe(false);
    expect(installer.jobs()).toEqual([]);
  });

  it('clears the cells of a reused slot range before the job goes live', async () => {
    const installer = await singleSwitchInstaller();
    const session = installer.sessions.get('s1')!;
    await installer.setupJob(switchmlJob(1, ['h1', 'h2'], 4));
    // Rounds left behind by job 1 (as if a worker died mid-round).
    await session.client.write([modify(register('seen', { index: 3, value: 1 })), modify(register('remaining', { index: 3, value: 1 }))]);
    await installer.teardownJob(1);
    const job = await installer.setupJob(switchmlJob(2, ['h3', 'h4'], 4));
    expect(job.allocation.switches[0]!.slotBase).toBe(0);
    expect(job.cellsCleared).toBe(2 * 2 * 4); // two registers × two copies × four slots
    const [seen] = await session.readAll(register('seen', { index: 3 }));
    const [remaining] = await session.readAll(register('remaining', { index: 3 }));
    expect([seen!.value, remaining!.value]).toEqual([0, 0]);
    // Slots never used need no clearing.
    expect((await installer.setupJob(switchmlJob(3, ['h1'], 4))).cellsCleared).toBe(0);
  });

  it('installs a rack job on the INA ToR of a leaf-spine only', async () => {
    const sw = [await TestSwitch.start(1), await TestSwitch.start(2), await TestSwitch.start(3)];
    switches.push(...sw);
    const installer = await closing.connect(leafSpine(sw[0]!, sw[1]!, sw[2]!), { programs });
    await installer.installForwarding();
    const before = new Map<string, string[]>();
    for (const [name, s] of installer.sessions) before.set(name, await dumpState(s));
    const job = await installer.setupJob(switchmlJob(9, ['h1', 'h2'], 8));
    expect(job.allocation.switches.map((a) => a.switch)).toEqual(['s1']);
    for (const name of ['s2', 's3']) expect(await dumpState(installer.sessions.get(name)!)).toEqual(before.get(name));
    const rewrites = await installer.sessions.get('s1')!.readAll(table('result_rewrite'));
    expect(rewrites.map((r) => r.action)).toEqual([
      action('egress.rewrite_result', { dst_mac: mac(1, 1), dst_ip: ip(1, 1), dst_port: 0xbee0 }),
      action('egress.rewrite_result', { dst_mac: mac(1, 2), dst_ip: ip(1, 2), dst_port: 0xbee1 }),
    ]);
    // Workers in both racks: no switch can aggregate (s3 is not INA-capable), so nothing to install.
    const err = await installer.setupJob(switchmlJob(10, ['h1', 'h3'], 8)).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_NOTHING_TO_INSTALL');
    expect(installer.allocator.has(10)).toBe(false);
  });

  it('teardown of a job it does not know is a typed error', async () => {
    const installer = await singleSwitchInstaller();
    const err = await installer.teardownJob(42).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_UNKNOWN_JOB');
  });
});
