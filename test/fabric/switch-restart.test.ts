// A switch of the loopback fabric restarted (LoopbackFabric.restartSwitch):
// killed and started again on the same wires and P4Runtime port, it comes
// back empty — a controller run finds no pipeline there and pushes one,
// there alone — and once a controller has reconciled it, every host reaches
// every other exactly as before the restart. The kill is not a failure of
// the fabric; with processes the old one is gone and a new one runs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ProgramCache } from '../../src/controller/install/index.js';
import { LoopbackFabric, parseTopoShorthand, shorthandTopology } from '../../src/fabric/index.js';
import { compilePipeline } from '../../src/p4c/index.js';
import { builtCliEntry, packageRoot } from '../../src/run/package-paths.js';
import { isAlive } from '../demo/helpers.js';
import { testUdpPorts } from '../helpers/test-ports.js';
import { sendAllPairs } from './all-pairs.js';

const BUILT = existsSync(builtCliEntry()) && existsSync(path.join(packageRoot(), 'dist', 'src', 'fabric', 'index.js'));
const programs = new ProgramCache({ compiler: compilePipeline });
const fabrics: LoopbackFabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

async function start(mode: 'in-process' | 'process'): Promise<LoopbackFabric> {
  const fabric = await LoopbackFabric.start(shorthandTopology(parseTopoShorthand('leafspine,racks=2,hosts=1,spines=1'), { inaRacks: [] }), { mode, programs, udpPorts: testUdpPorts });
  fabrics.push(fabric);
  return fabric;
}

/** Whether `failed` has settled by now (its handlers run before a later macrotask). */
async function failedYet(fabric: LoopbackFabric): Promise<boolean> {
  let settled = false;
  void fabric.failed.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe.each(['in-process', 'process'] as const)('restartSwitch, switches %s', (mode) => {
  test.skipIf(mode === 'process' && !BUILT)('p4it1 restarted: same P4Runtime port, empty until a controller reconciles it, then the same traffic as before; no fabric failure', async () => {
    const fabric = await start(mode);
    const before = await sendAllPairs(fabric);
    const old = fabric.switches().find((s) => s.name === 'p4it1')!;

    const again = await fabric.restartSwitch('p4it1');
    expect(again).toMatchObject({ name: 'p4it1', grpc: old.grpc, deviceId: old.deviceId });
    if (mode === 'process') {
      expect(again.pid).not.toBe(old.pid);
      expect(isAlive(old.pid)).toBe(false);
      expect(isAlive(again.pid)).toBe(true);
    }
    expect(await failedYet(fabric)).toBe(false);

    // The switch lost its pipeline: a controller run pushes one there, and nowhere else.
    const controller = await fabric.controller();
    expect(Object.fromEntries([...controller.sessions].map(([name, s]) => [name, s.counters.pipelinePushes]))).toEqual({ p4it1: 1, p4it2: 0, p4is1: 0 });
    const report = await controller.reconcile([]);
    // Its forwarding was gone with it (written anew, nothing there to keep); the others kept theirs.
    for (const f of report.forwarding) {
      if (f.switch === 'p4it1') expect(f).toMatchObject({ unchanged: 0, foreign: 0 });
      else expect(f).toMatchObject({ inserted: 0, modified: 0 });
    }
    expect(report.forwarding.find((f) => f.switch === 'p4it1')!.inserted).toBeGreaterThan(0);
    expect(await sendAllPairs(fabric)).toEqual(before);
    expect(await failedYet(fabric)).toBe(false);
  }, 180_000);
});

test('restartSwitch of a switch the fabric does not have: FABRIC_UNKNOWN_NODE, nothing touched', async () => {
  const fabric = await start('in-process');
  const switches = fabric.switches();
  await expect(fabric.restartSwitch('p4it9')).rejects.toMatchObject({ code: 'FABRIC_UNKNOWN_NODE', message: expect.stringMatching(/no switch "p4it9"; its switches are p4it1, p4it2, p4is1/) });
  expect(fabric.switches()).toEqual(switches);
}, 60_000);
