// Rina jobs installed over real P4Runtime/gRPC into emulated switches running
// rina_tor.p4. Expected entries are written from docs/rina.md §2 ("Tables",
// "Multicast group", "What the controller installs per job"): per INA ToR a
// group with a replica per rack worker (port towards it, instance = its
// worker id) and, in a ring of two or more, one for the next member
// (instance 32, port towards its agent); rina_rewrite (job, rid) → the
// host's MAC (or the routing next hop's), IP and port; rina_workers (job,
// worker) → its bit, IP and port; rina_jobs → the slot range, rack mask and
// size, group, ring position, last step and the agent's and predecessor's
// addresses. They must also be exactly what rinaSwitchEntries builds.
import { describe, expect, it } from 'vitest';
import { CapacityError, type Topology } from '../../../src/controller/index.js';
import { Installer, InstallError, rinaSwitchEntries, type RinaInstalledJob } from '../../../src/controller/install/index.js';
import { action, insert, modify, register, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, TestSwitch } from './helpers.js';
import { CELL_REGISTERS, diff, dumpRina, entityLines, ip, mac, RINA_PORT as P, RINA_SLOTS, rinaJob, rinaLeafSpine, rinaPrograms, rinaSingleTor, SPINE_MAC, type Program } from './rina-helpers.js';

const jobEntry = (job: number, p: { base: number; pool: number; mask: number; workers: number; group: number; rank: number; last: number; agent: [number, number]; pred: [number, number] }) =>
  `ingress.rina.rina_jobs {"job_id":${job}} -> ingress.rina.set_rina_job{"slot_base":${p.base},"pool_size":${p.pool},"rack_mask":${p.mask},"rack_workers":${p.workers},"mcast_group":${p.group},"rank":${p.rank},"last_step":${p.last},"agent_ip":${p.agent[0]},"agent_port":${p.agent[1]},"pred_ip":${p.pred[0]},"pred_port":${p.pred[1]}}`;
const worker = (job: number, id: number, addr: number, port: number) =>
  `ingress.rina.rina_workers {"job_id":${job},"worker_id":${id}} -> ingress.rina.rack_worker{"bitmap_bit":${2 ** id},"src_addr":${addr},"src_port":${port}}`;
const rewrite = (job: number, rid: number, dstMac: number, dstIp: number, port: number) =>
  `egress.rina_rewrite {"job_id":${job},"egress_rid":${rid}} -> egress.rina_rewrite_to{"dst_mac":${dstMac},"dst_ip":${dstIp},"dst_port":${port}}`;

