/**
 * ATP jobs sharing one switch's aggregator pool against the same jobs on a
 * statically split pool (issue #12, "Speed"; ATP's paper reports 38–66%
 * more throughput for sharing): 1, 2 and 4 concurrent jobs of 2 workers
 * each on one emulated atp.p4 switch with POOL aggregators (atp-fabric.ts,
 * everything in this process). "shared": every job hashes over the whole
 * pool; "static": job j hashes over its own POOL/J aggregators from
 * j·POOL/J (the agents' poolBase). Same tensors, window and switch in both.
 */
import { compareWithReference, float64Reference, sameBits } from '../src/agent/baseline/accuracy.js';
import { seededTensor } from '../src/agent/baseline/seeded-tensor.js';
import { AtpScale, atpErrorBound } from '../src/agent/atp/atp-scale.js';
import { rootLogger } from '../src/log/logger.js';
import type { ProgramCache } from '../src/controller/install/index.js';
import type { Cell } from '../src/report/table.js';
import { AtpFabric, atpPrograms, type AtpBenchJob, type AtpJobOutcome } from './atp-fabric.js';
import type { Benchmark, BenchResult } from './benchmark.js';

const POOL = 128;
const WINDOW = 32;
const VALUES = 64;
const WORKERS = 2;
const KIB = 1024;

function checkExact(outcome: AtpJobOutcome, job: AtpBenchJob): void {
  const first = outcome.results[0]!;
  if (!outcome.results.every((r) => sameBits(r, first))) throw new Error(`job ${job.id}: the workers' results differ`);
  const ref = float64Reference(job.tensors);
  const factor = new AtpScale(WORKERS, 256).factor;
  const { violations } = compareWithReference(first, ref, (i) => atpErrorBound(WORKERS, factor, ref.sum[i]!, ref.absSum[i]!));
  if (violations > 0) throw new Error(`job ${job.id}: ${violations} elements break ATP's error bound`);
}

interface Measured {
  readonly outcomes: AtpJobOutcome[];
  readonly makespanMs: number;
}

