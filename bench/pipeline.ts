/**
 * The packet pipeline (issue #4, "Speed"), side by side with what plain JS does:
 *  (a) an L3 router (test/p4c/corpus/basic_forward.p4, 1,000 /24 routes) in process,
 *      against a hand-written JS function doing the same parse, lookup and rewrite;
 *  (b) 64 register read-add-write operations per packet (bench/fixtures/register64.p4,
 *      the shape of SwitchML aggregation) in process, against the same sums in JS;
 *  (b') p4/switchml.p4 with one job of 4 workers, the 4 workers' updates for the same slots
 *      (every 4th packet completes a slot copy and is multicast to the 4 workers);
 *  (c) the router in `p4ina switch` with two UDP-wire ports, against a plain Node UDP
 *      relay process, both fed the same blast of frames from this process;
 *  (d) resident size growth with 100,000 LPM and 1,000,000 exact entries
 *      (bench/fixtures/big_tables.p4), inserted through DeviceState.write.
 */
import { createSocket, type Socket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { P4RuntimeClient, action, insert, table } from '../src/p4runtime/index.js';
import { decodeMessage, encodeMessage } from '../src/proto/codec.js';
import type * as p4i from '../src/proto/p4i.js';
import type * as p4r from '../src/proto/p4r.js';
import type { Cell } from '../src/report/table.js';
import type { SwitchDevice } from '../src/switch/device/switch-device.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { SML_ELEMENTS } from './fixtures/switchml-workload.js';
import { aggFrame, handWrittenAggregator, handWrittenRouter, routeIp, routeMac, routePort, routerFrames, ROUTES, SLOTS } from './fixtures/pipeline-workloads.js';
import { compile, inProcessSwitch, rate, writeDecoded, type Program } from './in-process-switch.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';
import { switchMlUpdateRate } from './switchml-in-process.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

// ---- (a) the L3 router (frames and the hand-written versions: fixtures/pipeline-workloads.ts) ----

function routerUpdates(): p4r.Update[] {
  const entry = (i: number): p4r.Update => ({
    type: 'INSERT',
    entity: {
      table_entry: {
        table_id: 0, // filled below from the P4Info
        match: [{ field_id: 1, lpm: { value: Buffer.from(routeIp(i)), prefix_len: 24 } }],
        action: { action: { action_id: 0, params: [{ param_id: 1, value: routeMac(i) }, { param_id: 2, value: Buffer.from([routePort(i)]) }] } },
      },
    },
  });
  return Array.from({ length: ROUTES }, (_, i) => entry(i));
}

function idOf(list: readonly { preamble: { name: string; id: number } | null }[], name: string): number {
  const found = list.find((x) => x.preamble?.name === name);
  if (!found) throw new Error(`no ${name} in the P4Info`);
  return found.preamble!.id;
}

function installRoutes(device: SwitchDevice, p4info: p4i.P4Info__Output): void {
  const tableId = idOf(p4info.tables, 'MyIngress.ipv4_lpm');
  const actionId = idOf(p4info.actions, 'MyIngress.ipv4_forward');
  const updates = routerUpdates().map((u) => {
    const te = u.entity!.table_entry!;
    return { ...u, entity: { table_entry: { ...te, table_id: tableId, action: { action: { ...te.action!.action!, action_id: actionId } } } } };
  });
  writeDecoded(device, updates);
}

// ---- (c) UDP wires -----------------------------------------------------------------------

const bound = (socket: Socket): Promise<number> =>
  new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)));

