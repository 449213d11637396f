// An INA ToR restarted in the middle of a Rina job (LoopbackFabric.restartSwitch:
// its `p4ina switch` process killed and started again on the same wires, so
// it comes back with no pipeline, no entries, no multicast group, no cells),
// with the job's workers as `p4ina agent rina-worker` processes on the hosts'
// wires (two INA racks of two, the ring from the controller's plan):
//
// - nobody reprograms it: every worker exits by itself, in bounded time, with
//   RINA_TIMEOUT saying what stopped answering;
// - the controller reconciles it while the job runs (a new controller run
//   pushes its pipeline, Installer.reconcile puts forwarding and the job
//   back): each worker either completes with exactly the result docs/rina.md
//   §5 gives (computed here from the inputs, compared bit for bit through the
//   worker's SHA-256 of its result) or fails with RINA_TIMEOUT; never a wrong
//   result, never a hang.
//
// "Mid-job" is an event: the restarted ToR's count of emitted rounds (counter
// rina_outcomes[2], read over P4Runtime) past the exponent pass's.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import { placeInPlan } from '../../../src/agent/rina/ring-config.js';
import { defineJob, type JobSpec, type RolloutPlan } from '../../../src/controller/index.js';
import { ProgramCache, type Installer } from '../../../src/controller/install/index.js';
import { ChildGroup, waitExit, type TrackedChild } from '../../../src/demo/child-group.js';
import { LoopbackFabric, parseTopoShorthand, shorthandTopology } from '../../../src/fabric/index.js';
import { compilePipeline } from '../../../src/p4c/index.js';
import { builtCliEntry, packageRoot, rinaSource } from '../../../src/run/package-paths.js';
import { ipv4ToText, RINA_PORTS } from '../../../src/wire/index.js';
import { expectedRina } from '../../agent/rina/helpers/expected.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { counterCells } from './support/rina-job.js';

const CLI = builtCliEntry();
const BUILT = existsSync(CLI) && existsSync(path.join(packageRoot(), 'dist', 'src', 'fabric', 'index.js'));
/** rina_tor.p4's defaults (64 values per packet), as the agents' --elements default. */
const VALUES = 64;
const LENGTH = 131_072;
const SEED = 'tor-restart';
const RESTARTED = 'p4it1';
/** Emitted rounds at the ToR before it is restarted: the exponent pass has 2 × 32 per ToR, the data pass 2 × 1024. */
const EMITTED_BEFORE_RESTART = 300;
/** Hang guards, not performance bounds: far beyond what the retry limits allow. */
const PROGRESS_WAIT_MS = 120_000;
const EXIT_WAIT_MS = 180_000;
/** Retransmissions of one packet before a worker gives up (the default is 30). */
const MAX_RETRIES = 10;

const programs = new ProgramCache({ compiler: compilePipeline });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

interface Job {
  readonly fabric: LoopbackFabric;
  readonly installer: Installer;
  readonly spec: JobSpec;
  readonly plan: RolloutPlan;
  readonly workers: TrackedChild[];
  readonly group: ChildGroup;
}

async function startJob(): Promise<Job> {
  const topology = shorthandTopology(parseTopoShorthand('leafspine,racks=2,hosts=2,spines=1'), { inaProgram: rinaSource() });
  const fabric = await LoopbackFabric.start(topology, { programs, udpPorts: testUdpPorts });
  cleanups.push(() => fabric.close());
  const group = new ChildGroup();
  cleanups.push(() => group.close());
  const installer = await fabric.controller();
  const hosts = [...fabric.hosts.keys()];
  const spec = defineJob({ id: 9, algorithm: 'rina', workers: hosts.map((host, rank) => ({ rank, host, udpPort: RINA_PORTS.first + 1 })), poolSize: 16 });
  const plan = installer.planFor(spec);
  expect(plan.ring!.map((m) => m.kind)).toEqual(['rack', 'rack']);
  await installer.setupJob(spec, plan);
  const address = (rank: number): string => `${ipv4ToText(fabric.topology.hosts.get(plan.workers[rank]!.host)!.ip)}:${spec.workers[rank]!.udpPort}`;
  const members = plan.ring!.flatMap((m) => ['--member', `${m.kind}:${m.ranks.map(address).join(',')}`]);
  const workers: TrackedChild[] = [];
  for (const w of spec.workers) {
    const place = placeInPlan(plan.ring!, w.rank);
    const args = [
      CLI, 'agent', 'rina-worker', ...members, '--position', String(place.position), '--worker-id', String(place.workerId), '--rank', String(w.rank),
      ...fabric.wireArgs(plan.workers[w.rank]!.host), '--job', String(spec.id), '--pool', String(spec.poolSize),
      '--length', String(LENGTH), '--seed', SEED, '--max-retries', String(MAX_RETRIES), '--json',
    ];
    workers.push(await group.spawn({ name: `rina-${w.rank}`, command: process.execPath, args }));
  }
  return { fabric, installer, spec, plan, workers, group };
}

