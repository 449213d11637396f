/**
 * SwitchML through `p4ina switch` against ring AllReduce over TCP (issue #5,
 * "Speed"), side by side in one run: the loopback demo (src/demo: the same
 * compile, switch child on UDP wires, controller, worker processes) for 2, 4
 * and 8 workers and 16 and 64 MiB of float32 per worker (`--quick`: 2 and 4
 * workers, 16 MiB).
 *
 * Per row: each algorithm's time (the slowest worker's allreduce call) and
 * goodput per worker, the ratio SwitchML/ring, SwitchML's retransmissions, and
 * the switch during the SwitchML run: packets in + out per second (its
 * per-port counters, read with SIGUSR1, over the call's time) and its CPU
 * share (utime + stime from /proc over the call's time; the switch does
 * nothing else meanwhile), and how busy the whole machine was (/proc/stat).
 */
import { cpus } from 'node:os';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../src/demo/demo-options.js';
import { runDemo, type DemoRunEvent } from '../src/demo/run-demo.js';
import type { DemoRow } from '../src/report/demo-results.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { sampleSwitch, WatchedGroup, workersCallCpuSeconds, type SwitchSample } from './switch-sample.js';

const MIB = 1024 * 1024;

interface Measured {
  readonly switchml: DemoRow;
  readonly ring: DemoRow;
  readonly start: SwitchSample;
  readonly end: SwitchSample;
  /** CPU seconds the SwitchML workers used during their allreduce calls (their own reports). */
  readonly workerCpuSeconds: number;
}

async function measure(workers: number, tensorBytes: number): Promise<Measured> {
  // 8 workers × 64 MiB take minutes through the emulator: a generous bound instead of the demo's 10 minutes.
  const options: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, workers, tensorBytes, runTimeoutMs: 1_800_000 };
  const samples: SwitchSample[] = [];
  const group = new WatchedGroup();
  const onRun = async (event: DemoRunEvent): Promise<void> => {
    if (event.algorithm === 'switchml') samples.push(await sampleSwitch(event.switchProcess));
  };
  let outcome;
  let workerCpuSeconds: number;
  try {
    outcome = await runDemo(options, { onRun, children: group });
    workerCpuSeconds = workersCallCpuSeconds(group);
  } finally {
    await group.close();
  }
  const switchml = outcome.rows.find((r) => r.algorithm === 'switchml');
  const ring = outcome.rows.find((r) => r.algorithm === 'ring');
  if (!switchml || !ring || samples.length !== 2) throw new Error('the demo did not run both algorithms');
  for (const row of [switchml, ring]) {
    if (row.failure !== undefined || !row.identical || row.boundViolations !== 0) throw new Error(`${row.algorithm} with ${workers} workers was not exact: ${row.failure ?? 'results differ or break the bound'}`);
  }
  return { switchml, ring, start: samples[0]!, end: samples[1]!, workerCpuSeconds };
}

const mbps = (gbps: number | undefined): number | undefined => (gbps === undefined ? undefined : gbps * 1000);

export const switchMlVsRing: Benchmark = {
  name: 'switchml-vs-ring',
  summary: 'SwitchML through p4ina switch (UDP wires) vs ring AllReduce over TCP, 2/4/8 workers, 16/64 MiB',
  async run({ quick, progress }): Promise<BenchResult> {
    const cases: [number, number][] = quick
      ? [
          [2, 16 * MIB],
          [4, 16 * MIB],
        ]
      : [2, 4, 8].flatMap((w): [number, number][] => [
          [w, 16 * MIB],
          [w, 64 * MIB],
        ]);
    const rows: Cell[][] = [];
    for (const [workers, bytes] of cases) {
      progress(`${workers} workers × ${bytes / MIB} MiB`);
      const m = await measure(workers, bytes);
      const seconds = (m.switchml.timeMs ?? NaN) / 1000;
      const packets = m.end.packets - m.start.packets;
      const machine = (m.end.machineBusy - m.start.machineBusy) / (m.end.machineTotal - m.start.machineTotal);
      rows.push([
        workers,
        bytes / MIB,
        seconds,
        mbps(m.switchml.goodputGbps),
        (m.ring.timeMs ?? NaN) / 1000,
        mbps(m.ring.goodputGbps),
        (m.switchml.timeMs ?? NaN) / (m.ring.timeMs ?? NaN),
        m.switchml.retransmissions,
        Math.round(packets / seconds),
        `${Math.round((100 * (m.end.cpuSeconds - m.start.cpuSeconds)) / seconds)}%`,
        `${Math.round((100 * m.workerCpuSeconds) / seconds)}%`,
        `${Math.round(100 * machine)}%`,
      ]);
    }
    return {
      title: 'SwitchML through p4ina switch vs ring AllReduce (loopback, worker processes)',
      columns: [
        'workers',
        'MiB',
        'SwitchML s',
        'SwitchML Mbit/s/worker',
        'ring s',
        'ring Mbit/s/worker',
        'SwitchML/ring',
        'retransmissions',
        'switch pkt/s',
        'switch CPU',
        'workers CPU',
        'machine busy',
      ],
      rows,
      notes: [
        `p4ina demo's pieces (src/demo) per row: p4/switchml.p4 in a \`p4ina switch\` child with one UDP wire per worker, programmed by the controller over P4Runtime; pool ${DEFAULT_DEMO_OPTIONS.poolSize} slots (each worker's window), 64 values per packet; then the ring over TCP on the same seeded tensors. Every row exact and identical on all workers.`,
        'time: the slowest worker\'s allreduce call; goodput: tensor bits per worker over that time.',
        'switch pkt/s: frames into and out of the switch\'s ports (its counters, SIGUSR1) over the SwitchML call\'s time; switch CPU: its user + system time over the same time (100% = one core).',
        'workers CPU: the CPU time all SwitchML workers report for their allreduce calls (process.cpuUsage around the call), over the call\'s time. The workers run 5 nicer than the switch (src/demo/run-demo.ts).',
        `machine busy: all ${cpus().length} cores over the SwitchML run (workers starting and checking included), from /proc/stat; the machine is shared, so other load shows here too.`,
      ],
    };
  },
};
