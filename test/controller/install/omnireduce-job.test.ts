// OmniReduce switch jobs installed over real P4Runtime/gRPC into emulated
// switches running omnireduce.p4. Expected entries are written from
// docs/p4-programs.md §5 ("Tables", "Multicast groups", "What the controller
// installs per job"): a group with a replica per worker (port towards it,
// instance = its rank); reply_rewrite (job, rank) → the worker's MAC (or the
// routing next hop's), IP and UDP port; omnireduce_workers (IP, UDP port) →
// accept_worker(job, 1 << rank); omnireduce_jobs → slot base, first wire
// slot 0, slot count (the pool size), worker count, group.
import { describe, expect, it } from 'vitest';
import type { Topology } from '../../../src/controller/index.js';
import { defineJob, planRollout } from '../../../src/controller/index.js';
import { Installer, InstallError, type OmniReduceInstalledJob } from '../../../src/controller/install/index.js';
import { action, insert, modify, register, table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, TestSwitch } from './helpers.js';
import { diff } from './rina-helpers.js';
import { dumpOmni, ip, mac, OMNI_BLOCK, OMNI_CELL_REGISTERS, OMNI_PORT as P, OMNI_SLOTS, omniJob, omniLeafSpine, omniPrograms, omniSingleSwitch, TOR_MAC, type Program } from './omnireduce-helpers.js';

const jobEntry = (job: number, p: { base: number; count: number; workers: number; group: number }) =>
  `ingress.omnireduce.omnireduce_jobs {"job_id":${job}} -> ingress.omnireduce.set_job{"slot_base":${p.base},"first_slot":0,"slot_count":${p.count},"worker_count":${p.workers},"mcast_group":${p.group}}`;
const worker = (job: number, rank: number, addr: number, port: number) =>
  `ingress.omnireduce.omnireduce_workers {"src_addr":${addr},"src_port":${port}} -> ingress.omnireduce.accept_worker{"job_id":${job},"bitmap_bit":${2 ** rank}}`;
const rewrite = (job: number, rank: number, dstMac: number, dstIp: number, port: number) =>
  `egress.reply_rewrite {"job_id":${job},"egress_rid":${rank}} -> egress.rewrite_reply{"dst_mac":${dstMac},"dst_ip":${dstIp},"dst_port":${port}}`;