/** Resolves once the ToR has emitted `rounds` rounds; rejects if a worker exits first or it takes past the guard. */
async function emitted(job: Job, rounds: number): Promise<void> {
  const until = Date.now() + PROGRESS_WAIT_MS;
  for (;;) {
    const ended = job.workers.find((w) => w.exit());
    if (ended) throw new Error(`worker ${ended.name} ended before the restart: ${ended.stderr() || ended.stdout()}`);
    if (((await counterCells(job.installer, RESTARTED, 'ingress.rina.rina_outcomes'))[2] ?? 0) >= rounds) return;
    if (Date.now() > until) throw new Error(`${RESTARTED} did not emit ${rounds} rounds within ${PROGRESS_WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface WorkerEnd {
  readonly code: number | null;
  readonly error: string | undefined;
  readonly resultSha256: string | undefined;
}

/** The worker's --json report: its one line that is one (log lines may come before it). */
function reportOf(w: TrackedChild): { resultSha256: string } {
  const line = w.stdout().split('\n').find((l) => l.startsWith('{"algorithm":"rina"'));
  if (line === undefined) throw new Error(`worker ${w.name} exited 0 without a report:\n${w.stdout()}`);
  return JSON.parse(line) as { resultSha256: string };
}

async function ends(job: Job): Promise<WorkerEnd[]> {
  const exited = await Promise.all(job.workers.map((w) => waitExit(w, EXIT_WAIT_MS)));
  expect(exited, 'every worker exits by itself').toEqual(job.workers.map(() => true));
  return job.workers.map((w) => ({
    code: w.exit()!.code,
    error: w.stderr().split('\n').find((line) => line.startsWith('error')),
    resultSha256: w.exit()!.code === 0 ? reportOf(w).resultSha256 : undefined,
  }));
}

function expectedSha256(job: Job): string {
  const tensors = job.spec.workers.map((w) => seededTensor(LENGTH, SEED, w.rank));
  const expected = expectedRina(tensors, job.plan.ring!.length, VALUES);
  return createHash('sha256').update(new Uint8Array(expected.buffer, expected.byteOffset, expected.byteLength)).digest('hex');
}

const TIMEOUT_LINE = /^error RINA_TIMEOUT: .*(went unanswered after 10 retransmissions: .* stopped answering|nothing of this pass arrived for \d+ ms)/;

describe.skipIf(!BUILT)('Rina: an INA ToR restarted mid-job (switch and workers as processes)', () => {
  test('nobody reprograms it: every worker fails with RINA_TIMEOUT naming what stopped answering, and exits', async () => {
    const job = await startJob();
    await emitted(job, EMITTED_BEFORE_RESTART);
    const before = job.fabric.switches().find((s) => s.name === RESTARTED)!;
    const after = await job.fabric.restartSwitch(RESTARTED);
    expect(after.pid).not.toBe(before.pid);
    const outcome = await ends(job);
    for (const w of outcome) {
      expect(w.code).toBe(1);
      expect(w.error).toMatch(TIMEOUT_LINE);
    }
    // The rack behind the restarted ToR hears nothing from it: its workers say so.
    expect(outcome.slice(0, 2).some((w) => w.error?.includes(`the ToR of member 0 (INA rack, agent at ${ipv4ToText(job.fabric.topology.hosts.get('p4ih1')!.ip)}:`))).toBe(true);
    expect(job.group.livePids()).toEqual([]);
  }, 600_000);

  test('the controller reconciles it while the job runs: every worker exact or RINA_TIMEOUT, never a wrong result', async () => {
    const job = await startJob();
    await emitted(job, EMITTED_BEFORE_RESTART);
    await job.fabric.restartSwitch(RESTARTED);
    // A controller restarted with it: its old sessions are broken, a new run pushes the pipeline and reconciles.
    await job.installer.close();
    const controller = await job.fabric.controller();
    expect(controller.sessions.get(RESTARTED)!.counters.pipelinePushes).toBe(1);
    const report = await controller.reconcile([job.spec]);
    expect([...report.installed, ...report.reinstalled]).toEqual([job.spec.id]);
    const outcome = await ends(job);
    const sha = expectedSha256(job);
    for (const w of outcome) {
      if (w.code === 0) expect(w.resultSha256).toBe(sha);
      else expect({ code: w.code, error: w.error }).toMatchObject({ code: 1, error: expect.stringMatching(TIMEOUT_LINE) });
    }
    console.info(`ToR restarted and reconciled mid-job: ${outcome.filter((w) => w.code === 0).length} of ${outcome.length} workers exact, the others RINA_TIMEOUT`);
    expect(job.group.livePids()).toEqual([]);
  }, 600_000);
});
