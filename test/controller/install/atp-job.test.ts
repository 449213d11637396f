// ATP jobs installed over real P4Runtime/gRPC into emulated switches running
// atp.p4. Expected entries are written from docs/p4-programs.md §4 ("What the
// controller installs") and docs/atp.md ("Roles and levels"): per level-0 ToR
// a group with one replica per worker (port towards it, instance = its
// bitmap0 bit) and ack_rewrite (job, rid) → the worker's MAC, IP and port;
// atp_jobs → aggregate_at_level0(generation, group) or
// aggregate_at_level1(generation); the settings default entry on every
// atp.p4 switch. The generation is the fixed clock's milliseconds mod 2^16.
import { describe, expect, it } from 'vitest';
import { atpAgentConfigs, type Topology } from '../../../src/controller/index.js';
import { Installer, InstallError, type AtpInstalledJob } from '../../../src/controller/install/index.js';
import { action, insert, modify, register, table } from '../../../src/p4runtime/index.js';
import { atpJob, atpLeafSpine, atpPrograms, atpSingleSwitch, dumpAtp, FIRST_GENERATION, fixedClock, ip, mac, type LeafSpineSpec } from './atp-helpers.js';
import { closedAfterEach, TestSwitch } from './helpers.js';

// The program's default entry, as p4ina's switch reads it back (no action: the P4-declared default).
const ACTION_SETTINGS_DEFAULT = 'atp_settings (default) -> none';
const settings = (ecn: number, reclaimUs: number) => `atp_settings (default) -> ingress.set_atp_settings{"ecn_threshold":${ecn},"reclaim_after_us":${reclaimUs}}`;
const OFF = 524287;
const level0 = (job: number, generation: number, group: number) => `ingress.atp.atp_jobs {"job_id":${job}} -> ingress.atp.aggregate_at_level0{"generation":${generation},"mcast_group":${group}}`;
const level1 = (job: number, generation: number) => `ingress.atp.atp_jobs {"job_id":${job}} -> ingress.atp.aggregate_at_level1{"generation":${generation}}`;
const rewrite = (job: number, rid: number, rack: number, n: number, port: number) =>
  `egress.ack_rewrite {"job_id":${job},"egress_rid":${rid}} -> egress.rewrite_ack{"dst_mac":${mac(rack, n)},"dst_ip":${ip(rack, n)},"dst_port":${port}}`;

/** Lines in `after` and not in `before`, and the other way round. */
function diff(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  return { added: after.filter((l) => !before.includes(l)).sort(), removed: before.filter((l) => !after.includes(l)).sort() };
}

