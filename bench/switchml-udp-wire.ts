/**
 * INA payload through `p4ina switch` on UDP wires (issue #15: "UDP-wire
 * switch: INA payload bytes per second ≥ 4× today, and packets/s against the
 * plain relay row"). Four closed-loop SwitchML workers in this process
 * (closed-loop-workers.ts) keep a window of slots busy through:
 * - a hand-written Node relay that only counts updates per slot and sends
 *   the 4th back to all 4 workers (the I/O alone), on Node's dgram and on
 *   our batched sockets;
 * - `p4ina switch` running p4/switchml.p4 (compiled with 64, 256 or 364 values per
 *   packet), programmed over P4Runtime with the fixture's job, with Node's
 *   dgram (`--udp-io dgram`) and with the batched addon (`--udp-io batched`)
 *   when this build has it;
 * - the same switch from another build, when P4INA_BENCH_BASELINE_CLI names
 *   its dist/src/cli/main.js (e.g. the commit before a change, built aside),
 *   on batched sockets when that build has them, else on its default.
 * Figures: rounds per second (each 4 updates in, 4 results out), frames per
 * second through the forwarder (8 per round), INA payload (the updates'
 * values, 4 bytes each) in MB/s, and the forwarder's CPU (user + system from
 * /proc) per frame.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { DEFAULT_DEMO_OPTIONS } from '../src/demo/demo-options.js';
import { runDemo } from '../src/demo/run-demo.js';
import { rowIsExact } from '../src/report/demo-results.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { AGGREGATING_RELAY, BATCHED_AGGREGATING_RELAY, ClosedLoopWorkers } from './closed-loop-workers.js';
import { switchMlJobUpdates } from './fixtures/switchml-workload.js';
import { compile } from './in-process-switch.js';
import { programRaw } from './raw-p4runtime.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';
import { processCpuSeconds } from './switch-sample.js';

const WINDOW = 32;
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

interface Forwarder {
  readonly name: string;
  readonly elements: number;
  readonly io: string;
  start(workerPorts: readonly number[], ownPorts: readonly number[]): Promise<ServerProcess>;
}

async function freePorts(n: number): Promise<number[]> {
  // Bound and closed at once: the forwarder binds them right after (connected wires need explicit ports).
  const workers = await ClosedLoopWorkers.open(1, 1);
  const more = n > workers.ports.length ? await ClosedLoopWorkers.open(1, 1) : undefined;
  const ports = [...workers.ports, ...(more?.ports ?? [])].slice(0, n);
  workers.close();
  more?.close();
  return ports;
}

function switchForwarder(cli: string, label: string, elements: number, io?: string): Forwarder {
  return {
    name: label,
    elements,
    io: io ?? 'dgram (its default)',
    async start(workerPorts, ownPorts) {
      const wires = ownPorts.flatMap((p, w) => ['-i', `${w + 1}@udp:127.0.0.1:${p}:127.0.0.1:${workerPorts[w]}`]);
      const sw = await spawnServer([cli, 'switch', ...wires, '--no-p4', ...(io ? ['--udp-io', io] : []), '--', '--grpc-server-addr', '127.0.0.1:0'], /127\.0\.0\.1:(\d+)/);
      try {
        const program = compile('p4/switchml.p4', ['p4/include'], [`SWITCHML_ELEMENTS=${elements}`]);
        await programRaw(`127.0.0.1:${sw.port}`, program.p4info, Buffer.from(program.irText), switchMlJobUpdates(program.p4info));
      } catch (err) {
        await sw.stop();
        throw err;
      }
      return sw;
    },
  };
}

function relayForwarder(elements: number, io: 'dgram' | 'batched'): Forwarder {
  const socketModule = new URL('../src/net/udp-batch/batched-udp-socket.js', import.meta.url).href;
  const [source, args] = io === 'dgram' ? [AGGREGATING_RELAY, [] as string[]] : [BATCHED_AGGREGATING_RELAY, [socketModule]];
  return {
    name: 'hand-written Node relay (counts, no sums)',
    elements,
    io,
    start: (workerPorts, ownPorts) => spawnServer(['--input-type=module', '-e', source, JSON.stringify([workerPorts, ownPorts, ...args])], /127\.0\.0\.1:(\d+)/),
  };
}

function supportsUdpIo(cli: string): boolean {
  const help = spawnSync(process.execPath, [cli, 'switch', '--help'], { encoding: 'utf8', timeout: 20_000 });
  return `${help.stdout}${help.stderr}`.includes('--udp-io');
}

async function measure(f: Forwarder, warmup: number, seconds: number): Promise<Cell[]> {
  const workers = await ClosedLoopWorkers.open(f.elements, WINDOW);
  let server: ServerProcess | undefined;
  try {
    const own = await freePorts(workers.ports.length);
    server = await f.start(workers.ports, own);
    await workers.connectTo(own);
    const pid = server.child.pid!;
    const cpu0 = processCpuSeconds(pid);
    const result = await workers.run(warmup, seconds);
    const cpu = processCpuSeconds(pid) - cpu0; // includes the warm-up: scaled below
    const total = warmup + result.seconds;
    const framesPerSecond = result.roundsPerSecond * 8;
    const payload = (result.roundsPerSecond * 4 * f.elements * 4) / 1e6;
    const share = cpu / total;
    const perCpuSecond = share > 0 ? (payload / share).toFixed(1) : '-';
    return [f.name, f.elements, f.io, Math.round(result.roundsPerSecond), Math.round(framesPerSecond), payload.toFixed(1), `${Math.round(100 * share)}%`, perCpuSecond, framesPerSecond > 0 ? ((share / framesPerSecond) * 1e6).toFixed(1) : '-', result.stalledSlots];
  } finally {
    await server?.stop();
    workers.close();
  }
}

/**
 * The demo's ring AllReduce (4 workers, TCP) on `tensorBytes` per worker, as a row of the same table: its tensor
 * bytes reduced per second are what the INA payload column counts for the forwarders (every worker's values, once).
 */
