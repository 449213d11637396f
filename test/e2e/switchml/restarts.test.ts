// Restarts, with the real switch and the real controller. (1) The switch
// restarts (stopped, and a new empty one started on the same UDP ports and
// gRPC port): a new controller run pushes the pipeline, reconciles, finds the
// job nowhere and installs it again, entry for entry as before, and the same
// workers' next call is exact. (2) The controller restarts while the switch
// runs: the new run (a higher election id) reads the switch back, adopts the
// job without a single write, nothing is installed twice (entries counted),
// and the next call is exact. (3) As (1), with the switch as a `p4ina switch`
// child process of the built CLI, stopped by a signal and started again
// (skipped, saying so, only when there is no build). (4) The switch restarts
// in the middle of a call: the call ends by itself, exact or with the workers'
// typed timeout, never with a wrong result (in practice the workers'
// retransmissions rebuild the lost rounds on the reinstalled job and it is
// exact); then a new job on the same slots, with new workers, is exact.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { SwitchMlError } from '../../../src/agent/switchml/switchml-error.js';
import { decodeSwitchMl, parseUdpFrame, SwitchMlMessageType } from '../../../src/wire/index.js';
import { expectedSwitchMlResult, sameBits } from '../../agent/switchml/helpers/numbers.js';
import { expectExact, seededTensors } from './support/exact-results.js';
import { ELEMENTS, programCache } from './support/network.js';
import { SwitchMlRig } from './support/rig.js';
import { countEntries, readState } from './support/switch-readback.js';
import { CLI, SwitchProcess } from './support/switch-process.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

const LENGTH = 300 * 64 + 9;

