/**
 * Bigger SwitchML packets (issue #15, lever "Bigger INA packets"): the
 * loopback demo's SwitchML with 64 values per packet (SwitchML's own), 128,
 * 256 and 364 (the most a 1500-byte MTU takes), each beside ring AllReduce
 * over TCP in the same `runDemo` (switchml.p4 compiled with
 * -DSWITCHML_ELEMENTS=E, the job and the workers with E), 4 workers × 16 MiB
 * of float32 each (`--quick`: 1 MiB).
 *
 * Per row: SwitchML's time (the slowest worker's allreduce call) and goodput
 * per worker, ring's, the ratio SwitchML/ring (time), SwitchML's
 * retransmissions, and the switch during the SwitchML call: frames in + out
 * per second (its port counters) and its CPU share. Then the same program in
 * this process, without sockets or other processes (switchml-in-process.ts):
 * updates and values per CPU second, after a warm-up, which is what the
 * packet size changes in the switch's own work whatever else the machine does.
 */
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../src/demo/demo-options.js';
import { runDemo, type DemoRunEvent } from '../src/demo/run-demo.js';
import { rowIsExact, type DemoRow } from '../src/report/demo-results.js';
import type { Cell } from '../src/report/table.js';
import { SWITCHML_HEADER_LENGTH } from '../src/wire/index.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { sampleSwitch, type SwitchSample } from './switch-sample.js';
import { switchMlUpdateRate } from './switchml-in-process.js';

const MIB = 1024 * 1024;
const WORKERS = 4;
const ELEMENTS = [64, 128, 256, 364] as const;

interface Measured {
  readonly switchml: DemoRow;
  readonly ring: DemoRow;
  readonly start: SwitchSample;
  readonly end: SwitchSample;
}

async function measure(elements: number, tensorBytes: number): Promise<Measured> {
  const options: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, algorithms: ['switchml', 'ring'], workers: WORKERS, tensorBytes, switchMlElements: elements, runTimeoutMs: 900_000 };
  const samples: SwitchSample[] = [];
  const onRun = async (event: DemoRunEvent): Promise<void> => {
    if (event.algorithm === 'switchml') samples.push(await sampleSwitch(event.switchProcess));
  };
  const outcome = await runDemo(options, { onRun });
  const switchml = outcome.rows.find((r) => r.algorithm === 'switchml');
  const ring = outcome.rows.find((r) => r.algorithm === 'ring');
  if (!switchml || !ring || samples.length !== 2) throw new Error('the demo did not run both algorithms');
  for (const row of [switchml, ring]) {
    if (!rowIsExact(row)) throw new Error(`${row.algorithm} with ${elements} values per packet was not exact: ${row.failure ?? 'results differ or break the bound'}`);
  }
  return { switchml, ring, start: samples[0]!, end: samples[1]! };
}

const mbps = (gbps: number | undefined): number | undefined => (gbps === undefined ? undefined : gbps * 1000);

export const switchMlElements: Benchmark = {
  name: 'switchml-elements',
  summary: 'SwitchML with 64/128/256/364 values per packet vs ring AllReduce, loopback demo, 4 workers × 16 MiB',
  async run({ quick, progress }): Promise<BenchResult> {
    const tensorBytes = (quick ? 1 : 16) * MIB;
    const rows: Cell[][] = [];
    for (const elements of ELEMENTS) {
      progress(`${elements} values per packet: switchml and ring, ${WORKERS} workers × ${tensorBytes / MIB} MiB`);
      const m = await measure(elements, tensorBytes);
      progress(`${elements} values per packet: switchml.p4 in process`);
      const updates = await switchMlUpdateRate(elements, quick ? 1 : 3, quick ? 2 : 5);
      const seconds = (m.switchml.timeMs ?? NaN) / 1000;
      rows.push([
        elements,
        SWITCHML_HEADER_LENGTH + 4 * elements,
        seconds,
        mbps(m.switchml.goodputGbps),
        (m.ring.timeMs ?? NaN) / 1000,
        mbps(m.ring.goodputGbps),
        (m.switchml.timeMs ?? NaN) / (m.ring.timeMs ?? NaN),
        m.switchml.retransmissions,
        Math.round((m.end.packets - m.start.packets) / seconds),
        `${Math.round((100 * (m.end.cpuSeconds - m.start.cpuSeconds)) / seconds)}%`,
        updates,
        (updates * elements) / 1e6,
      ]);
    }
    return {
      title: `SwitchML packet size: values per packet vs ring AllReduce (loopback demo, ${WORKERS} workers × ${tensorBytes / MIB} MiB)`,
      columns: ['values/pkt', 'SwitchML B/pkt', 'SwitchML s', 'SwitchML Mbit/s/worker', 'ring s', 'ring Mbit/s/worker', 'SwitchML/ring', 'retransmissions', 'switch pkt/s', 'switch CPU', 'in process updates/CPU-s', 'in process M values/CPU-s'],
      rows,
      notes: [
        `One \`p4ina demo --algorithm switchml,ring --elements E\` per row (runDemo): p4/switchml.p4 compiled with -DSWITCHML_ELEMENTS=E in a \`p4ina switch\` child with one UDP wire per worker, the controller's job with elements_per_packet E, workers with --elements E; pool ${DEFAULT_DEMO_OPTIONS.poolSize} slots; then the ring over TCP on the same seeded tensors. Every row exact and identical on all workers.`,
        'SwitchML B/pkt: the UDP payload (14-byte SwitchML header + 4 bytes per value); 364 values fill a 1500-byte MTU.',
        "time: the slowest worker's allreduce call; goodput: tensor bits per worker over that time. SwitchML/ring: SwitchML's time over ring's in the same run (below 1: SwitchML faster).",
        "switch pkt/s: frames into and out of the switch's ports (its counters, SIGUSR1) over the SwitchML call's time; switch CPU: its user + system time over the same time (100% = one core).",
        `in process: p4/switchml.p4 compiled with the row's E in this process (no sockets), one job of 4 workers whose updates for the same slots come in a row (every 4th completes a copy and leaves as 4 replicas): updates and int32 values per CPU second of this process, timed for ${quick ? 1 : 3} s after a ${quick ? 2 : 5} s warm-up (V8 optimises the large generated functions of big packets on its compiler threads, which count as CPU).`,
        'The machine is shared (2 cores); other load shows in every loopback column; the in-process ones count CPU time only.',
      ],
    };
  },
};
