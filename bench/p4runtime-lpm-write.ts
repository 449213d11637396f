/**
 * LPM route inserts over P4Runtime (issue #15): 20,000 /24 routes in Writes of
 * 1,000, one Write outstanding at a time, into `p4ina switch` running
 * bench/fixtures/big_tables.p4 (a fresh switch process per run, so every run
 * starts from an empty table), side by side:
 *  - a client that is not ours (proto-loader-client.ts: plain proto-loader
 *    objects, the way a new user writes one; BMv2's PI server is measured with
 *    such a client);
 *  - our client (src/p4runtime), entities built from names;
 * and each client against a server that does no work (its own ceiling).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readP4InfoFile } from '../src/p4info/index.js';
import { action, insert, P4RuntimeClient, table } from '../src/p4runtime/index.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { idsFromP4InfoJson, lpmInsert, ProtoLoaderWriter } from './proto-loader-client.js';
import { spawnServer } from './spawn-server.js';

const BATCH = 1000;
/** Issue #15's goal: twice what BMv2's PI server took from the independent client (35,300/s). */
const TARGET = 70_600;
const TABLE = 'BigIngress.routes';
const ACTION = 'BigIngress.forward';
const dist = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const repo = (file: string): string => fileURLToPath(new URL(`../../${file}`, import.meta.url));

type Client = 'independent' | 'ours';
type Server = 'switch' | 'null';

interface Program {
  dir: string;
  config: string;
  p4infoJson: string;
}

/** Compiles the fixture with `p4ina compile`, as a user would before starting the switch. */
function compileFixture(): Program {
  const dir = mkdtempSync(join(tmpdir(), 'p4ina-lpm-write-'));
  const p4infoJson = join(dir, 'big_tables.p4info.json');
  execFileSync(process.execPath, [dist('../src/cli/main.js'), 'compile', repo('bench/fixtures/big_tables.p4'), '-o', dir, '--p4runtime-files', `${join(dir, 'big_tables.p4info.txtpb')},${p4infoJson}`], {
    stdio: 'ignore',
  });
  return { dir, config: join(dir, 'big_tables.ir.json'), p4infoJson };
}

interface Measured {
  /** Wall-clock seconds of the whole run. */
  seconds: number;
  /** CPU seconds this process (the client) spent meanwhile. */
  clientCpu: number;
  /** CPU seconds the server process spent meanwhile, or NaN where /proc cannot tell. */
  serverCpu: number;
}

/** CPU seconds (user + system, all threads) of process `pid` so far, from /proc; NaN elsewhere. */
function processCpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks of 1/100 s on Linux.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Sends routes `from`..`from + total - 1` in Writes of BATCH, one outstanding at a time. */
async function timeBatches(
  from: number,
  total: number,
  serverPid: number | undefined,
  send: (start: number, count: number) => Promise<void>,
): Promise<Measured> {
  const server0 = processCpuSeconds(serverPid);
  const client0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let start = from; start < from + total; start += BATCH) await send(start, Math.min(BATCH, from + total - start));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const client = process.cpuUsage(client0);
  return { seconds, clientCpu: (client.user + client.system) / 1e6, serverCpu: processCpuSeconds(serverPid) - server0 };
}

/** A connected client that writes routes by number. */
interface RouteWriter {
  write(start: number, count: number): Promise<void>;
  close(): Promise<void>;
}

async function independentWriter(address: string, program: Program): Promise<RouteWriter> {
  const ids = idsFromP4InfoJson(program.p4infoJson, TABLE, ACTION);
  const writer = new ProtoLoaderWriter(address, 1);
  await writer.becomePrimary();
  return {
    write: (start, count) => writer.write(Array.from({ length: count }, (_, k) => lpmInsert(ids, start + k))),
    close: () => Promise.resolve(writer.close()),
  };
}

const route = (i: number) =>
  insert(
    table(
      TABLE,
      { 'hdr.ipv4.dstAddr': { value: Buffer.from([10 + (i >> 16), (i >> 8) & 255, i & 255, 0]), prefixLen: 24 } },
      action(ACTION, { dstAddr: Buffer.from([0x02, 0, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255]), port: 1 + (i % 8) }),
    ),
  );

async function ourWriter(address: string, program: Program): Promise<RouteWriter> {
  const client = new P4RuntimeClient({ address, deviceId: 0, electionId: 1n, reconnect: false, maxUpdatesPerWrite: BATCH });
  await client.connect();
  client.useP4Info(readP4InfoFile(program.p4infoJson));
  return {
    write: (start, count) => client.write(Array.from({ length: count }, (_, k) => route(start + k))),
    close: () => client.close(),
  };
}