describe('restarts with the real switch and controller', () => {
  test('the controller against a restarted switch: reconnect, reinstall, exact again', async () => {
    const { rig, installer } = await SwitchMlRig.start(3, programs);
    rigs.push(rig);
    const spec = rig.job(31, rig.hosts, 16);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, rig.hosts);
    const first = seededTensors(3, LENGTH, 'switch-restart-1');
    expectExact((await fleet.allreduce(first)).results, first);
    const state = await readState(installer.sessions.get('s1')!);

    await rig.device.restart();
    await installer.close(); // its session died with the old switch; sessions do not reconnect

    const again = await rig.connect({ electionId: 2n });
    expect(again.counters().pipelinePushes).toBe(1); // the new switch came up without a program
    const report = await again.reconcile([spec]);
    expect(report).toMatchObject({ unchanged: [], installed: [31], reinstalled: [], replaced: [], foreign: [], orphansRemoved: 0 });
    const session = again.sessions.get('s1')!;
    expect(await readState(session)).toEqual(state);
    const counts = await countEntries(session);
    expect(counts).toMatchObject({ 'ingress.switchml.jobs': 1, 'ingress.switchml.workers': 3, 'egress.result_rewrite': 3 });

    // The workers carry on (their slots' sets and epoch move on; the new switch's cells are clean).
    const second = seededTensors(3, LENGTH, 'switch-restart-2');
    expectExact((await fleet.allreduce(second)).results, second);
  }, 120_000);

  test('a restarted controller against a running switch: reads back, installs nothing twice, exact again', async () => {
    const { rig, installer } = await SwitchMlRig.start(3, programs);
    rigs.push(rig);
    const spec = rig.job(32, rig.hosts, 16);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, rig.hosts);
    const first = seededTensors(3, LENGTH, 'controller-restart-1');
    expectExact((await fleet.allreduce(first)).results, first);
    const state = await readState(installer.sessions.get('s1')!);
    const counts = await countEntries(installer.sessions.get('s1')!);
    expect(counts).toMatchObject({ 'ingress.switchml.jobs': 1, 'ingress.switchml.workers': 3, 'egress.result_rewrite': 3 });
    await installer.close();

    const second = await rig.connect({ electionId: 2n });
    expect(second.counters().pipelinePushes).toBe(0); // the cookie matches
    const report = await second.reconcile([spec]);
    expect(report).toMatchObject({ unchanged: [32], installed: [], reinstalled: [], replaced: [], foreign: [], orphansRemoved: 0 });
    expect(second.counters()).toEqual({ writes: 0, updates: 0, pipelinePushes: 0 });
    // The same spec again is a no-op for the run that adopted it.
    await second.setupJob(spec);
    expect(second.counters().writes).toBe(0);
    const session = second.sessions.get('s1')!;
    expect(await readState(session)).toEqual(state);
    expect(await countEntries(session)).toEqual(counts);

    const next = seededTensors(3, LENGTH, 'controller-restart-2');
    expectExact((await fleet.allreduce(next)).results, next);
  }, 120_000);

  test('the controller against a restarted p4ina switch process', async (ctx) => {
    // No build, no process to start: skipped, saying so. A build whose switch
    // does not start fails the test (SwitchProcess.start throws why).
    if (!existsSync(CLI)) {
      console.warn(`restarts: the switch-process test is skipped: ${CLI} is missing: build first (npm run build)`);
      ctx.skip();
      return;
    }
    const { rig, installer } = await SwitchMlRig.start(3, programs, {}, (wires) => SwitchProcess.start(wires));
    rigs.push(rig);
    const sw = rig.device as SwitchProcess;
    const spec = rig.job(33, rig.hosts, 16);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, rig.hosts);
    const first = seededTensors(3, LENGTH, 'process-restart-1');
    expectExact((await fleet.allreduce(first)).results, first);
    const state = await readState(installer.sessions.get('s1')!);
    const firstPid = sw.pid;

    await sw.restart();
    await installer.close();
    expect(sw.pid).not.toBe(firstPid);

    const again = await rig.connect({ electionId: 2n });
    expect(again.counters().pipelinePushes).toBe(1);
    expect(await again.reconcile([spec])).toMatchObject({ unchanged: [], installed: [33], orphansRemoved: 0 });
    expect(await readState(again.sessions.get('s1')!)).toEqual(state);
    const second = seededTensors(3, LENGTH, 'process-restart-2');
    expectExact((await fleet.allreduce(second)).results, second);
  }, 180_000);

  test('a switch restart in the middle of a call: no hang, no wrong result, and the job runs again', async () => {
    let results = 0;
    let reached: () => void = () => {};
    const halfway = new Promise<void>((resolve) => (reached = resolve));
    const { rig, installer } = await SwitchMlRig.start(3, programs, {
      intercept: (host, frame, direction) => {
        if (host.name !== 'h1' || direction !== 'down') return true;
        const udp = parseUdpFrame(frame, 0, frame.length, { verifyChecksums: false });
        const p = udp.ok ? decodeSwitchMl(frame, udp.payloadOffset, udp.payloadOffset + udp.payloadLength) : undefined;
        if (p?.ok && p.messageType === SwitchMlMessageType.RESULT && ++results === 300) reached();
        return true;
      },
    });
    rigs.push(rig);
    const spec = rig.job(34, rig.hosts, 16);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, rig.hosts);
    const tensors = seededTensors(3, 1500 * 64 + 3, 'mid-call');
    const running = Promise.allSettled(fleet.workers.map((w, rank) => w.allreduce(tensors[rank]!)));
    await halfway;
    await rig.device.restart();
    await installer.close();
    const again = await rig.connect({ electionId: 2n });
    expect(await again.reconcile([spec])).toMatchObject({ installed: [34] });

    // Whatever the call's fate, it is decided by the workers' own limits, and never wrong.
    const outcomes = await running;
    const done = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.result] : []));
    const exact = expectedSwitchMlResult(tensors, ELEMENTS);
    for (const result of done) expect(sameBits(result, exact)).toBe(true);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as SwitchMlError).code).toBe('SWITCHML_TIMEOUT');
    await fleet.close();

    // New workers on a job set up afresh (its cells cleared) are exact.
    await again.teardownJob(34);
    const fresh = rig.job(35, rig.hosts, 16);
    await again.setupJob(fresh);
    const fleet2 = await rig.fleet(fresh, rig.hosts);
    const next = seededTensors(3, LENGTH, 'after-mid-call');
    expectExact((await fleet2.allreduce(next)).results, next);
  }, 180_000);
});