async function ringRow(tensorBytes: number): Promise<Cell[]> {
  const outcome = await runDemo({ ...DEFAULT_DEMO_OPTIONS, algorithms: ['ring'], workers: 4, tensorBytes });
  const ring = outcome.rows.find((r) => r.algorithm === 'ring');
  if (!ring || !rowIsExact(ring) || ring.timeMs === undefined) throw new Error(`the ring AllReduce was not exact: ${ring?.failure ?? 'no result'}`);
  const payload = (4 * tensorBytes) / (ring.timeMs / 1000) / 1e6;
  return [`ring AllReduce over TCP (4 × ${tensorBytes / 2 ** 20} MiB, ${ring.timeMs.toFixed(0)} ms)`, '-', 'TCP', '-', '-', payload.toFixed(1), '-', '-', '-', '-'];
}

export const switchMlUdpWire: Benchmark = {
  name: 'switchml-udp-wire',
  summary: 'SwitchML payload through p4ina switch on UDP wires (64/256 values; dgram vs batched I/O) beside a hand-written relay, closed-loop workers',
  async run({ quick, progress }): Promise<BenchResult> {
    const cli = here('../src/cli/main.js');
    const baseline = process.env.P4INA_BENCH_BASELINE_CLI;
    if (baseline !== undefined && !existsSync(baseline)) throw new Error(`P4INA_BENCH_BASELINE_CLI=${baseline}: no such file`);
    const batched = supportsUdpIo(cli);
    // A baseline build that has the batched sockets runs on them, as ours does: the rows then differ by the build only.
    const baselineIo = baseline !== undefined && batched && supportsUdpIo(baseline) ? 'batched' : undefined;
    const forwarders: Forwarder[] = [];
    for (const elements of quick ? [64] : [64, 256, 364]) {
      forwarders.push(relayForwarder(elements, 'dgram'));
      if (batched) forwarders.push(relayForwarder(elements, 'batched'));
      if (baseline) forwarders.push(switchForwarder(baseline, 'p4ina switch, baseline build', elements, baselineIo));
      forwarders.push(switchForwarder(cli, 'p4ina switch', elements, batched ? 'dgram' : undefined));
      if (batched) forwarders.push(switchForwarder(cli, 'p4ina switch', elements, 'batched'));
    }
    const [warmup, seconds] = quick ? [1, 2] : [3, 5];
    const rows: Cell[][] = [];
    for (const f of forwarders) {
      progress(`${f.name}, ${f.elements} values, ${f.io}`);
      rows.push(await measure(f, warmup, seconds));
    }
    const ringBytes = quick ? 2 ** 20 : 16 * 2 ** 20;
    progress(`ring AllReduce, 4 workers × ${ringBytes / 2 ** 20} MiB`);
    rows.push(await ringRow(ringBytes));
    return {
      title: 'SwitchML through p4ina switch on UDP wires: INA payload and frames per second (closed-loop workers)',
      columns: ['forwarder', 'values/pkt', 'UDP I/O', 'rounds/s', 'frames/s', 'INA payload MB/s', 'forwarder CPU', 'payload MB per CPU-s', 'CPU µs/frame', 'stalled slots'],
      rows,
      notes: [
        `4 closed-loop workers in the benchmark process (bench/closed-loop-workers.ts), window ${WINDOW} slots each: a slot's next UPDATE leaves as soon as its RESULT arrives, so the forwarder sets the pace. Counted over ${seconds} s after ${warmup} s of warm-up (the switch's generated code is optimised by then).`,
        'A round is 4 UPDATEs in and 4 RESULTs out (frames/s = 8 × rounds/s); INA payload = the UPDATEs\' values (4 bytes each) per second.',
        'forwarder CPU: its user + system time over warm-up and timed part (100% = one core); the workers in this process use the other core. The relay forwards without P4 or sums: the I/O floor of each kind of socket.',
        'payload MB per CPU-s: the INA payload over the forwarder\'s CPU share, i.e. what one core of it would carry: where the closed-loop workers, not the forwarder, set the pace (forwarder CPU well below 100%), this is the figure to compare.',
        'stalled slots: slots without a result at the end (a frame lost on loopback stops a slot for good here, shrinking the window).',
        `ring: the loopback demo's ring AllReduce (runDemo, 4 worker processes over TCP, ${ringBytes / 2 ** 20} MiB each) in the same run, exact; its INA payload column is the 4 tensors' bytes over its time, the quantity the forwarders' column counts. A forwarder whose figure is below ring's cannot finish the same SwitchML job as fast as ring, whatever the P4 pipeline costs.`,
      ],
    };
  },
};