describe('OmniReduce switch jobs: setup and teardown', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;
  async function connect(topology: Topology, options: Parameters<typeof Installer.connect>[1] = {}): Promise<Installer> {
    const installer = await closing.connect(topology, { programs: omniPrograms, ...options });
    await installer.installForwarding();
    return installer;
  }
  async function single(options: Parameters<typeof Installer.connect>[1] = {}, program: Program = 'omnireduce'): Promise<Installer> {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    return connect(omniSingleSwitch(s1, program), options);
  }
  const refused = async (installer: Installer, spec: ReturnType<typeof omniJob>): Promise<{ code: string; message: string }> =>
    (await installer.setupJob(spec).catch((e: unknown) => e)) as { code: string; message: string };

  it('one switch, four workers: exactly the documented entries, and teardown leaves the switch as it was', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    const before = await dumpOmni(session);
    const spec = omniJob(7, ['h1', 'h2', 'h3', 'h4'], 8);
    const job = (await installer.setupJob(spec)) as OmniReduceInstalledJob;
    expect(diff(before, await dumpOmni(session))).toEqual({
      added: [
        jobEntry(7, { base: 0, count: 8, workers: 4, group: 16 }),
        'group 16: 1/0 2/1 3/2 4/3',
        ...[0, 1, 2, 3].map((r) => worker(7, r, ip(1, r + 1), P + r)),
        ...[0, 1, 2, 3].map((r) => rewrite(7, r, mac(1, r + 1), ip(1, r + 1), P + r)),
      ].sort(),
      removed: [],
    });
    expect(job).toMatchObject({ algorithm: 'omnireduce', cellsCleared: 0, allocation: { jobId: 7, switches: [{ switch: 's1', jobId: 7, slotBase: 0, slots: 8, multicastGroup: 16, workers: 4 }] } });
    expect(installer.allocator.usage('s1')).toMatchObject({ slotsFree: OMNI_SLOTS - 8, groupsFree: 65520 - 1, jobEntriesFree: 63 });

    await installer.teardownJob(7);
    expect(await dumpOmni(session)).toEqual(before);
    expect(installer.allocator.usage('s1')).toMatchObject({ slotsFree: OMNI_SLOTS, groupsFree: 65520, jobEntriesFree: 64 });
    expect(installer.jobs()).toEqual([]);
  });

  it('a spine aggregating two racks addresses each reply copy to the routing ToR towards its worker; the ToRs get nothing', async () => {
    const s = await Promise.all([1, 2, 3].map((id) => TestSwitch.start(id)));
    switches.push(...s);
    const installer = await connect(omniLeafSpine(s));
    const before = new Map(await Promise.all([...installer.sessions].map(async ([name, session]) => [name, await dumpOmni(session)] as const)));
    await installer.setupJob(omniJob(3, ['h1', 'h2', 'h3', 'h4'], 4));
    const spine = diff(before.get('s3')!, await dumpOmni(installer.sessions.get('s3')!));
    expect(spine).toEqual({
      added: [
        jobEntry(3, { base: 0, count: 4, workers: 4, group: 16 }),
        'group 16: 1/0 1/1 2/2 2/3',
        worker(3, 0, ip(1, 1), P),
        worker(3, 1, ip(1, 2), P + 1),
        worker(3, 2, ip(2, 1), P + 2),
        worker(3, 3, ip(2, 2), P + 3),
        rewrite(3, 0, TOR_MAC(1), ip(1, 1), P),
        rewrite(3, 1, TOR_MAC(1), ip(1, 2), P + 1),
        rewrite(3, 2, TOR_MAC(2), ip(2, 1), P + 2),
        rewrite(3, 3, TOR_MAC(2), ip(2, 2), P + 3),
      ].sort(),
      removed: [],
    });
    for (const sw of ['s1', 's2']) expect(await dumpOmni(installer.sessions.get(sw)!)).toEqual(before.get(sw));
    await installer.teardownJob(3);
    expect(await dumpOmni(installer.sessions.get('s3')!)).toEqual(before.get('s3'));
  });

  it('a second job gets disjoint slots and its own group; the same spec again writes nothing; another spec with its id is refused', async () => {
    const installer = await single();
    const a = await installer.setupJob(omniJob(1, ['h1', 'h2'], 8));
    const b = await installer.setupJob(omniJob(2, ['h3', 'h4'], 16));
    expect(a.allocation.switches).toEqual([{ switch: 's1', jobId: 1, slotBase: 0, slots: 8, multicastGroup: 16, workers: 2 }]);
    expect(b.allocation.switches).toEqual([{ switch: 's1', jobId: 2, slotBase: 8, slots: 16, multicastGroup: 17, workers: 2 }]);
    const lines = await dumpOmni(installer.sessions.get('s1')!);
    expect(lines).toContain(jobEntry(2, { base: 8, count: 16, workers: 2, group: 17 }));
    expect(lines).toContain('group 17: 3/0 4/1');
    expect(lines).toContain(worker(2, 1, ip(1, 4), P + 1));
    const writes = installer.counters().writes;
    expect(await installer.setupJob(omniJob(1, ['h1', 'h2'], 8))).toBe(a);
    expect(installer.counters().writes).toBe(writes);
    expect(await refused(installer, omniJob(1, ['h1', 'h2'], 4))).toMatchObject({ code: 'INSTALL_JOB_CONFLICT' });
    expect(installer.counters().writes).toBe(writes);
  });

  it('a worker whose address and port are another job\'s on the switch is refused before any write; another port is fine', async () => {
    const installer = await single();
    await installer.setupJob(omniJob(1, ['h1', 'h2'], 8));
    const before = await dumpOmni(installer.sessions.get('s1')!);
    const writes = installer.counters().writes;
    // h2 with UDP port 40001 is job 1's rank 1; in job 2 it is rank 0.
    const err = await refused(installer, omniJob(2, ['h2', 'h3'], 8, { port: () => P + 1 }));
    expect(err).toMatchObject({ code: 'INSTALL_WORKER_TAKEN' });
    expect(err.message).toBe(
      "s1: OmniReduce job 2's worker rank 0 (10.0.1.2:40001) is job 1's; omnireduce.p4 tells workers apart by IPv4 address and UDP port alone, so give this job's workers other udp_ports, or tear the other job down first",
    );
    expect(installer.counters().writes).toBe(writes);
    expect(installer.allocator.has(2)).toBe(false);
    expect(await dumpOmni(installer.sessions.get('s1')!)).toEqual(before);
    await installer.setupJob(omniJob(2, ['h2', 'h3'], 8, { port: (rank) => P + 10 + rank }));
  });

  it('refuses what does not fit the program, writing nothing: its block size, its slots; and the slots left', async () => {
    const installer = await single();
    const writes = installer.counters().writes;
    expect(await refused(installer, omniJob(3, ['h1', 'h2'], 8, { elementsPerPacket: 16 }))).toEqual(expect.objectContaining({
      code: 'INSTALL_PIPELINE_MISMATCH',
      message: `s1: OmniReduce job 3 aggregates here, but its omnireduce.p4 adds blocks of ${OMNI_BLOCK} values and the job's are 16; set elements_per_packet to ${OMNI_BLOCK}, or compile omnireduce.p4 with -DOMNIREDUCE_BLOCK=16`,
    }));
    // The DPDK code's block of 256 is more than the program can take; a switch job's default is the shipped 64.
    const dpdk = defineJob({ id: 3, algorithm: 'omnireduce', workers: [{ rank: 0, host: 'h1', udpPort: P }], poolSize: 8, elementsPerPacket: 256, omnireduce: { aggregator: 'switch' } });
    expect((await refused(installer, dpdk)).message).toMatch(/blocks of 8 values and the job's are 256; set elements_per_packet to 8 \(omnireduce.p4 takes blocks of 8 to 128 values, in steps of 8\)$/);
    const shipped = defineJob({ id: 3, algorithm: 'omnireduce', workers: [{ rank: 0, host: 'h1', udpPort: P }], poolSize: 8, omnireduce: { aggregator: 'switch' } });
    expect((await refused(installer, shipped)).message).toMatch(/the job's are 64; set elements_per_packet to 8, or compile omnireduce.p4 with -DOMNIREDUCE_BLOCK=64$/);
    expect(await refused(installer, omniJob(3, ['h1'], OMNI_SLOTS + 1))).toMatchObject({
      code: 'INSTALL_PIPELINE_MISMATCH',
      message: expect.stringContaining(`has ${OMNI_SLOTS} slots and the job's pool_size is ${OMNI_SLOTS + 1}; lower pool_size to at most ${OMNI_SLOTS}`),
    });
    expect(installer.counters().writes).toBe(writes);
    expect(installer.allocator.has(3)).toBe(false);
    await installer.setupJob(omniJob(4, ['h1'], OMNI_SLOTS - 4));
    expect(await refused(installer, omniJob(5, ['h2'], 8))).toMatchObject({ code: 'CAPACITY_EXHAUSTED', shortfalls: [{ switch: 's1', resource: 'slots', needed: 8, free: 4 }] });
  });

  it('an INA switch running switchml.p4 is a pipeline mismatch; a plan with host aggregators installs nothing', async () => {
    const installer = await single({}, 'switchml');
    const writes = installer.counters().writes;
    const spec = omniJob(5, ['h1', 'h2'], 8);
    // The installer's own plan sees the switch does not run omnireduce.p4 and falls back (no shards here: the ring)...
    expect(installer.planFor(spec)).toMatchObject({ runs: 'ring', reasons: expect.arrayContaining(['all 2 workers are in rack r1, whose ToR s1 is INA-capable but does not run omnireduce.p4']) });
    // ...and a plan made without looking at the pipelines is refused before any write.
    const err = (await installer.setupJob(spec, planRollout(installer.topology, spec)).catch((e: unknown) => e)) as InstallError;
    expect(err).toBeInstanceOf(InstallError);
    expect(err.code).toBe('INSTALL_PIPELINE_MISMATCH');
    expect(err.message).toMatch(/^s1: OmniReduce job 5 aggregates here, but the switch's program is not omnireduce.p4 .*; run p4\/omnireduce.p4 on it, mark it "ina": false, or set "omnireduce": \{ "aggregator": "hosts" \}$/);
    expect(installer.allocator.has(5)).toBe(false);
    expect(installer.counters().writes).toBe(writes);

    const onHosts = defineJob({ id: 6, algorithm: 'omnireduce', workers: [{ rank: 0, host: 'h1', udpPort: P }, { rank: 1, host: 'h2', udpPort: P }], poolSize: 8, elementsPerPacket: OMNI_BLOCK, parameterServer: { host: 'h4', udpPort: 0xbef0 } });
    expect(installer.planFor(onHosts)).toMatchObject({ runs: 'omnireduce', aggregationPoints: [], omnireduce: { aggregator: 'hosts' } });
    expect(await refused(installer, onHosts)).toMatchObject({ code: 'INSTALL_NOTHING_TO_INSTALL', message: 'OmniReduce job 6 aggregates on no switch (omnireduce runs on hosts); there is nothing to install' });
    expect(installer.counters().writes).toBe(writes);
  });

  it('rolls back everything when the last write fails', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    // Someone else's omnireduce_jobs entry for job 7: the job's last INSERT fails with ALREADY_EXISTS.
    await session.client.write(insert(table('omnireduce_jobs', { job_id: 7 }, action('set_job', { slot_base: 60, first_slot: 0, slot_count: 1, worker_count: 1, mcast_group: 99 }))));
    const before = await dumpOmni(session);
    const err = (await installer.setupJob(omniJob(7, ['h1', 'h2', 'h3'], 8)).catch((e: unknown) => e)) as InstallError;
    expect(err.code).toBe('INSTALL_WRITE_FAILED');
    expect(err.message).toMatch(/ALREADY_EXISTS.*what it had written was removed and its resources released/);
    expect(await dumpOmni(session)).toEqual(before);
    expect(installer.allocator.has(7)).toBe(false);
    expect(installer.jobs()).toEqual([]);
  });

  it('clears seen and remaining of a reused slot range before the job goes live', async () => {
    const installer = await single();
    const session = installer.sessions.get('s1')!;
    await installer.setupJob(omniJob(1, ['h1', 'h2'], 4));
    // An abandoned round of job 1 in slot 1's copies (cells 2 and 3).
    await session.client.write(OMNI_CELL_REGISTERS.flatMap((name) => [modify(register(name, { index: 2, value: 1 })), modify(register(name, { index: 3, value: 1 }))]));
    await installer.teardownJob(1);
    const job = await installer.setupJob(omniJob(2, ['h3', 'h4'], 4));
    expect(job.allocation.switches[0]!.slotBase).toBe(0);
    expect(job.cellsCleared).toBe(2 * 2 * 4); // two registers × two copies × four slots
    for (const name of OMNI_CELL_REGISTERS) expect((await dumpOmni(session)).find((l) => l.startsWith(name))).toBe(`${name}: `);
    expect((await installer.setupJob(omniJob(3, ['h1'], 4))).cellsCleared).toBe(0);
  });
});
