// Reconciling OmniReduce switch jobs after a controller or switch restart,
// against an emulated switch running omnireduce.p4 over real P4Runtime/gRPC:
// what a first controller installed is read back (omnireduce_jobs,
// omnireduce_workers — keyed by the worker's address, naming the job in its
// action — reply_rewrite, groups) and compared with the specs; the switch's
// own state is the truth the tests check against.
import { describe, expect, it } from 'vitest';
import { defineJob, type Topology } from '../../../src/controller/index.js';
import { Installer, InstallError, type OmniReduceInstalledJob } from '../../../src/controller/install/index.js';
import { action, insert, multicastGroup, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, TestSwitch } from './helpers.js';
import { dumpOmni, OMNI_BLOCK, OMNI_PORT, omniJob, omniPrograms, omniSingleSwitch } from './omnireduce-helpers.js';

describe('OmniReduce switch jobs: reconcile after restarts', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  const connect = (topology: Topology, electionId: bigint): Promise<Installer> => closing.connect(topology, { programs: omniPrograms, electionId });
  const four = omniJob(1, ['h1', 'h2', 'h3', 'h4'], 8);
  const two = omniJob(2, ['h1', 'h2'], 4, { port: (rank) => OMNI_PORT + 10 + rank });

  /** One switch with jobs 1 (four workers) and 2 (two) installed by a controller that then went away. */
  async function running(): Promise<{ topology: Topology; state: string[]; s1: TestSwitch }> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const topology = omniSingleSwitch(s1);
    const first = await Installer.connect(topology, { programs: omniPrograms, electionId: 1n });
    try {
      await first.installForwarding();
      await first.setupJob(four);
      await first.setupJob(two);
      return { topology, state: await dumpOmni(first.sessions.get('s1')!), s1 };
    } finally {
      await first.close();
    }
  }

  it('a restarted controller adopts the installed jobs without writing ("unchanged"), rebuilds the allocator, and can tear them down', async () => {
    const { topology, state } = await running();
    const second = await connect(topology, 2n);
    const report = await second.reconcile([four, two]);
    expect(report).toMatchObject({ unchanged: [1, 2], installed: [], reinstalled: [], replaced: [], foreign: [], hostOnly: [], orphansRemoved: 0 });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    const session = second.sessions.get('s1')!;
    expect(await dumpOmni(session)).toEqual(state);
    expect(second.allocator.snapshot().allocations.map((a) => [a.jobId, a.switch, a.slotBase, a.slots, a.multicastGroup, a.workers])).toEqual([
      [1, 's1', 0, 8, 16, 4],
      [2, 's1', 8, 4, 17, 2],
    ]);
    expect(second.jobs().map((j) => [j.algorithm, j.allocation.jobId, (j as OmniReduceInstalledJob).switches.map((e) => e.workers.length)])).toEqual([
      ['omnireduce', 1, [4]],
      ['omnireduce', 2, [2]],
    ]);
    // The same spec again is a no-op; the next job goes after both, its cells cleared (the switch's past is unknown).
    expect(await second.setupJob(four)).toBe(second.jobs()[0]);
    const third = await second.setupJob(omniJob(3, ['h3', 'h4'], 4, { port: (rank) => OMNI_PORT + 20 + rank }));
    expect(third.allocation.switches[0]).toMatchObject({ slotBase: 12, multicastGroup: 18 });
    expect(third.cellsCleared).toBe(2 * 2 * 4);
    for (const id of [3, 1, 2]) await second.teardownJob(id);
    for (const t of ['omnireduce_jobs', 'omnireduce_workers', 'reply_rewrite']) expect(await session.readAll(table(t))).toEqual([]);
    expect((await session.readAll(multicastGroup())).map((g) => g.groupId)).toEqual([1]);
  });

  it('a restarted switch gets its jobs back; reconciling again writes nothing', async () => {
    const { topology, state, s1 } = await running();
    switches.push(await s1.restart());
    const second = await connect(topology, 2n);
    expect(second.counters().pipelinePushes).toBe(1);
    expect(await second.reconcile([four, two])).toMatchObject({ installed: [1, 2], unchanged: [], orphansRemoved: 0 });
    expect(await dumpOmni(second.sessions.get('s1')!)).toEqual(state);
    const writes = second.counters().writes;
    expect(await second.reconcile([four, two])).toMatchObject({ unchanged: [1, 2], installed: [] });
    expect(second.counters().writes).toBe(writes);
  });

  it('keeps a job it was not told about as foreign, and removes leftovers of an interrupted setup', async () => {
    const { topology } = await running();
    const second = await connect(topology, 2n);
    const session = second.sessions.get('s1')!;
    // A setup of job 9 that stopped after its group, a rewrite and a worker entry: no omnireduce_jobs entry.
    await session.client.write(insert(multicastGroup(40, [{ port: 1, instance: 0 }])));
    await session.client.write(insert(table('reply_rewrite', { job_id: 9, egress_rid: 0 }, action('rewrite_reply', { dst_mac: 1, dst_ip: 2, dst_port: 3 }))));
    await session.client.write(insert(table('omnireduce_workers', { src_addr: 0x0a000909, src_port: 5 }, action('accept_worker', { job_id: 9, bitmap_bit: 1 }))));
    const report = await second.reconcile([four]);
    expect(report).toMatchObject({ unchanged: [1], foreign: [2], orphansRemoved: 3 });
    expect(await session.readAll(multicastGroup(40))).toEqual([]);
    expect(await session.readAll(table('reply_rewrite', { job_id: 9, egress_rid: 0 }))).toEqual([]);
    expect(await session.readAll(table('omnireduce_workers', { src_addr: 0x0a000909, src_port: 5 }))).toEqual([]);
    // Job 2's workers are its own, not leftovers.
    expect((await session.readAll(table('omnireduce_workers'))).length).toBe(6);
    const foreign = second.jobs().find((j) => j.allocation.jobId === 2)!;
    expect([foreign.algorithm, foreign.spec]).toEqual(['omnireduce', undefined]);
    await second.teardownJob(2);
    expect((await session.readAll(table('omnireduce_jobs'))).map((e) => e.match)).toEqual([{ job_id: 1 }]);
    expect((await session.readAll(table('omnireduce_workers'))).length).toBe(4);
  });

  it('refuses a job whose entries differ from its spec, before any write, and replaces it when asked', async () => {
    const { topology } = await running();
    const second = await connect(topology, 2n);
    const bigger = omniJob(1, ['h1', 'h2', 'h3', 'h4'], 16);
    const err = (await second.reconcile([bigger, two]).catch((e: unknown) => e)) as InstallError;
    expect(err).toBeInstanceOf(InstallError);
    expect(err.code).toBe('INSTALL_JOB_CONFLICT');
    expect(err.message).toMatch(/job 1 on s1; tear them down first, or reconcile with \{ replace: true \}/);
    expect(second.counters().writes).toBe(0);

    expect(await second.reconcile([bigger, two], { replace: true })).toMatchObject({ unchanged: [2], replaced: [1] });
    const [entry] = await second.sessions.get('s1')!.readAll(table('omnireduce_jobs', { job_id: 1 }));
    expect((entry!.action as { params: Record<string, unknown> }).params).toMatchObject({ slot_count: 16, worker_count: 4 });
  });

  it('a job id whose spec now aggregates on hosts is host-only, and its switch entries are removed', async () => {
    const { topology } = await running();
    const onHosts = defineJob({ id: 2, algorithm: 'omnireduce', workers: [{ rank: 0, host: 'h1', udpPort: OMNI_PORT }], poolSize: 4, elementsPerPacket: OMNI_BLOCK, parameterServer: { host: 'h4', udpPort: 0xbef0 } });
    const second = await connect(topology, 2n);
    expect(await second.reconcile([four, onHosts])).toMatchObject({ unchanged: [1], hostOnly: [2], foreign: [] });
    const session = second.sessions.get('s1')!;
    expect((await session.readAll(table('omnireduce_jobs'))).map((e) => e.match)).toEqual([{ job_id: 1 }]);
    expect((await session.readAll(table('omnireduce_workers'))).length).toBe(4);
    expect((await session.readAll(multicastGroup())).map((g) => g.groupId).sort((a, b) => a - b)).toEqual([1, 16]);
    expect(second.allocator.has(2)).toBe(false);
  });
});