/** Two phases on a fresh server process: the first `total` routes (into a cold process), then the next `total`. */
async function runOnce(client: Client, server: Server, program: Program, total: number): Promise<[Measured, Measured]> {
  const args = server === 'switch' ? [dist('../src/cli/main.js'), 'switch', program.config, '--', '--grpc-server-addr', '127.0.0.1:0'] : [dist('./null-p4runtime-server.js'), '--no-decode'];
  const sp = await spawnServer(args, /127\.0\.0\.1:(\d+)/);
  try {
    const address = `127.0.0.1:${sp.port}`;
    const writer = client === 'independent' ? await independentWriter(address, program) : await ourWriter(address, program);
    try {
      const first = await timeBatches(0, total, sp.child.pid, (start, count) => writer.write(start, count));
      const second = await timeBatches(total, total, sp.child.pid, (start, count) => writer.write(start, count));
      return [first, second];
    } finally {
      await writer.close();
    }
  } finally {
    await sp.stop();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const p4runtimeLpmWrite: Benchmark = {
  name: 'p4runtime-lpm',
  summary: 'LPM route inserts/s in Writes of 1,000 into p4ina switch: an independent proto-loader client beside ours, each also against a null server',
  async run({ quick, progress }): Promise<BenchResult> {
    const total = quick ? 5_000 : 20_000;
    const rounds = quick ? 1 : 5;
    const program = compileFixture();
    const cells: [Client, Server][] = [
      ['independent', 'switch'],
      ['ours', 'switch'],
      ['independent', 'null'],
      ['ours', 'null'],
    ];
    const runs = new Map<string, [Measured, Measured][]>(cells.map(([c, s]) => [`${c}/${s}`, []]));
    try {
      // Rounds interleave the four cells, so that a burst of load elsewhere on the machine spreads over all of them.
      for (let r = 0; r < rounds; r++) {
        for (const [client, server] of cells) {
          progress(`round ${r + 1}/${rounds}: ${client} client → ${server} server`);
          runs.get(`${client}/${server}`)!.push(await runOnce(client, server, program, total));
        }
      }
    } finally {
      rmSync(program.dir, { recursive: true, force: true });
    }
    const rate = (ms: Measured[]): number => Math.round(median(ms.map((m) => total / m.seconds)));
    const micros = (seconds: number): string => (Number.isNaN(seconds) ? '-' : ((seconds / total) * 1e6).toFixed(1));
    const row = (client: Client, label: string): Cell[] => {
      const sw = runs.get(`${client}/switch`)!;
      const nul = runs.get(`${client}/null`)!;
      const warm = sw.map(([, second]) => second);
      return [
        label,
        rate(sw.map(([first]) => first)),
        rate(warm),
        micros(median(warm.map((m) => m.serverCpu))),
        micros(median(warm.map((m) => m.clientCpu))),
        rate(nul.map(([first]) => first)),
        rate(nul.map(([, second]) => second)),
      ];
    };
    const k = `${total / 1000}k`;
    // With one Write outstanding, client and switch take turns: the switch's share of each entry is what is left of 1/rate.
    const ceiling = rate(runs.get('independent/null')!.map(([, second]) => second));
    const budget = 1e6 / TARGET - 1e6 / ceiling;
    return {
      title: `P4Runtime LPM route inserts, ${k} in Writes of 1,000 (entries/s)`,
      columns: ['client', `first ${k}`, `next ${k}`, 'switch CPU µs/entry', 'client CPU µs/entry', `null server, first ${k}`, `null server, next ${k}`],
      rows: [row('independent', 'proto-loader objects (not ours)'), row('ours', 'p4ina client (src/p4runtime)')],
      notes: [
        `Median of ${rounds} runs each, interleaved. A run starts a fresh server process and writes ${k} routes (first: code not yet optimised by V8 in the switch), then ${k} more (next).`,
        'One Write outstanding at a time; client and server in separate processes on 127.0.0.1.',
        'The switch runs bench/fixtures/big_tables.p4 (compiled by p4ina compile): /24 routes into its 100,000-entry LPM table, action forward(dstAddr, port).',
        'The independent client (bench/proto-loader-client.ts) loads proto/ with @grpc/proto-loader and sends plain objects, as a new user would; grpc-js serialises them (fromObject, encode).',
        'CPU µs/entry (next): CPU time of the switch process (all threads, GC included; from /proc) and of the client, per entry; steadier than the rates on a loaded machine.',
        'null server: a server that answers every Write without even decoding it (bench/null-p4runtime-server.ts --no-decode): what the client and gRPC alone sustain. Its first column is a fresh null server process too: the ceiling of the first column.',
        `Target (issue #15): at least 2× BMv2's PI server with the same independent client (35,300/s, measured once): ≥ ${TARGET.toLocaleString('en')}/s. ` +
          `With this client's own ceiling of ${ceiling.toLocaleString('en')}/s here, that leaves the switch ${budget > 0 ? `${budget.toFixed(1)} µs` : 'nothing'} per entry.`,
      ],
    };
  },
};
