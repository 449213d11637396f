// The entities of an OmniReduce job on an omnireduce.p4 switch, checked
// against docs/p4-programs.md §5 ("What the controller installs per job"):
// the group's replicas by rank, one rewrite and one worker entry per worker
// keyed as the program keys them, the job's entry, the resets; and the
// inputs a switch would take but misroute, refused. (test/p4/omnireduce/
// installs these entities on the emulator and runs jobs through them.)
import { describe, expect, it } from 'vitest';
import { omniReduceCellResets, omniReduceSwitchEntries, type OmniReduceJobOnSwitch } from '../../../src/controller/install/omnireduce-entries.js';

const worker = (rank: number, extra: Partial<OmniReduceJobOnSwitch['workers'][number]> = {}) =>
  ({ rank, ip: 0x0a000001 + rank, udpPort: 40_000 + rank, mac: 0x020000000001 + rank, switchPort: rank + 1, ...extra });
const JOB: OmniReduceJobOnSwitch = { jobId: 4, workers: [worker(1), worker(0), worker(2)], slotBase: 100, slotCount: 16, firstSlot: 8, multicastGroup: 9 };

describe('omniReduceSwitchEntries', () => {
  const e = omniReduceSwitchEntries(JOB);

  it('a replica per worker in rank order, instance = rank, on its switch port', () => {
    expect(e.group.groupId).toBe(9);
    expect(e.group.replicas).toEqual([{ port: 1, instance: 0 }, { port: 2, instance: 1 }, { port: 3, instance: 2 }]);
  });

  it('reply_rewrite by (job, rank) to the worker\'s MAC, IP and port', () => {
    expect(e.rewrites.map((t) => [t.table, t.match, t.action])).toEqual([0, 1, 2].map((r) => [
      'egress.reply_rewrite', { job_id: 4, egress_rid: r },
      { name: 'egress.rewrite_reply', params: { dst_mac: 0x020000000001 + r, dst_ip: 0x0a000001 + r, dst_port: 40_000 + r } },
    ]));
  });

  it('omnireduce_workers by the worker\'s source address and port, naming the job and the rank\'s bit', () => {
    expect(e.workers.map((t) => [t.table, t.match, t.action])).toEqual([0, 1, 2].map((r) => [
      'ingress.omnireduce.omnireduce_workers', { src_addr: 0x0a000001 + r, src_port: 40_000 + r },
      { name: 'ingress.omnireduce.accept_worker', params: { job_id: 4, bitmap_bit: 2 ** r } },
    ]));
  });

  it('the job\'s entry: its switch slots, its first wire slot, the worker count and the group', () => {
    expect([e.job.table, e.job.match, e.job.action]).toEqual([
      'ingress.omnireduce.omnireduce_jobs', { job_id: 4 },
      { name: 'ingress.omnireduce.set_job', params: { slot_base: 100, first_slot: 8, slot_count: 16, worker_count: 3, mcast_group: 9 } },
    ]);
    expect(omniReduceSwitchEntries({ ...JOB, firstSlot: undefined }).job.action).toMatchObject({ params: { first_slot: 0 } });
  });

  it('rank 31 gets bit 31', () => {
    const big = omniReduceSwitchEntries({ ...JOB, workers: Array.from({ length: 32 }, (_, r) => worker(r)) });
    expect(big.workers[31]!.action).toMatchObject({ params: { bitmap_bit: 2 ** 31 } });
  });

  it.each<[string, Partial<OmniReduceJobOnSwitch>, RegExp]>([
    ['no workers', { workers: [] }, /0 workers; the switch takes 1\.\.32/],
    ['33 workers', { workers: Array.from({ length: 33 }, (_, r) => worker(r)) }, /33 workers/],
    ['a rank twice', { workers: [worker(0), worker(0, { ip: 7 })] }, /ranks must be 0\.\.n−1/],
    ['a gap in the ranks', { workers: [worker(0), worker(2)] }, /ranks must be 0\.\.n−1/],
    ['two workers on one address and port', { workers: [worker(0), worker(1, { ip: 0x0a000001, udpPort: 40_000 })] }, /share an IPv4 address and UDP port/],
    ['no slots', { slotCount: 0 }, /slotCount must be ≥ 1/],
    ['wire slots past the 15-bit field', { firstSlot: 32_760, slotCount: 16 }, /do not fit the 15-bit slot field/],
    ['group 0', { multicastGroup: 0 }, /multicast group must be in 1\.\.65535/],
    ['a job id past 16 bits', { jobId: 70_000 }, /job id must be in 0\.\.65535/],
  ])('refuses %s', (_, change, message) => {
    expect(() => omniReduceSwitchEntries({ ...JOB, ...change })).toThrow(message);
  });
});

describe('omniReduceCellResets', () => {
  it('zeros seen and remaining of both copies of every slot of the range, and nothing else', () => {
    const resets = omniReduceCellResets({ slotBase: 3, slots: 2 });
    expect(resets.map((r) => [r.register, r.index, r.value])).toEqual([6, 7, 8, 9].flatMap((cell) => [
      ['ingress.omnireduce.round.seen', cell, 0], ['ingress.omnireduce.round.remaining', cell, 0],
    ]));
  });
});