describe('Rina jobs: setup and teardown', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  async function connect(topology: Topology, options: Parameters<typeof Installer.connect>[1] = {}): Promise<Installer> {
    const installer = await closing.connect(topology, { programs: rinaPrograms, ...options });
    await installer.installForwarding();
    return installer;
  }
  async function single(options: Parameters<typeof Installer.connect>[1] = {}, program: Program = 'rina'): Promise<Installer> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    return connect(rinaSingleTor(s1, program), options);
  }
  async function leafSpine(programs?: readonly [Program, Program, Program]): Promise<{ installer: Installer; before: Map<string, string[]> }> {
    const s = await Promise.all([1, 2, 3, 4].map((id) => TestSwitch.start(id)));
    switches.push(...s);
    const installer = await connect(rinaLeafSpine(s, programs));
    return { installer, before: await dumpAll(installer) };
  }
  async function dumpAll(installer: Installer): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const [name, session] of installer.sessions) out.set(name, await dumpRina(session));
    return out;
  }

  it('one INA rack, a ring of one: exactly the documented entries, those rinaSwitchEntries builds, and teardown leaves the switch as it was', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    const before = await dumpRina(session);
    const spec = rinaJob(7, ['h1', 'h2', 'h3', 'h4'], 8);
    const job = (await installer.setupJob(spec)) as RinaInstalledJob;
    const added = diff(before, await dumpRina(session));
    expect(added).toEqual({
      added: [
        jobEntry(7, { base: 0, pool: 8, mask: 15, workers: 4, group: 16, rank: 0, last: 0, agent: [ip(1, 1), P], pred: [0, 0] }),
        'group 16: 1/0 2/1 3/2 4/3',
        ...[0, 1, 2, 3].map((w) => worker(7, w, ip(1, w + 1), P + w)),
        ...[0, 1, 2, 3].map((w) => rewrite(7, w, mac(1, w + 1), ip(1, w + 1), P + w)),
      ].sort(),
      removed: [],
    });
    const allocation = { switch: 's1', jobId: 7, slotBase: 0, slots: 8, multicastGroup: 16, workers: 4 };
    expect(job).toMatchObject({ algorithm: 'rina', cellsCleared: 0, allocation: { jobId: 7, switches: [allocation] } });
    expect(added.added).toEqual(entityLines(rinaSwitchEntries(installer.topology, spec, installer.planFor(spec), 's1', allocation)));
    expect(installer.allocator.usage('s1')).toMatchObject({ slotsFree: RINA_SLOTS - 8, groupsFree: 65520 - 1, jobEntriesFree: 63 });

    await installer.teardownJob(7);
    expect(await dumpRina(session)).toEqual(before);
    expect(installer.allocator.usage('s1')).toMatchObject({ slotsFree: RINA_SLOTS, groupsFree: 65520, jobEntriesFree: 64 });
    expect(installer.jobs()).toEqual([]);
  });

  it('a mixed ring on a leaf-spine: entries at the two INA ToRs only, each with its next member and predecessor', async () => {
    const { installer, before } = await leafSpine();
    const spec = rinaJob(8, ['h1', 'h2', 'h3', 'h4', 'h5'], 4);
    const plan = installer.planFor(spec);
    // Ring: rack r1 (agent h1), worker h3, rack r3 (agent h4).
    expect(plan.ring!.map((m) => [m.kind, m.agentRank])).toEqual([['rack', 0], ['worker', 2], ['rack', 3]]);
    const job = (await installer.setupJob(spec, plan)) as RinaInstalledJob;
    const after = await dumpAll(installer);
    const common = { base: 0, pool: 4, mask: 3, workers: 2, group: 16, last: 2 };
    expect(diff(before.get('s1')!, after.get('s1')!)).toEqual({
      added: [
        jobEntry(8, { ...common, rank: 0, agent: [ip(1, 1), P], pred: [ip(3, 1), P + 3] }),
        'group 16: 1/0 2/1 3/32',
        worker(8, 0, ip(1, 1), P),
        worker(8, 1, ip(1, 2), P + 1),
        rewrite(8, 0, mac(1, 1), ip(1, 1), P),
        rewrite(8, 1, mac(1, 2), ip(1, 2), P + 1),
        // The next member, h3, behind the spine, which routes.
        rewrite(8, 32, SPINE_MAC, ip(2, 1), P + 2),
      ].sort(),
      removed: [],
    });
    expect(diff(before.get('s3')!, after.get('s3')!)).toEqual({
      added: [
        jobEntry(8, { ...common, rank: 2, agent: [ip(3, 1), P + 3], pred: [ip(2, 1), P + 2] }),
        'group 16: 1/0 2/1 3/32',
        worker(8, 0, ip(3, 1), P + 3),
        worker(8, 1, ip(3, 2), P + 4),
        rewrite(8, 0, mac(3, 1), ip(3, 1), P + 3),
        rewrite(8, 1, mac(3, 2), ip(3, 2), P + 4),
        rewrite(8, 32, SPINE_MAC, ip(1, 1), P),
      ].sort(),
      removed: [],
    });
    for (const sw of ['s2', 's4']) expect(after.get(sw)).toEqual(before.get(sw));
    for (const a of job.allocation.switches) {
      const added = diff(before.get(a.switch)!, after.get(a.switch)!).added;
      expect(added).toEqual(entityLines(rinaSwitchEntries(installer.topology, spec, plan, a.switch, a)));
    }
    await installer.teardownJob(8);
    expect(await dumpAll(installer)).toEqual(before);
  });

  it('a second job gets disjoint slots and its own group; the same spec again writes nothing; another spec with its id is refused', async () => {
    const installer = await single();
    const a = await installer.setupJob(rinaJob(1, ['h1', 'h2'], 8));
    const b = await installer.setupJob(rinaJob(2, ['h3', 'h4'], 16));
    expect(a.allocation.switches).toEqual([{ switch: 's1', jobId: 1, slotBase: 0, slots: 8, multicastGroup: 16, workers: 2 }]);
    expect(b.allocation.switches).toEqual([{ switch: 's1', jobId: 2, slotBase: 8, slots: 16, multicastGroup: 17, workers: 2 }]);
    const lines = await dumpRina(installer.sessions.get('s1')!);
    expect(lines).toContain(jobEntry(2, { base: 8, pool: 16, mask: 3, workers: 2, group: 17, rank: 0, last: 0, agent: [ip(1, 3), P], pred: [0, 0] }));
    expect(lines).toContain('group 17: 3/0 4/1');
    const writes = installer.counters().writes;
    expect(await installer.setupJob(rinaJob(1, ['h1', 'h2'], 8))).toBe(a);
    expect(installer.counters().writes).toBe(writes);
    const err = await installer.setupJob(rinaJob(1, ['h1', 'h2'], 4)).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_JOB_CONFLICT');
    expect(installer.counters().writes).toBe(writes);
    // Job 1's slots and group go to the next job that fits them once it is gone.
    await installer.teardownJob(1);
    expect((await installer.setupJob(rinaJob(3, ['h1'], 8))).allocation.switches[0]).toMatchObject({ slotBase: 0, multicastGroup: 16 });
  });

  it('refuses what does not fit, writing nothing: slots, groups, the program, its values per packet or slots, no INA rack', async () => {
    const installer = await single({ capacity: { s1: { jobGroups: { first: 16, last: 17 } } } });
    const session = installer.sessions.get('s1')!;
    await installer.setupJob(rinaJob(1, ['h1'], 8));
    const before = await dumpRina(session);
    const writes = installer.counters().writes;
    const refused = async (spec: ReturnType<typeof rinaJob>, on = installer): Promise<{ code: string; message: string; shortfalls?: unknown }> => {
      const err = (await on.setupJob(spec).catch((e: unknown) => e)) as { code: string; message: string; shortfalls?: unknown };
      expect(on.allocator.has(spec.id)).toBe(false);
      expect(installer.counters().writes).toBe(writes);
      expect(await dumpRina(session)).toEqual(before);
      return err;
    };
    const slots = await refused(rinaJob(2, ['h2'], RINA_SLOTS - 7));
    expect(slots).toBeInstanceOf(CapacityError);
    expect(slots).toMatchObject({ code: 'CAPACITY_EXHAUSTED', shortfalls: [{ switch: 's1', resource: 'slots', needed: RINA_SLOTS - 7, free: RINA_SLOTS - 8 }] });
    expect(await refused({ ...rinaJob(3, ['h2'], 8), elementsPerPacket: 16 })).toMatchObject({
      code: 'INSTALL_PIPELINE_MISMATCH',
      message: 's1: job 3 has an INA rack here, but its rina_tor.p4 adds 8 values per packet and the job sends 16; set elements_per_packet to 8, or compile rina_tor.p4 with -DRINA_ELEMENTS=16',
    });
    expect(await refused(rinaJob(3, ['h2'], RINA_SLOTS + 1))).toMatchObject({ code: 'INSTALL_PIPELINE_MISMATCH', message: expect.stringContaining(`has ${RINA_SLOTS} slots and the job's pool_size is ${RINA_SLOTS + 1}`) });
    await installer.setupJob(rinaJob(2, ['h2'], 8));
    const writesNow = installer.counters().writes;
    const full = (await installer.setupJob(rinaJob(4, ['h3'], 8)).catch((e: unknown) => e)) as CapacityError;
    expect(full).toMatchObject({ code: 'CAPACITY_EXHAUSTED', shortfalls: [{ switch: 's1', resource: 'multicast-groups', needed: 1, free: 0, limit: 2 }] });
    expect(installer.counters().writes).toBe(writesNow);
    expect(installer.allocator.has(4)).toBe(false);
  });

  it('an INA ToR that does not run rina_tor.p4 is a pipeline mismatch; no INA rack is nothing to install', async () => {
    const installer = await single({}, 'switchml');
    const writes = installer.counters().writes;
    const err = (await installer.setupJob(rinaJob(5, ['h1', 'h2'], 8)).catch((e: unknown) => e)) as InstallError;
    expect(err).toBeInstanceOf(InstallError);
    expect(err.code).toBe('INSTALL_PIPELINE_MISMATCH');
    expect(err.message).toMatch(/^s1: job 5 has an INA rack here, but the switch's program is not rina_tor.p4 .*; run p4\/rina_tor.p4 on the ToRs of INA racks, or mark the switch "ina": false$/);
    expect(installer.allocator.has(5)).toBe(false);
    expect(installer.counters().writes).toBe(writes);

    const { installer: fabric, before } = await leafSpine(['forward', 'forward', 'forward']);
    const none = (await fabric.setupJob(rinaJob(6, ['h1', 'h3', 'h4'], 8)).catch((e: unknown) => e)) as InstallError;
    expect(none.code).toBe('INSTALL_NOTHING_TO_INSTALL');
    expect(fabric.allocator.has(6)).toBe(false);
    expect(await dumpAll(fabric)).toEqual(before);
  });

  it('rolls back everything when a write fails: midway at one ToR, and at the last step of the second ToR', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    // Someone else's entry where job 7's third rewrite goes: that INSERT fails with ALREADY_EXISTS.
    await session.client.write(insert(table('rina_rewrite', { job_id: 7, egress_rid: 2 }, action('rina_rewrite_to', { dst_mac: 1, dst_ip: 2, dst_port: 3 }))));
    const before = await dumpRina(session);
    const err = (await installer.setupJob(rinaJob(7, ['h1', 'h2', 'h3', 'h4'], 8)).catch((e: unknown) => e)) as InstallError;
    expect(err.code).toBe('INSTALL_WRITE_FAILED');
    expect(err.message).toMatch(/ALREADY_EXISTS.*what it had written was removed and its resources released/);
    expect(await dumpRina(session)).toEqual(before);
    expect(installer.allocator.has(7)).toBe(false);
    expect(installer.jobs()).toEqual([]);

    const { installer: fabric } = await leafSpine();
    // A rina_jobs entry for job 8 at s3: its last INSERT there fails, after all of s1's.
    const s3 = fabric.sessions.get('s3')!;
    await s3.client.write(insert(table('rina_jobs', { job_id: 8 }, action('set_rina_job', { slot_base: 60, pool_size: 1, rack_mask: 1, rack_workers: 1, mcast_group: 99, rank: 0, last_step: 0, agent_ip: 1, agent_port: 1, pred_ip: 0, pred_port: 0 }))));
    const fabricBefore = await dumpAll(fabric);
    const failed = (await fabric.setupJob(rinaJob(8, ['h1', 'h2', 'h3', 'h4', 'h5'], 4)).catch((e: unknown) => e)) as InstallError;
    expect(failed).toMatchObject({ code: 'INSTALL_WRITE_FAILED', switchName: 's3' });
    expect(await dumpAll(fabric)).toEqual(fabricBefore);
    expect(fabric.allocator.usage('s1')).toMatchObject({ slotsFree: RINA_SLOTS, jobEntriesFree: 64 });
  });

  it('clears the cells of a reused slot range, stash included, before the job goes live', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    await installer.setupJob(rinaJob(1, ['h1', 'h2'], 4));
    // Rounds and a stash left behind by job 1 in slot 1's copies (cells 2 and 3).
    await session.client.write(CELL_REGISTERS.flatMap((name) => [modify(register(name, { index: 2, value: 1 })), modify(register(name, { index: 3, value: 1 }))]));
    await installer.teardownJob(1);
    const job = await installer.setupJob(rinaJob(2, ['h3', 'h4'], 4));
    expect(job.allocation.switches[0]!.slotBase).toBe(0);
    expect(job.cellsCleared).toBe(4 * 2 * 4); // four registers × two copies × four slots
    for (const name of CELL_REGISTERS) expect((await dumpRina(session)).find((l) => l.startsWith(name))).toBe(`${name}: `);
    // Slots never used need no clearing.
    expect((await installer.setupJob(rinaJob(3, ['h1'], 4))).cellsCleared).toBe(0);
  });

  it('on a target without register writes: never-used slots, and INSTALL_DIRTY_CELLS when only used ones fit', async () => {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const topology = rinaSingleTor(s1);
    const installer = await connect({ ...topology, switches: new Map([['s1', { ...topology.switches.get('s1')!, target: 'bmv2' as const }]]) });
    await installer.setupJob(rinaJob(1, ['h1', 'h2'], 8));
    await installer.teardownJob(1);
    const second = await installer.setupJob(rinaJob(2, ['h3', 'h4'], 8));
    expect(second.allocation.switches[0]!.slotBase).toBe(8);
    await installer.teardownJob(2);
    const writes = installer.counters().writes;
    const err = (await installer.setupJob(rinaJob(3, ['h1'], RINA_SLOTS - 8)).catch((e: unknown) => e)) as InstallError;
    expect(err.code).toBe('INSTALL_DIRTY_CELLS');
    expect(err.message).toContain('clear seen, pred_seen, remaining and stash_full with its CLI');
    expect(installer.counters().writes).toBe(writes);
    expect(installer.allocator.has(3)).toBe(false);
  });
});