async function freePort(): Promise<number> {
  const s = createSocket('udp4');
  const port = await bound(s);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/**
 * Sends `count` frames from `from` to `to` in bursts of 32 (yielding between bursts so the
 * forwarder keeps up), counts arrivals on `sink`, and stops 300 ms after the last arrival.
 * Returns frames/s at the receiver (first to last arrival) and how many arrived.
 */
async function blast(from: Socket, to: number, sink: Socket, frames: readonly Buffer[], count: number): Promise<{ rate: number; received: number }> {
  let received = 0;
  let first = 0n;
  let last = 0n;
  const onMessage = (): void => {
    last = process.hrtime.bigint();
    if (received++ === 0) first = last;
  };
  sink.on('message', onMessage);
  try {
    for (let sent = 0; sent < count; ) {
      for (let k = 0; k < 32 && sent < count; k++, sent++) from.send(frames[sent % frames.length]!, to, '127.0.0.1');
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (let idle = 0, seen = -1; idle < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (received === seen) idle++;
      else [seen, idle] = [received, 0];
    }
  } finally {
    sink.off('message', onMessage);
  }
  const seconds = Number(last - first) / 1e9;
  return { rate: seconds > 0 ? Math.round((received - 1) / seconds) : 0, received };
}

const RELAY = `
import { createSocket } from 'node:dgram';
const [inPort, outPort, peerPort] = process.argv.slice(1).map(Number);
const rx = createSocket('udp4'), tx = createSocket('udp4');
tx.bind(outPort, '127.0.0.1', () => rx.bind(inPort, '127.0.0.1', () => console.log('relay on 127.0.0.1:' + inPort)));
rx.on('message', (m) => tx.send(m, peerPort, '127.0.0.1'));
`;

async function programRouter(grpcPort: number, program: Program): Promise<void> {
  const client = new P4RuntimeClient({ address: `127.0.0.1:${grpcPort}`, deviceId: 0, electionId: 1n, reconnect: false });
  try {
    await client.connect();
    await client.setPipeline({ p4info: program.p4info, deviceConfig: Buffer.from(program.irText), force: true });
    const updates = Array.from({ length: ROUTES }, (_, i) =>
      insert(table('MyIngress.ipv4_lpm', { 'hdr.ipv4.dstAddr': `${routeIp(i).join('.')}/24` }, action('MyIngress.ipv4_forward', { dstAddr: routeMac(i), port: 2 }))),
    );
    await client.write(updates);
  } finally {
    await client.close();
  }
}

async function udpComparison(program: Program, count: number, progress: (line: string) => void): Promise<Cell[][]> {
  const source = createSocket('udp4');
  const sink = createSocket('udp4');
  const servers: ServerProcess[] = [];
  try {
    const [sourcePort, sinkPort] = [await bound(source), await bound(sink)];
    const frames = routerFrames();
    const rows: Cell[][] = [];
    progress(`UDP: plain Node relay, ${count} frames`);
    const [relayIn, relayOut] = [await freePort(), await freePort()];
    const relay = await spawnServer(['--input-type=module', '-e', RELAY, String(relayIn), String(relayOut), String(sinkPort)], /127\.0\.0\.1:(\d+)/);
    servers.push(relay);
    const r = await blast(source, relayIn, sink, frames, count);
    rows.push(['plain Node UDP relay', count, r.received, r.rate, '100%']);
    // The switch's UDP wires on each socket (--udp-io), one switch at a time.
    for (const udpIo of ['batched', 'dgram'] as const) {
      progress(`UDP: p4ina switch (router) --udp-io ${udpIo}, ${count} frames`);
      const [p1, p2] = [await freePort(), await freePort()];
      const sw = await spawnServer(
        [
          here('../src/cli/main.js'),
          'switch',
          '-i',
          `1@udp:127.0.0.1:${p1}:127.0.0.1:${sourcePort}`,
          '-i',
          `2@udp:127.0.0.1:${p2}:127.0.0.1:${sinkPort}`,
          '--udp-io',
          udpIo,
          '--no-p4',
          '--',
          '--grpc-server-addr',
          '127.0.0.1:0',
        ],
        /127\.0\.0\.1:(\d+)/,
      );
      try {
        await programRouter(sw.port, program);
        const s = await blast(source, p1, sink, frames, count);
        rows.push([`p4ina switch, router, UDP wires (--udp-io ${udpIo})`, count, s.received, s.rate, r.rate > 0 ? `${Math.round((100 * s.rate) / r.rate)}%` : '-']);
      } finally {
        await sw.stop();
      }
    }
    return rows;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    source.close();
    sink.close();
  }
}

// ---- (d) memory ---------------------------------------------------------------------------

function template(tableId: number, actionId: number, match: p4r.FieldMatch): p4r.Update__Output {
  const u: p4r.Update = { type: 'INSERT', entity: { table_entry: { table_id: tableId, match: [match], action: { action: { action_id: actionId, params: [{ param_id: 1, value: Buffer.from([2, 0, 0, 0, 0, 1]) }, { param_id: 2, value: Buffer.from([1]) }] } } } } };
  return decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', u));
}

/** Copies of a decoded update with another match value (the decoded shape, so no codec per entry). */
function withValue(t: p4r.Update__Output, kind: 'lpm' | 'exact', value: Buffer): p4r.Update__Output {
  const te = t.entity!.table_entry!;
  const m = te.match[0]!;
  const match = kind === 'lpm' ? { ...m, lpm: { ...m.lpm!, value } } : { ...m, exact: { ...m.exact!, value } };
  return { ...t, entity: { ...t.entity!, table_entry: { ...te, match: [match] } } };
}

function insertMany(device: SwitchDevice, count: number, make: (i: number) => p4r.Update__Output): void {
  for (let start = 0; start < count; start += 10_000) {
    const batch = Array.from({ length: Math.min(10_000, count - start) }, (_, k) => make(start + k));
    const result = device.state.write(batch, 'CONTINUE_ON_ERROR');
    const bad = (Array.isArray(result) ? result : [result]).find((s) => s.code !== 0);
    if (bad) throw new Error(`insert refused: ${bad.message}`);
  }
}

const mib = (bytes: number): number => Math.round(bytes / 1024 / 102.4) / 10;
const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

async function memory(lpmCount: number, exactCount: number, progress: (line: string) => void): Promise<Cell[][]> {
  const program = compile('bench/fixtures/big_tables.p4');
  const sw = inProcessSwitch(program, 2);
  try {
    const forward = idOf(program.p4info.actions, 'BigIngress.forward');
    const lpm = template(idOf(program.p4info.tables, 'BigIngress.routes'), forward, { field_id: 1, lpm: { value: Buffer.from([10, 0, 0, 0]), prefix_len: 24 } });
    const exact = template(idOf(program.p4info.tables, 'BigIngress.hosts'), forward, { field_id: 1, exact: { value: Buffer.from([1]) } });
    collect();
    const before = process.memoryUsage().rss;
    progress(`memory: ${lpmCount} LPM entries`);
    insertMany(sw.device, lpmCount, (i) => withValue(lpm, 'lpm', Buffer.from([10 + (i >> 16), (i >> 8) & 255, i & 255, 0])));
    collect();
    const afterLpm = process.memoryUsage().rss;
    progress(`memory: ${exactCount} exact entries`);
    const mac = Buffer.alloc(6);
    insertMany(sw.device, exactCount, (i) => {
      mac.writeUIntBE(i + 1, 0, 6);
      let z = 0;
      while (mac[z] === 0) z++;
      return withValue(exact, 'exact', Buffer.from(mac.subarray(z)));
    });
    collect();
    const afterExact = process.memoryUsage().rss;
    return [
      [`${lpmCount.toLocaleString('en')} LPM entries (/24)`, mib(afterLpm - before), Math.round((afterLpm - before) / lpmCount)],
      [`${exactCount.toLocaleString('en')} exact entries (48-bit key)`, mib(afterExact - afterLpm), Math.round((afterExact - afterLpm) / exactCount)],
      ['rss at the end', mib(afterExact), '-'],
    ];
  } finally {
    await sw.device.stop();
  }
}

// ---- the benchmark -------------------------------------------------------------------------

/** The in-process rows alone (exported for profiling with `node --cpu-prof`). */
export async function inProcessRates(seconds: number, progress: (line: string) => void, only?: 'router' | 'register64' | 'switchml'): Promise<Cell[][]> {
  const rows: Cell[][] = [];
  if (!only || only === 'router') rows.push(await routerRate(seconds, progress));
  if (!only || only === 'register64') rows.push(await register64Rate(seconds, progress));
  if (!only || only === 'switchml') rows.push(await switchMlRate(seconds, progress));
  return rows;
}

async function routerRate(seconds: number, progress: (line: string) => void): Promise<Cell[]> {
  const router = compile('test/p4c/corpus/basic_forward.p4');
  const rs = inProcessSwitch(router);
  try {
    installRoutes(rs.device, router.p4info);
    const frames = routerFrames();
    progress('in process: router');
    const inject = rs.ports[0]!;
    const sw = rate(seconds, (i) => inject.inject(frames[i % ROUTES]!));
    const forwarded = rs.ports.reduce((n, p) => n + p.sent, 0);
    if (forwarded !== inject.counters.framesIn) throw new Error(`router forwarded ${forwarded} of ${inject.counters.framesIn} frames: a frame missed`);
    const hand = handWrittenRouter();
    const js = rate(seconds, (i) => hand(frames[i % ROUTES]!));
    return ['L3 router (basic_forward.p4, 1,000 /24 routes)', sw, js, `${Math.round((100 * sw) / js)}%`, 500_000];
  } finally {
    await rs.device.stop();
  }
}

async function register64Rate(seconds: number, progress: (line: string) => void): Promise<Cell[]> {
  const agg = compile('bench/fixtures/register64.p4');
  const as = inProcessSwitch(agg, 2);
  try {
    const frames = Array.from({ length: SLOTS }, (_, slot) => aggFrame(slot));
    progress('in process: 64 register read-add-write');
    const sw = rate(seconds, (i) => as.ports[0]!.inject(frames[i % SLOTS]!));
    if (as.ports[1]!.sent !== as.ports[0]!.counters.framesIn) throw new Error('the aggregation program dropped frames');
    const hand = handWrittenAggregator();
    const js = rate(seconds, (i) => hand(frames[i % SLOTS]!));
    return ['64 register read-add-write (bench/fixtures/register64.p4)', sw, js, `${Math.round((100 * sw) / js)}%`, 150_000];
  } finally {
    await as.device.stop();
  }
}

/** (b') switchml.p4, one job of 4 workers (switchml-in-process.ts). */
async function switchMlRate(seconds: number, progress: (line: string) => void): Promise<Cell[]> {
  progress('in process: switchml.p4, 4 workers');
  const pps = await switchMlUpdateRate(SML_ELEMENTS, seconds);
  return ['switchml.p4, 1 job of 4 workers (64 values; every 4th packet multicast to 4)', pps, '-', '-', '-'];
}

export const pipelineBench: Benchmark = {
  name: 'pipeline',
  summary: 'packets/s through the v1model executor (router, 64-register program) in process and over UDP wires; memory with many entries',
  async run({ quick, progress }): Promise<BenchResult> {
    const rows: Cell[][] = [];
    for (const row of await inProcessRates(quick ? 0.5 : 3, progress)) rows.push(['in process', ...row]);
    const router = compile('test/p4c/corpus/basic_forward.p4');
    for (const [what, sent, received, pps, share] of await udpComparison(router, quick ? 20_000 : 200_000, progress)) {
      rows.push(['UDP wires', `${String(what)} (${String(received)}/${String(sent)} arrived)`, pps, '-', String(share), '70% of relay']);
    }
    const memoryRows = await memory(quick ? 10_000 : 100_000, quick ? 100_000 : 1_000_000, progress);
    return {
      title: 'Packet pipeline (packets/s) and memory',
      columns: ['where', 'program', 'p4ina pps', 'hand-written JS pps', 'p4ina / JS', 'target'],
      rows,
      notes: [
        'In process: packets per second of CPU time (process.cpuUsage), so other load on the machine does not count; frames injected into a SwitchDevice port whose output ports only count; one frame per route/slot, cycled; every frame must come out (checked). The hand-written JS does the same parse, checks, lookup, rewrite and checksum and copies the frame (the floor of what JS can do per packet).',
        'switchml.p4: p4/switchml.p4 (64 values per packet) with one job of 4 workers installed through DeviceState.write (switch address, jobs, workers, result_rewrite, multicast group 5 with worker_id as the instance); the 4 workers\' UPDATEs for 256 slots in turn, the epoch bumped on every pass, so every packet adds into a slot copy and every 4th completes it and leaves as a RESULT multicast to the 4 workers, rewritten per replica in egress (checked: as many frames out as in). No hand-written counterpart.',
        'UDP wires: this process sends a blast in bursts of 32 to the forwarder and counts what comes back; rate = arrivals / (last − first arrival). The relay is a separate Node process receiving on one socket and sending from another; the switch is `p4ina switch` with two UDP-wire ports, programmed over P4Runtime with the same 1,000 routes, once with `--udp-io batched` (the udp_batch addon: recvmmsg/sendmmsg with UDP GRO/GSO) and once with `--udp-io dgram` (Node\'s dgram). Share column = switch rate / relay rate.',
        ...memoryRows.map((r) => (r[2] === '-' ? `Memory: ${String(r[0])}: ${String(r[1])} MiB.` : `Memory: ${String(r[0])}: +${String(r[1])} MiB rss (~${String(r[2])} bytes/entry).`)),
        'Memory is rss growth in this process (after a GC when run with --expose-gc), entries inserted with DeviceState.write in batches of 10,000.',
      ],
    };
  },
};
