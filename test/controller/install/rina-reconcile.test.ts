// Reconciling Rina jobs after a controller or switch restart, against emulated
// switches running rina_tor.p4 over real P4Runtime/gRPC: what a first
// controller installed is read back (rina_jobs, rina_workers, rina_rewrite,
// groups) and compared with the specs; the switch's own state is the truth
// the tests check against.
import { describe, expect, it } from 'vitest';
import type { Topology } from '../../../src/controller/index.js';
import { Installer, InstallError, type RinaInstalledJob } from '../../../src/controller/install/index.js';
import { action, del, insert, multicastGroup, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, TestSwitch } from './helpers.js';
import { dumpRina, rinaJob, rinaLeafSpine, rinaPrograms, rinaSingleTor } from './rina-helpers.js';

describe('Rina jobs: reconcile after restarts', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  const connect = (topology: Topology, electionId: bigint): Promise<Installer> => closing.connect(topology, { programs: rinaPrograms, electionId });
  const ring = rinaJob(1, ['h1', 'h2', 'h3', 'h4', 'h5'], 8);
  const other = rinaJob(2, ['h1', 'h2'], 4);

  /** A leaf-spine with jobs 1 (a mixed ring over s1 and s3) and 2 (rack r1 alone) installed by a controller that then went away. */
  async function runningFabric(): Promise<{ topology: Topology; state: Map<string, string[]> }> {
    const s = await Promise.all([1, 2, 3, 4].map((id) => TestSwitch.start(id)));
    switches.push(...s);
    const topology = rinaLeafSpine(s);
    const first = await Installer.connect(topology, { programs: rinaPrograms, electionId: 1n });
    try {
      await first.installForwarding();
      await first.setupJob(ring);
      await first.setupJob(other);
      return { topology, state: await dumpAll(first) };
    } finally {
      await first.close();
    }
  }
  async function dumpAll(installer: Installer): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const [name, session] of installer.sessions) out.set(name, await dumpRina(session));
    return out;
  }

  it('a restarted controller adopts the installed jobs without writing, rebuilds the allocator, and can tear them down', async () => {
    const { topology, state } = await runningFabric();
    const second = await connect(topology, 2n);
    const report = await second.reconcile([ring, other]);
    expect(report).toMatchObject({ unchanged: [1, 2], installed: [], reinstalled: [], replaced: [], foreign: [], hostOnly: [], orphansRemoved: 0 });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    expect(await dumpAll(second)).toEqual(state);
    expect(second.allocator.snapshot().allocations.map((a) => [a.jobId, a.switch, a.slotBase, a.slots, a.multicastGroup, a.workers])).toEqual([
      [1, 's1', 0, 8, 16, 2],
      [1, 's3', 0, 8, 16, 2],
      [2, 's1', 8, 4, 17, 2],
    ]);
    expect(second.jobs().map((j) => [j.algorithm, j.allocation.jobId, (j as RinaInstalledJob).switches.map((e) => e.position)])).toEqual([
      ['rina', 1, [0, 2]],
      ['rina', 2, [0]],
    ]);
    // The same spec again is a no-op; the next job goes after both, its cells cleared (the switch's past is unknown).
    expect(await second.setupJob(ring)).toBe(second.jobs()[0]);
    const third = await second.setupJob(rinaJob(3, ['h4', 'h5'], 4));
    expect(third.allocation.switches[0]).toMatchObject({ switch: 's3', slotBase: 8, multicastGroup: 17 });
    expect(third.cellsCleared).toBe(4 * 2 * 4);
    await second.teardownJob(3);
    await second.teardownJob(1);
    await second.teardownJob(2);
    for (const sw of ['s1', 's3']) {
      const session = second.sessions.get(sw)!;
      for (const t of ['rina_jobs', 'rina_workers', 'rina_rewrite']) expect(await session.readAll(table(t))).toEqual([]);
      expect((await session.readAll(multicastGroup())).map((g) => g.groupId)).toEqual([1]);
    }
  });

  it('keeps a job it was not told about as foreign, and removes leftovers of an interrupted setup', async () => {
    const { topology } = await runningFabric();
    const second = await connect(topology, 2n);
    const s3 = second.sessions.get('s3')!;
    // A setup of job 9 that stopped after its group and a worker entry: no rina_jobs entry.
    await s3.client.write(insert(multicastGroup(40, [{ port: 1, instance: 0 }])));
    await s3.client.write(insert(table('rina_workers', { job_id: 9, worker_id: 0 }, action('rack_worker', { bitmap_bit: 1, src_addr: 2, src_port: 3 }))));
    const report = await second.reconcile([ring]);
    expect(report).toMatchObject({ unchanged: [1], foreign: [2], orphansRemoved: 2 });
    expect(await s3.readAll(multicastGroup(40))).toEqual([]);
    expect(await s3.readAll(table('rina_workers', { job_id: 9, worker_id: 0 }))).toEqual([]);
    const foreign = second.jobs().find((j) => j.allocation.jobId === 2)!;
    expect([foreign.algorithm, foreign.spec]).toEqual(['rina', undefined]);
    await second.teardownJob(2);
    expect((await second.sessions.get('s1')!.readAll(table('rina_jobs'))).map((e) => e.match)).toEqual([{ job_id: 1 }]);
  });

  it('refuses jobs whose entries differ from their specs, before any write, and replaces them when asked', async () => {
    const { topology } = await runningFabric();
    const second = await connect(topology, 2n);
    const bigger = rinaJob(1, ['h1', 'h2', 'h3', 'h4', 'h5'], 16);
    const err = (await second.reconcile([bigger, other]).catch((e: unknown) => e)) as InstallError;
    expect(err).toBeInstanceOf(InstallError);
    expect(err.code).toBe('INSTALL_JOB_CONFLICT');
    expect(err.message).toMatch(/job 1 on s1, s3; tear them down first, or reconcile with \{ replace: true \}/);
    expect(second.counters().writes).toBe(0);

    const report = await second.reconcile([bigger, other], { replace: true });
    expect(report).toMatchObject({ unchanged: [2], replaced: [1] });
    const [entry] = await second.sessions.get('s3')!.readAll(table('rina_jobs', { job_id: 1 }));
    expect((entry!.action as { params: Record<string, unknown> }).params).toMatchObject({ pool_size: 16, rank: 2 });
  });

  it('reinstalls a job found on part of its plan, and a restarted switch gets its jobs back', async () => {
    const { topology, state } = await runningFabric();
    const second = await connect(topology, 2n);
    // Job 1's rina_jobs entry at s3 is gone: its two workers, three rewrites and group there are leftovers.
    await second.sessions.get('s3')!.client.write(del(table('rina_jobs', { job_id: 1 })));
    const report = await second.reconcile([ring, other]);
    expect(report).toMatchObject({ unchanged: [2], reinstalled: [1], orphansRemoved: 6 });
    const job = second.jobs().find((j) => j.allocation.jobId === 1)!;
    expect(job.allocation.switches.map((a) => [a.switch, a.slotBase])).toEqual([['s1', 0], ['s3', 0]]);
    expect(job.cellsCleared).toBe(2 * 4 * 2 * 8); // two ToRs whose past is unknown × four registers × two copies × eight slots
    expect(await dumpAll(second)).toEqual(state);
    await second.close();

    // s3 restarts empty: a new controller pushes its pipeline and forwarding, and job 1 is set up again everywhere.
    const idx = topology.switches.get('s3')!.deviceId;
    const old = switches.find((s) => s.deviceId === idx)!;
    const fresh = await old.restart();
    switches.push(fresh);
    const third = await connect(topology, 3n);
    expect(third.counters().pipelinePushes).toBe(1);
    expect(await third.reconcile([ring, other])).toMatchObject({ unchanged: [2], reinstalled: [1] });
    expect(await dumpAll(third)).toEqual(state);
    // Reconciling again writes nothing.
    const writes = third.counters().writes;
    expect(await third.reconcile([ring, other])).toMatchObject({ unchanged: [1, 2] });
    expect(third.counters().writes).toBe(writes);
  });

  it('a job id whose spec no longer uses switches is host-only, and the Rina entries of that id are removed', async () => {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const topology = rinaSingleTor(s1);
    const first = await connect(topology, 1n);
    await first.installForwarding();
    await first.setupJob(rinaJob(4, ['h1', 'h2'], 4));
    await first.close();
    // The same id now asks for plain ring AllReduce: nothing on switches, and the Rina job's entries go.
    const ringSpec = { ...rinaJob(4, ['h1', 'h2'], 4), algorithm: 'ring' as const };
    const second = await connect(topology, 2n);
    expect(await second.reconcile([ringSpec])).toMatchObject({ hostOnly: [4], unchanged: [], foreign: [] });
    const session = second.sessions.get('s1')!;
    expect(await session.readAll(table('rina_jobs'))).toEqual([]);
    expect(await session.readAll(table('rina_workers'))).toEqual([]);
    expect((await session.readAll(multicastGroup())).map((g) => g.groupId)).toEqual([1]);
    expect(second.allocator.has(4)).toBe(false);
  });
});