describe('ATP jobs: setup and teardown', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  async function connect(topology: Topology, options: Parameters<typeof Installer.connect>[1] = {}): Promise<Installer> {
    const installer = await closing.connect(topology, { programs: atpPrograms, clock: fixedClock(), ...options });
    await installer.installForwarding();
    return installer;
  }
  async function single(options: Parameters<typeof Installer.connect>[1] = {}): Promise<Installer> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    return connect(atpSingleSwitch(s1), options);
  }
  async function leafSpine(spec: LeafSpineSpec): Promise<{ installer: Installer; before: Map<string, string[]> }> {
    const s = await Promise.all([1, 2, 3, 4].map((id) => TestSwitch.start(id)));
    switches.push(...s);
    const installer = await connect(atpLeafSpine(s, spec));
    const before = new Map<string, string[]>();
    for (const [name, session] of installer.sessions) before.set(name, await dumpAtp(session));
    return { installer, before };
  }
  const changes = async (installer: Installer, before: Map<string, string[]>) => {
    const out: Record<string, { added: string[]; removed: string[] }> = {};
    for (const [name, session] of installer.sessions) out[name] = diff(before.get(name)!, await dumpAtp(session));
    return out;
  };

  it('a single switch: exactly the documented entries, and teardown leaves the switch as it was', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    const before = await dumpAtp(session);
    expect(before).toContain(ACTION_SETTINGS_DEFAULT);
    const job = await installer.setupJob(atpJob(7, ['h1', 'h2', 'h3', 'h4']));
    expect(diff(before, await dumpAtp(session))).toEqual({
      added: [
        level0(7, FIRST_GENERATION, 16),
        settings(OFF, 1_000_000),
        ...[0, 1, 2, 3].map((r) => rewrite(7, r, 1, r + 1, 0xbf01 + r)),
        'group 16: 1/0 2/1 3/2 4/3',
      ].sort(),
      removed: [ACTION_SETTINGS_DEFAULT],
    });
    expect(job.allocation.switches).toEqual([{ switch: 's1', jobId: 7, slotBase: 0, slots: 0, multicastGroup: 16, workers: 4 }]);
    expect(installer.allocator.usage('s1')).toMatchObject({ jobEntriesFree: 63 });

    await installer.teardownJob(7);
    expect(await dumpAtp(session)).toEqual(before);
    expect(installer.allocator.usage('s1')).toMatchObject({ jobEntriesFree: 64 });
    expect(installer.jobs()).toEqual([]);
  });

  it('leaf-spine, two INA ToRs and an INA spine: level 0 at s1 and s2, level 1 at s4, settings on every atp.p4 switch', async () => {
    const { installer, before } = await leafSpine({ programs: ['atp', 'atp', 'atp', 'atp'], ina: [true, true, false, true] });
    const job = atpJob(8, ['h1', 'h2', 'h3', 'h4'], { ecnThreshold: 30, reclaimMs: 2000 });
    await installer.setupJob(job);
    const set = settings(30, 2_000_000);
    expect(await changes(installer, before)).toEqual({
      s1: { added: [level0(8, FIRST_GENERATION, 16), set, rewrite(8, 0, 1, 1, 0xbf01), rewrite(8, 1, 1, 2, 0xbf02), 'group 16: 1/0 2/1'].sort(), removed: [ACTION_SETTINGS_DEFAULT] },
      s2: { added: [level0(8, FIRST_GENERATION, 16), set, rewrite(8, 0, 2, 1, 0xbf03), rewrite(8, 1, 2, 2, 0xbf04), 'group 16: 1/0 2/1'].sort(), removed: [ACTION_SETTINGS_DEFAULT] },
      s3: { added: [set], removed: [ACTION_SETTINGS_DEFAULT] },
      s4: { added: [level1(8, FIRST_GENERATION), set].sort(), removed: [ACTION_SETTINGS_DEFAULT] },
    });
    // What the agents are told matches: two level-1 contributors (the racks), two workers per rack.
    const { workers, ps } = atpAgentConfigs(job, installer.planFor(job));
    expect(workers.map((w) => [w.bitmap0Bit, w.bitmap1Bit, w.fanIn0, w.fanIn1])).toEqual([
      [0, 0, 2, 2],
      [1, 0, 2, 2],
      [0, 1, 2, 2],
      [1, 1, 2, 2],
    ]);
    expect(ps.racks.map((r) => r.aggregating)).toEqual([true, true]);
    await installer.teardownJob(8);
    for (const [name, session] of installer.sessions) expect(await dumpAtp(session)).toEqual(before.get(name));
  });

  it('a mixed fabric: a legacy ToR (forward.p4) and a ToR that aggregates at level 0, the spine at level 1', async () => {
    const { installer, before } = await leafSpine({ programs: ['atp', 'forward', 'atp', 'atp'], ina: [true, false, false, true] });
    const job = atpJob(9, ['h1', 'h2', 'h3', 'h4']);
    const installed = (await installer.setupJob(job)) as AtpInstalledJob;
    expect(installed.switches.map((e) => [e.switch, e.level])).toEqual([
      ['s4', 1],
      ['s1', 0],
    ]);
    const set = settings(OFF, 1_000_000);
    expect(await changes(installer, before)).toEqual({
      s1: { added: [level0(9, FIRST_GENERATION, 16), set, rewrite(9, 0, 1, 1, 0xbf01), rewrite(9, 1, 1, 2, 0xbf02), 'group 16: 1/0 2/1'].sort(), removed: [ACTION_SETTINGS_DEFAULT] },
      s2: { added: [], removed: [] },
      s3: { added: [set], removed: [ACTION_SETTINGS_DEFAULT] },
      s4: { added: [level1(9, FIRST_GENERATION), set].sort(), removed: [ACTION_SETTINGS_DEFAULT] },
    });
    // The rack behind s2 sends as two level-1 contributors of their own.
    expect(atpAgentConfigs(job, installed.plan!).workers.map((w) => [w.bitmap0Bit, w.bitmap1Bit, w.fanIn0, w.fanIn1])).toEqual([
      [0, 0, 2, 3],
      [1, 0, 2, 3],
      [undefined, 1, 0, 3],
      [undefined, 2, 0, 3],
    ]);
  });

  it('a switch that is INA-capable but does not run atp.p4 is not used; with no capable switch there is nothing to install', async () => {
    const { installer, before } = await leafSpine({ programs: ['switchml', 'atp', 'atp', 'atp'], ina: [true, false, false, false] });
    const job = atpJob(10, ['h1', 'h2', 'h3', 'h4']);
    expect(installer.planFor(job).reasons[0]).toBe('rack r1: ToR s1 is INA-capable but does not run atp.p4; its 2 workers are level-1 contributors of their own (bits 0 and 1)');
    const writes = installer.counters().writes;
    const err = await installer.setupJob(job).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_NOTHING_TO_INSTALL');
    expect(installer.counters().writes).toBe(writes);
    expect(installer.allocator.has(10)).toBe(false);
    // Reconciled, the host-only job still sets the atp.p4 switches' settings (they mark its packets on the way), and nothing else.
    const report = await installer.reconcile([job]);
    expect(report).toMatchObject({ hostOnly: [10], installed: [] });
    const set = settings(OFF, 1_000_000);
    expect(await changes(installer, before)).toEqual({
      s1: { added: [], removed: [] },
      s2: { added: [set], removed: [ACTION_SETTINGS_DEFAULT] },
      s3: { added: [set], removed: [ACTION_SETTINGS_DEFAULT] },
      s4: { added: [set], removed: [ACTION_SETTINGS_DEFAULT] },
    });
  });

  it('three jobs at once on one pool: distinct groups, settings from all of them, each teardown leaves the others', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    const before = await dumpAtp(session);
    await installer.setupJob(atpJob(1, ['h1', 'h2'], { ecnThreshold: 40 }));
    await installer.setupJob(atpJob(2, ['h3', 'h4'], { ecnThreshold: 20, reclaimMs: 3000 }));
    await installer.setupJob(atpJob(3, ['h1', 'h3', 'h4'], {}, 0xbf08));
    const all = await dumpAtp(session);
    expect(diff(before, all).added).toEqual(
      [
        level0(1, FIRST_GENERATION, 16),
        level0(2, FIRST_GENERATION, 17),
        level0(3, FIRST_GENERATION, 18),
        'group 16: 1/0 2/1',
        'group 17: 3/0 4/1',
        'group 18: 1/0 3/1 4/2',
        rewrite(1, 0, 1, 1, 0xbf01),
        rewrite(1, 1, 1, 2, 0xbf02),
        rewrite(2, 0, 1, 3, 0xbf01),
        rewrite(2, 1, 1, 4, 0xbf02),
        rewrite(3, 0, 1, 1, 0xbf08),
        rewrite(3, 1, 1, 3, 0xbf09),
        rewrite(3, 2, 1, 4, 0xbf0a),
        // The lowest threshold asked for, the longest reclaim time.
        settings(20, 3_000_000),
      ].sort(),
    );
    await installer.teardownJob(2);
    const afterTwo = await dumpAtp(session);
    expect(diff(all, afterTwo)).toEqual({
      added: [settings(40, 1_000_000)],
      removed: [level0(2, FIRST_GENERATION, 17), 'group 17: 3/0 4/1', rewrite(2, 0, 1, 3, 0xbf01), rewrite(2, 1, 1, 4, 0xbf02), settings(20, 3_000_000)].sort(),
    });
    // Job 2's group is free again and goes to the next job.
    expect((await installer.setupJob(atpJob(4, ['h2']))).allocation.switches[0]!.multicastGroup).toBe(17);
    for (const id of [1, 3, 4]) await installer.teardownJob(id);
    expect(await dumpAtp(session)).toEqual(before);
  });

  it('refuses what does not fit, writing nothing: multicast groups, job table entries, a job id in use, the program’s values or pool', async () => {
    const installer = await single({ capacity: { s1: { jobGroups: { first: 16, last: 17 }, maxJobs: 3 } } });
    const session = installer.sessions.get('s1')!;
    await installer.setupJob(atpJob(1, ['h1']));
    await installer.setupJob(atpJob(2, ['h2']));
    const before = await dumpAtp(session);
    const writes = installer.counters().writes;
    const refused = async (job: ReturnType<typeof atpJob>): Promise<{ code: string; shortfalls?: unknown }> => {
      const err = (await installer.setupJob(job).catch((e: unknown) => e)) as { code: string; shortfalls?: unknown };
      expect(installer.counters().writes).toBe(writes);
      expect(await dumpAtp(session)).toEqual(before);
      return err;
    };
    expect(await refused(atpJob(3, ['h3']))).toMatchObject({ code: 'CAPACITY_EXHAUSTED', shortfalls: [{ switch: 's1', resource: 'multicast-groups', needed: 1, free: 0, limit: 2 }] });
    expect(installer.allocator.has(3)).toBe(false);
    expect((await refused(atpJob(1, ['h3']))).code).toBe('INSTALL_JOB_CONFLICT');
    expect((await refused({ ...atpJob(4, ['h3']), elementsPerPacket: 16 })).code).toBe('INSTALL_PIPELINE_MISMATCH');
    expect((await refused({ ...atpJob(4, ['h3']), poolSize: 65 })).code).toBe('INSTALL_PIPELINE_MISMATCH');
    // A static split past the switch's 64 aggregators: 60..67.
    const pastTheEnd = { ...atpJob(4, ['h3']), poolSize: 8 };
    expect(await refused({ ...pastTheEnd, atp: { ...pastTheEnd.atp!, poolBase: 60 } })).toMatchObject({ code: 'INSTALL_PIPELINE_MISMATCH', message: expect.stringContaining('aggregators 60..67') });
    // With a group free, the job table (3 entries) is what runs out.
    await installer.teardownJob(2);
    await installer.setupJob(atpJob(2, ['h2']));
    const wide = await closing.connect(installer.topology, { programs: atpPrograms, capacity: { s1: { maxJobs: 2 } }, electionId: 2n });
    await wide.reconcile([atpJob(1, ['h1']), atpJob(2, ['h2'])]);
    const err = (await wide.setupJob(atpJob(5, ['h4'])).catch((e: unknown) => e)) as { code: string; shortfalls: unknown };
    expect(err).toMatchObject({ code: 'CAPACITY_EXHAUSTED', shortfalls: [{ switch: 's1', resource: 'job-entries', needed: 1, free: 0, limit: 2 }] });
  });

  it('rolls back everything, settings included, when a write fails midway', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    // Someone else's entry where job 7's third rewrite goes: that INSERT fails with ALREADY_EXISTS.
    await session.client.write(insert(table('ack_rewrite', { job_id: 7, egress_rid: 2 }, action('rewrite_ack', { dst_mac: 1, dst_ip: 2, dst_port: 3 }))));
    const before = await dumpAtp(session);
    const err = await installer.setupJob(atpJob(7, ['h1', 'h2', 'h3', 'h4'])).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_WRITE_FAILED');
    expect((err as InstallError).message).toMatch(/ALREADY_EXISTS/);
    expect(await dumpAtp(session)).toEqual(before);
    expect(installer.allocator.has(7)).toBe(false);
  });

  it('frees the job’s aggregators in the pool: what an earlier setup left before it goes live, and its own at teardown', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    const owner = (index: number, job: number, seq: number) => modify(register('ingress.atp.owner', { index, value: job * 0x10000 + seq }));
    // Leftovers of job 7 (two sequences) and an aggregator of job 8.
    await session.client.write([owner(3, 7, 5), owner(9, 7, 0xffff), owner(10, 8, 1)]);
    const job = await installer.setupJob(atpJob(7, ['h1', 'h2']));
    expect(job.cellsCleared).toBe(2);
    expect((await dumpAtp(session)).find((l) => l.startsWith('owners:'))).toBe(`owners: 10=${8 * 0x10000 + 1}`);
    // As if the job ran: it holds aggregators 0 and 63 when it is torn down.
    await session.client.write([owner(0, 7, 1), owner(63, 7, 2)]);
    await installer.teardownJob(7);
    expect((await dumpAtp(session)).find((l) => l.startsWith('owners:'))).toBe(`owners: 10=${8 * 0x10000 + 1}`);
  });
});