async function measure(programs: ProgramCache, jobCount: number, shared: boolean, elements: number): Promise<Measured> {
  const part = POOL / jobCount;
  const jobs: AtpBenchJob[] = Array.from({ length: jobCount }, (_, j) => ({
    id: j + 1,
    poolSize: shared ? POOL : part,
    poolBase: shared ? 0 : j * part,
    tensors: Array.from({ length: WORKERS }, (_, rank) => seededTensor(elements, `atp-multi-job-${j}`, rank)),
  }));
  const fabric = await AtpFabric.start({ jobs: jobCount, workers: WORKERS, programs, values: VALUES, window: WINDOW });
  try {
    const start = performance.now();
    const outcomes = await fabric.runJobs(jobs);
    const makespanMs = performance.now() - start;
    outcomes.forEach((o, j) => checkExact(o, jobs[j]!));
    return { outcomes, makespanMs };
  } finally {
    await fabric.close();
  }
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Runs of one configuration, ordered by time: the middle one stands for them. */
const median = (runs: Measured[]): Measured => [...runs].sort((a, b) => a.makespanMs - b.makespanMs)[Math.floor(runs.length / 2)]!;

/**
 * The static and the shared row for `jobCount` jobs of `bytes` per worker:
 * the median of `repeats` runs each, the two modes taking turns so that a
 * change in the machine's load falls on both.
 */
async function rowsFor(programs: ProgramCache, jobCount: number, bytes: number, repeats: number, progress: (line: string) => void): Promise<Cell[][]> {
  const runs: Record<'static' | 'shared', Measured[]> = { static: [], shared: [] };
  for (let r = 0; r < repeats; r++) {
    for (const mode of ['static', 'shared'] as const) {
      progress(`${jobCount} job(s), ${mode} pool, run ${r + 1} of ${repeats}`);
      runs[mode].push(await measure(programs, jobCount, mode === 'shared', bytes / 4));
    }
  }
  const perMode = (['static', 'shared'] as const).map((mode) => ({ mode, m: median(runs[mode]) }));
  const total = (m: Measured): number => (jobCount * bytes * 8) / (m.makespanMs / 1000) / 1e6;
  const staticTotal = total(perMode[0]!.m);
  return perMode.map(({ mode, m }) => {
    const ps = m.outcomes.map((o) => o.ps);
    const completed = sum(ps.map((p) => p.completed));
    return [
      jobCount,
      mode,
      mode === 'shared' ? POOL : POOL / jobCount,
      sum(m.outcomes.map((o) => o.elapsedMs)) / jobCount / 1000,
      m.makespanMs / 1000,
      total(m),
      `${Math.round((100 * total(m)) / staticTotal - 100)}%`,
      sum(m.outcomes.flatMap((o) => o.workerStats.map((s) => s.retransmissions))),
      sum(ps.map((p) => p.collisionPieces)),
      `${(Math.floor((1000 * sum(ps.map((p) => p.completedByOnePiece))) / completed) / 10).toFixed(1)}%`,
    ];
  });
}

export const atpMultiJob: Benchmark = {
  name: 'atp-multi-job',
  summary: `ATP: 1/2/4 concurrent jobs on one shared pool of ${POOL} aggregators vs a static split (pool/J each), one in-process switch`,
  async run({ quick, progress }): Promise<BenchResult> {
    const bytes = (quick ? 128 : 1024) * KIB;
    const programs = atpPrograms(POOL, VALUES);
    const rows: Cell[][] = [];
    // The in-process switch logs each pipeline push at info on stdout, which would break the tables and --json.
    const level = rootLogger().level;
    rootLogger().level = 'warn';
    const repeats = quick ? 1 : 3;
    try {
      // An untimed run first: the first one in a process also pays for compiling atp.p4 and V8's warm-up.
      progress('warm-up run');
      await measure(programs, 1, true, bytes / 4);
      for (const jobCount of [1, 2, 4]) rows.push(...(await rowsFor(programs, jobCount, bytes, repeats, progress)));
    } finally {
      rootLogger().level = level;
    }
    return {
      title: 'ATP: concurrent jobs on one shared aggregator pool vs a static split (one emulated switch, in process)',
      columns: ['jobs', 'pool', 'aggregators/job', 'job s (mean)', 'all done s', 'total Mbit/s', 'vs static', 'retransmissions', 'collided pieces', 'by switch'],
      rows,
      notes: [
        `Each row: the median (by the time until all jobs were done) of ${repeats} runs, static and shared taking turns, after one untimed warm-up run. One p4/atp.p4 switch (compiled with ATP_AGGREGATORS=${POOL}, ATP_VALUES=${VALUES}) launched in this process with a UDP wire on 127.0.0.1 per host, programmed by the controller over P4Runtime; per job ${WORKERS} AtpWorkers and an AtpParameterServer in this process too, configured from the controller's plan. A fresh switch per row.`,
        `Each job: ${WORKERS} workers × ${bytes / KIB} KiB of float32 (seeded, different per job), window ${WINDOW} positions, value range 256; all jobs start at once. Every job's result exact (ATP's error bound against the float64 reference) and identical on its workers.`,
        'static: job j hashes its window positions over aggregators j·pool/J … (j+1)·pool/J − 1 (worker and PS option poolBase), and the PS moves collided positions only within that part; shared: every job over the whole pool.',
        "job s: each job's time from its workers' start to the last one's end, averaged over the jobs; total Mbit/s: all jobs' tensor bits (per worker) over the time until the last job ended; vs static: total over the static split's in the same J.",
        'collided pieces: pieces that reached a PS marked as collided (their aggregator held another sequence); by switch: the share of result packets the switch aggregated whole.',
      ],
    };
  },
};
