import { describe, expect, it } from 'vitest';
import { Installer, InstallError } from '../../../src/controller/install/index.js';
import { action, del, insert, multicastGroup, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, dumpState, leafSpine, programs, singleSwitch, switchmlJob, TestSwitch } from './helpers.js';

describe('reconcile after restarts', () => {
  const { switches, connect } = closedAfterEach();
  const jobA = switchmlJob(1, ['h1', 'h2'], 8);
  const jobB = switchmlJob(2, ['h3', 'h4'], 16);

  /** A switch with forwarding and jobs A and B installed by a controller that then went away. */
  async function runningSwitch(): Promise<{ s1: TestSwitch; state: string[] }> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const first = await Installer.connect(singleSwitch(s1), { programs, electionId: 1n });
    try {
      await first.installForwarding();
      await first.setupJob(jobA);
      await first.setupJob(jobB);
      return { s1, state: await dumpState(first.sessions.get('s1')!, { registers: true }) };
    } finally {
      await first.close();
    }
  }

  it('a restarted controller recognises installed jobs without writing anything', async () => {
    const { s1, state } = await runningSwitch();
    const second = await connect(singleSwitch(s1), { programs, electionId: 2n });
    expect(second.counters().pipelinePushes).toBe(0); // same cookie
    const report = await second.reconcile([jobA, jobB]);
    expect(report).toMatchObject({ unchanged: [1, 2], installed: [], reinstalled: [], replaced: [], foreign: [], orphansRemoved: 0 });
    expect(report.forwarding).toEqual([{ switch: 's1', inserted: 0, modified: 0, unchanged: 11, foreign: 0 }]);
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    expect(await dumpState(second.sessions.get('s1')!, { registers: true })).toEqual(state);
    // The allocator was rebuilt from the switch: the next job goes after both.
    expect(second.allocator.snapshot().allocations.map((a) => [a.jobId, a.slotBase, a.slots, a.multicastGroup])).toEqual([
      [1, 0, 8, 16],
      [2, 8, 16, 17],
    ]);
    const c = await second.setupJob(switchmlJob(3, ['h1', 'h4'], 4));
    expect(c.allocation.switches[0]).toMatchObject({ slotBase: 24, multicastGroup: 18 });
    // Its past unknown, the switch's reused cells are cleared (p4ina's switch can).
    expect(c.cellsCleared).toBe(16);
    // And it can tear down what the earlier run installed.
    await second.teardownJob(1);
    expect(await second.sessions.get('s1')!.readAll(table('workers', { job_id: 1, worker_id: 0 }))).toEqual([]);
  });

  it("refuses, before any write, a spec whose elements_per_packet is not the switch's even though the job's entries are there", async () => {
    const { s1, state } = await runningSwitch();
    const second = await connect(singleSwitch(s1), { programs, electionId: 2n });
    const err = await second.reconcile([{ ...jobA, elementsPerPacket: 64 }, jobB]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect(err).toMatchObject({ code: 'INSTALL_PIPELINE_MISMATCH' });
    expect((err as InstallError).message).toMatch(/adds 8 values per packet and the job sends 64; set elements_per_packet to 8/);
    expect(second.counters().writes).toBe(0);
    expect(await dumpState(second.sessions.get('s1')!, { registers: true })).toEqual(state);
  });

  it('keeps jobs it was not told about and can remove them', async () => {
    const { s1 } = await runningSwitch();
    const second = await connect(singleSwitch(s1), { programs, electionId: 2n });
    const report = await second.reconcile([jobA]);
    expect(report).toMatchObject({ unchanged: [1], foreign: [2] });
    expect(second.jobs().map((j) => [j.allocation.jobId, j.spec === undefined])).toEqual([
      [1, false],
      [2, true],
    ]);
    await second.teardownJob(2);
    const jobs = await second.sessions.get('s1')!.readAll(table('jobs'));
    expect(jobs.map((e) => e.match)).toEqual([{ job_id: 1 }]);
    expect((await second.sessions.get('s1')!.readAll(multicastGroup())).map((g) => g.groupId)).toEqual([1, 16]);
  });

  it('refuses a job whose entries differ from its spec, and replaces it when asked', async () => {
    const { s1 } = await runningSwitch();
    const second = await connect(singleSwitch(s1), { programs, electionId: 2n });
    const changed = switchmlJob(1, ['h1', 'h2'], 8, (rank) => 0xbee5 + rank);
    const err = await second.reconcile([changed, jobB]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('INSTALL_JOB_CONFLICT');
    expect((err as InstallError).message).toMatch(/job 1 on s1/);
    const writesAfterRefusal = second.counters().writes;
    expect(writesAfterRefusal).toBe(0);

    const report = await second.reconcile([changed, jobB], { replace: true });
    expect(report).toMatchObject({ unchanged: [2], replaced: [1] });
    const rewrites = await second.sessions.get('s1')!.readAll(table('result_rewrite', { job_id: 1, egress_rid: 1 }));
    expect(rewrites[0]!.action).toEqual(action('egress.rewrite_result', { dst_mac: 0x020000000102, dst_ip: 0x0a000102, dst_port: 0xbee6 }));
  });

  it('removes leftovers of an interrupted setup', async () => {
    const { s1 } = await runningSwitch();
    const second = await connect(singleSwitch(s1), { programs, electionId: 2n });
    const session = second.sessions.get('s1')!;
    // A setup that stopped after the group and one rewrite: no jobs entry for job 9.
    await session.client.write(insert(multicastGroup(40, [{ port: 1, instance: 0 }])));
    await session.client.write(insert(table('result_rewrite', { job_id: 9, egress_rid: 0 }, action('rewrite_result', { dst_mac: 1, dst_ip: 2, dst_port: 3 }))));
    const report = await second.reconcile([jobA, jobB]);
    expect(report).toMatchObject({ unchanged: [1, 2], orphansRemoved: 2 });
    expect(await session.readAll(table('result_rewrite', { job_id: 9, egress_rid: 0 }))).toEqual([]);
    expect(await session.readAll(multicastGroup(40))).toEqual([]);
  });

  it('reinstalls a job whose group vanished', async () => {
    const { s1, state } = await runningSwitch();
    const second = await connect(singleSwitch(s1), { programs, electionId: 2n });
    const session = second.sessions.get('s1')!;
    await session.client.write(del(table('jobs', { job_id: 2 })));
    await session.client.write(del(multicastGroup(17)));
    const report = await second.reconcile([jobA, jobB]);
    // Job 2's jobs entry is gone, so its workers and rewrites are leftovers; the job is set up anew.
    expect(report).toMatchObject({ unchanged: [1], installed: [2], orphansRemoved: 4 });
    const after = await dumpState(session);
    expect(after).toEqual(state.filter((l) => !l.startsWith('ingress.switchml.seen') && !l.startsWith('ingress.switchml.remaining')));
  });

  it('installs nothing for a job that runs on hosts, and reconciles a leaf-spine without writing', async () => {
    const sw = [await TestSwitch.start(1), await TestSwitch.start(2), await TestSwitch.start(3)];
    switches.push(...sw);
    const topology = leafSpine(sw[0]!, sw[1]!, sw[2]!);
    const rack = switchmlJob(4, ['h1', 'h2'], 8);
    const spread = switchmlJob(5, ['h1', 'h3'], 8);
    const first = await Installer.connect(topology, { programs, electionId: 1n });
    try {
      expect(await first.reconcile([rack, spread])).toMatchObject({ installed: [4], hostOnly: [5] });
    } finally {
      await first.close();
    }
    const second = await connect(topology, { programs, electionId: 2n });
    expect(await second.reconcile([rack, spread])).toMatchObject({ unchanged: [4], installed: [], hostOnly: [5] });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
  });

  it('a restarted switch gets its pipeline, forwarding and jobs back', async () => {
    const { s1, state } = await runningSwitch();
    const fresh = await s1.restart();
    switches.push(fresh);
    const second = await connect(singleSwitch(fresh), { programs, electionId: 2n });
    expect(second.counters().pipelinePushes).toBe(1);
    const report = await second.reconcile([jobA, jobB]);
    expect(report).toMatchObject({ unchanged: [], installed: [1, 2] });
    expect(report.forwarding[0]).toMatchObject({ inserted: 10, modified: 1 });
    expect(second.jobs().map((j) => j.cellsCleared)).toEqual([0, 0]); // both jobs; a fresh switch, clean cells
    expect(await dumpState(second.sessions.get('s1')!, { registers: true })).toEqual(state);
    // Reconciling again changes nothing.
    const writes = second.counters().writes;
    expect(await second.reconcile([jobA, jobB])).toMatchObject({ unchanged: [1, 2] });
    expect(second.counters().writes).toBe(writes);
  });
});
