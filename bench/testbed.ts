/**
 * SwitchML against its lower bound and against ring AllReduce on a Mininet
 * testbed (issue #6, "Speed"): one switch, 4 hosts, every host link shaped
 * to the same bandwidth B by Mininet's TCLink (htb). Root only: without
 * root (or without Mininet) it reports why and measures nothing.
 *
 * Bounds, per worker with a tensor of S bytes: in-network aggregation sends S
 * up and receives S down on its own link, so S/B; ring AllReduce moves
 * 2(n−1)/n·S each way, so 2(n−1)/n·S/B. Ratios are time / bound (1 = the
 * link is the only limit). Frames through the switch per second during the
 * SwitchML run (2·n·S / 256 B of payload per packet, over its time) show when
 * the switch, not the link, is the limit.
 */
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { rowIsExact, runTestbed, whyTestbedCannotRun } from './mininet-testbed.js';

const WORKERS = 4;
const VALUES_PER_PACKET = 64;
const MIB = 1024 * 1024;

export const testbedBench: Benchmark = {
  name: 'testbed',
  summary: 'Mininet (root): SwitchML vs its bound S/B and vs ring on 4 hosts with shaped links',
  async run({ quick, progress }): Promise<BenchResult> {
    const title = `Mininet testbed: SwitchML vs bound and ring, ${WORKERS} hosts on one p4ina switch`;
    const columns = ['link (Mbit/s)', 'tensor', 'SwitchML (ms)', 'S/B (ms)', 'SwitchML / (S/B)', 'ring (ms)', 'ring bound (ms)', 'ring / bound', 'ring / SwitchML', 'switch frames/s', 'SwitchML resends'];
    const why = whyTestbedCannotRun('testbed');
    if (why) return { title, columns, rows: [], notes: [`skipped: ${why}`] };
    const cases: [number, number][] = quick ? [[10, MIB / 4]] : [[100, 4 * MIB], [10, 2 * MIB], [2, MIB]];
    const rows: Cell[][] = [];
    for (const [mbps, bytes] of cases) {
      progress(`${mbps} Mbit/s links, ${bytes / MIB} MiB per worker`);
      const runs = await runTestbed(['--prefix', 'p4b', '--topo', `single,hosts=${WORKERS}`, '--bw', String(mbps), '--tensor', String(bytes), '--pool', '64', '--timeout', '600']);
      const ina = runs.find((r) => r.algorithm === 'switchml');
      const ring = runs.find((r) => r.algorithm === 'ring');
      for (const r of runs) if (!rowIsExact(r)) throw new Error(`${r.algorithm} at ${mbps} Mbit/s did not finish exact: ${r.failure ?? 'results differ'}`);
      const bound = (bytes * 8) / (mbps * 1e3);
      const ringBound = ((2 * (WORKERS - 1)) / WORKERS) * bound;
      const packets = (bytes / 4 / VALUES_PER_PACKET) * WORKERS * 2;
      rows.push([
        mbps,
        `${bytes / MIB} MiB`,
        ina?.timeMs,
        bound,
        ina?.timeMs ? ina.timeMs / bound : null,
        ring?.timeMs,
        ringBound,
        ring?.timeMs ? ring.timeMs / ringBound : null,
        ina?.timeMs && ring?.timeMs ? ring.timeMs / ina.timeMs : null,
        ina?.timeMs ? Math.round(packets / (ina.timeMs / 1000)) : null,
        ina?.retransmissions,
      ]);
    }
    return {
      title,
      columns,
      rows,
      notes: [
        'Times are the slowest worker\'s AllReduce call (its JSON report); each case is one run of `mininet/testbed.py --topo single,hosts=4 --bw B` (SwitchML pool 64, then ring over TCP on the same links).',
        'S/B: in-network aggregation\'s bound per worker; ring bound: 2(n−1)/n·S/B. Ratios are time / bound. Wire overhead (Ethernet, IPv4, UDP and the SwitchML header on 256 B of values: about 20%) is inside the ratio.',
        '"switch frames/s": frames through p4ina\'s switch per second during the SwitchML run (2·n·S/256 B, in and out); when it is flat across link speeds, the switch\'s packet rate, not the link, sets the time.',
      ],
    };
  },
};
