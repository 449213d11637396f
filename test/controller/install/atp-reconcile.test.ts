// Reconciling ATP jobs after a controller or switch restart: a job whose
// entries are there (whatever their generation) is adopted without a write,
// a restarted switch gets it back under a new generation, a changed spec is a
// conflict unless replaced, leftovers go, and generations never repeat one
// the controller knows for the job on that switch (docs/atp.md, "The
// switch"; atp-generation.ts gives the clock rule the expectations follow).
import { describe, expect, it } from 'vitest';
import { Installer, InstallError, type AtpInstalledJob } from '../../../src/controller/install/index.js';
import { action, insert, multicastGroup, table } from '../../../src/p4runtime/index.js';
import { atpJob, atpLeafSpine, atpPrograms, atpSingleSwitch, dumpAtp, FIRST_GENERATION, fixedClock, CLOCK_MS } from './atp-helpers.js';
import { defineJob } from '../../../src/controller/index.js';
import { closedAfterEach, TestSwitch } from './helpers.js';

const generations = (job: unknown): number[] => (job as AtpInstalledJob).switches.map((e) => e.generation);

describe('ATP reconcile', () => {
  const { switches, connect } = closedAfterEach();
  const jobA = atpJob(1, ['h1', 'h2'], { ecnThreshold: 16 });
  const jobB = atpJob(2, ['h3', 'h4']);

  /** One atp.p4 switch with forwarding and jobs A and B, installed by a controller that then went away. */
  async function running(): Promise<{ s1: TestSwitch; state: string[] }> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const first = await Installer.connect(atpSingleSwitch(s1), { programs: atpPrograms, clock: fixedClock(), electionId: 1n });
    try {
      await first.installForwarding();
      await first.setupJob(jobA);
      await first.setupJob(jobB);
      return { s1, state: await dumpAtp(first.sessions.get('s1')!) };
    } finally {
      await first.close();
    }
  }

  it('a restarted controller adopts the installed ATP jobs without writing, generations kept', async () => {
    const { s1, state } = await running();
    const second = await connect(atpSingleSwitch(s1), { programs: atpPrograms, clock: fixedClock(CLOCK_MS + 1000), electionId: 2n });
    const report = await second.reconcile([jobA, jobB]);
    expect(report).toMatchObject({ unchanged: [1, 2], installed: [], reinstalled: [], replaced: [], foreign: [], hostOnly: [], orphansRemoved: 0 });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    expect(await dumpAtp(second.sessions.get('s1')!)).toEqual(state);
    expect(second.jobs().map((j) => [j.allocation.jobId, j.algorithm, generations(j)])).toEqual([
      [1, 'atp', [FIRST_GENERATION]],
      [2, 'atp', [FIRST_GENERATION]],
    ]);
    // The allocator was rebuilt from the switch: the next job's group comes after A's and B's.
    expect((await second.setupJob(atpJob(3, ['h1']))).allocation.switches[0]!.multicastGroup).toBe(18);
  });

  it('a teardown and setup by the restarted controller at the same millisecond still gets a new generation', async () => {
    const { s1 } = await running();
    // The same clock reading as the first run: the generation read back is remembered and skipped.
    const second = await connect(atpSingleSwitch(s1), { programs: atpPrograms, clock: fixedClock(), electionId: 2n });
    await second.reconcile([jobA, jobB]);
    await second.teardownJob(1);
    expect(generations(await second.setupJob(jobA))).toEqual([FIRST_GENERATION + 1]);
    // A third run, 3 ms later, knows nothing of either, and the clock has moved on.
    await second.close();
    const third = await connect(atpSingleSwitch(s1), { programs: atpPrograms, clock: fixedClock(CLOCK_MS + 3), electionId: 3n });
    await third.reconcile([jobA, jobB]);
    await third.teardownJob(2);
    expect(generations(await third.setupJob(jobB))).toEqual([FIRST_GENERATION + 3]);
  });

  it('a restarted switch gets the jobs back under new generations', async () => {
    const { s1, state } = await running();
    const fresh = await s1.restart();
    switches.push(fresh);
    const second = await connect(atpSingleSwitch(fresh), { programs: atpPrograms, clock: fixedClock(CLOCK_MS + 5), electionId: 2n });
    const report = await second.reconcile([jobA, jobB]);
    expect(report).toMatchObject({ unchanged: [], installed: [1, 2] });
    const generation = FIRST_GENERATION + 5;
    const expected = state.map((l) => l.replace(`"generation":${FIRST_GENERATION}`, `"generation":${generation}`));
    expect(await dumpAtp(second.sessions.get('s1')!)).toEqual(expected);
    // Reconciling again writes nothing.
    const writes = second.counters().writes;
    expect(await second.reconcile([jobA, jobB])).toMatchObject({ unchanged: [1, 2] });
    expect(second.counters().writes).toBe(writes);
  });

  it('refuses a job whose entries differ from its spec, replaces it when asked, and keeps jobs it was not told about', async () => {
    const { s1 } = await running();
    const second = await connect(atpSingleSwitch(s1), { programs: atpPrograms, clock: fixedClock(CLOCK_MS + 7), electionId: 2n });
    const moved = atpJob(1, ['h1', 'h2'], { ecnThreshold: 16 }, 0xbf05);
    const err = await second.reconcile([moved]).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_JOB_CONFLICT');
    expect((err as InstallError).message).toMatch(/job 1 on s1/);
    expect(second.counters().writes).toBe(0);

    const report = await second.reconcile([moved], { replace: true });
    expect(report).toMatchObject({ replaced: [1], foreign: [2] });
    const session = second.sessions.get('s1')!;
    const rewrites = await session.readAll(table('ack_rewrite', { job_id: 1, egress_rid: 1 }));
    expect(rewrites[0]!.action).toEqual(action('egress.rewrite_ack', { dst_mac: 0x020000000102, dst_ip: 0x0a000102, dst_port: 0xbf06 }));
    const [entry] = await session.readAll(table('atp_jobs', { job_id: 1 }));
    expect(entry!.action).toEqual(action('ingress.atp.aggregate_at_level0', { generation: FIRST_GENERATION + 7, mcast_group: 16 }));
    // Job 2 runs on as foreign, and can be removed.
    expect(second.jobs().map((j) => [j.allocation.jobId, j.spec === undefined])).toEqual([
      [1, false],
      [2, true],
    ]);
    await second.teardownJob(2);
    expect((await session.readAll(table('atp_jobs'))).map((e) => e.match)).toEqual([{ job_id: 1 }]);
  });

  it('removes leftovers of an interrupted setup: rewrites without a job entry, groups no job names', async () => {
    const { s1 } = await running();
    const second = await connect(atpSingleSwitch(s1), { programs: atpPrograms, electionId: 2n });
    const session = second.sessions.get('s1')!;
    await session.client.write(insert(multicastGroup(40, [{ port: 1, instance: 0 }])));
    await session.client.write(insert(table('ack_rewrite', { job_id: 9, egress_rid: 0 }, action('rewrite_ack', { dst_mac: 1, dst_ip: 2, dst_port: 3 }))));
    expect(await second.reconcile([jobA, jobB])).toMatchObject({ unchanged: [1, 2], orphansRemoved: 2 });
    expect(await session.readAll(table('ack_rewrite', { job_id: 9, egress_rid: 0 }))).toEqual([]);
    expect(await session.readAll(multicastGroup(40))).toEqual([]);
  });

  it('a leaf-spine with levels 0 and 1 reconciles without writing; a spec of the same id that runs on hosts removes the entries', async () => {
    const s = await Promise.all([1, 2, 3, 4].map((id) => TestSwitch.start(id)));
    switches.push(...s);
    const topology = atpLeafSpine(s, { programs: ['atp', 'atp', 'forward', 'atp'], ina: [true, true, false, true] });
    const job = atpJob(8, ['h1', 'h2', 'h3', 'h4']);
    const first = await Installer.connect(topology, { programs: atpPrograms, clock: fixedClock(), electionId: 1n });
    try {
      expect(await first.reconcile([job])).toMatchObject({ installed: [8] });
    } finally {
      await first.close();
    }
    const second = await connect(topology, { programs: atpPrograms, clock: fixedClock(CLOCK_MS + 1), electionId: 2n });
    expect(await second.reconcile([job])).toMatchObject({ unchanged: [8] });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    const [adopted] = second.jobs() as AtpInstalledJob[];
    expect(adopted!.switches.map((e) => [e.switch, e.level, e.generation])).toEqual([
      ['s4', 1, FIRST_GENERATION],
      ['s1', 0, FIRST_GENERATION],
      ['s2', 0, FIRST_GENERATION],
    ]);
    // Another spec for id 8 (ring AllReduce: no switch state) makes the ATP entries leftovers.
    const other = defineJob({ id: 8, algorithm: 'ring', workers: ['h1', 'h3'].map((host, rank) => ({ rank, host, udpPort: 9000 })) });
    expect(await second.reconcile([other])).toMatchObject({ hostOnly: [8] });
    for (const name of ['s1', 's2', 's4']) expect(await second.sessions.get(name)!.readAll(table('atp_jobs'))).toEqual([]);
  });
});
