// Reused cells on a target that cannot write registers over P4Runtime (BMv2):
// the installer refuses rather than run a job on cells an earlier job left.
// Our switch plays the part; the topology's `target` is what the installer goes by.
import { describe, expect, it } from 'vitest';
import type { Topology } from '../../../src/controller/index.js';
import { Installer, InstallError } from '../../../src/controller/install/index.js';
import { table } from '../../../src/p4runtime/index.js';
import { closedAfterEach, dumpState, programs, singleSwitch, SLOTS, switchmlJob, TestSwitch } from './helpers.js';

function asBmv2(topology: Topology): Topology {
  const s1 = { ...topology.switches.get('s1')!, target: 'bmv2' as const };
  return { ...topology, switches: new Map([['s1', s1]]) };
}

describe('cell reuse on a target without register writes', () => {
  const closing = closedAfterEach();
  const switches = closing.switches;

  it('gives jobs never-used slots, refuses when only used ones fit, and takes them once told they are clean', async () => {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const installer = await closing.connect(asBmv2(singleSwitch(s1)), { programs });
    await installer.setupJob(switchmlJob(1, ['h1', 'h2'], 8));
    await installer.teardownJob(1);
    // Slots 0..7 are used: the next job goes after them, with nothing to clear.
    const second = await installer.setupJob(switchmlJob(2, ['h3', 'h4'], 8));
    expect(second.allocation.switches[0]!.slotBase).toBe(8);
    expect(second.cellsCleared).toBe(0);
    await installer.teardownJob(2);

    const session = installer.sessions.get('s1')!;
    const before = await dumpState(session);
    const writes = installer.counters().writes;
    // 57 slots fit only over the used ones.
    const err = await installer.setupJob(switchmlJob(3, ['h3', 'h4'], SLOTS - 7)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('INSTALL_DIRTY_CELLS');
    expect(installer.counters().writes).toBe(writes);
    expect(await dumpState(session)).toEqual(before);
    expect(installer.allocator.has(3)).toBe(false);
    // More than the switch has is a plain capacity error.
    const tooBig = await installer.setupJob(switchmlJob(4, ['h1'], SLOTS + 1)).catch((e: unknown) => e);
    expect((tooBig as { code: string }).code).toBe('CAPACITY_EXHAUSTED');

    installer.markCellsClean('s1'); // e.g. after register_reset with simple_switch_CLI
    const job = await installer.setupJob(switchmlJob(3, ['h3', 'h4'], SLOTS - 7));
    expect(job.allocation.switches[0]!.slotBase).toBe(0);
    expect(job.cellsCleared).toBe(0);
    expect((await session.readAll(table('jobs'))).length).toBe(1);
  });

  it('after a controller restart the past is unknown, so the installer refuses', async () => {
    const s1 = await TestSwitch.start(1);
    switches.push(s1);
    const topology = asBmv2(singleSwitch(s1));
    const first = await Installer.connect(topology, { programs });
    await first.close();
    const second = await closing.connect(topology, { programs, electionId: 2n });
    expect(second.counters().pipelinePushes).toBe(0);
    const err = await second.setupJob(switchmlJob(1, ['h1'], 4)).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_DIRTY_CELLS');
  });
});
