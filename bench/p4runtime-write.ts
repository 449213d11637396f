/**
 * Table-entry inserts over P4Runtime at batch sizes 1, 100 and 1,000, one
 * Write outstanding at a time, side by side:
 *  - our client → our switch (`p4ina switch --no-p4`, a separate process);
 *  - a bare grpc-js stub sending pre-built requests → our switch (what the switch alone sustains);
 *  - our client → a server that does no work (what the client and gRPC alone sustain).
 * Each run starts from an empty table (the pipeline is pushed again).
 */
import * as grpc from '@grpc/grpc-js';
import { fileURLToPath } from 'node:url';
import { action, insert, P4RuntimeClient, table } from '../src/p4runtime/index.js';
import { P4Schema } from '../src/p4info/index.js';
import { p4RuntimeGrpc } from '../src/proto/load.js';
import type * as p4r from '../src/proto/p4r.js';
import type { Cell } from '../src/report/table.js';
import { BENCH_ACTION, BENCH_KEY, BENCH_TABLE, benchP4Info } from './bench-p4info.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const BATCHES = [1, 100, 1000];
const dist = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

function entriesFor(batch: number, quick: boolean): number {
  if (batch === 1) return quick ? 500 : 5_000;
  return quick ? 10_000 : 100_000;
}

const update = (i: number) => insert(table(BENCH_TABLE, { [BENCH_KEY]: i }, action(BENCH_ACTION, { port: i % 511 })));

async function timeBatches(total: number, batch: number, send: (start: number, count: number) => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let start = 0; start < total; start += batch) await send(start, Math.min(batch, total - start));
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function viaClient(address: string, electionId: bigint, total: number, batch: number, withPipeline: boolean): Promise<number> {
  const p4info = benchP4Info(4 * 1024 * 1024);
  const client = new P4RuntimeClient({ address, deviceId: 0, electionId, reconnect: false, maxUpdatesPerWrite: 1_000_000 });
  try {
    await client.connect();
    if (withPipeline) await client.setPipeline({ p4info, deviceConfig: Buffer.alloc(0), force: true });
    else client.useP4Info(p4info);
    return await timeBatches(total, batch, (start, count) => client.write(Array.from({ length: count }, (_, k) => update(start + k))));
  } finally {
    await client.close();
  }
}

/** A bare grpc-js stub: arbitration by hand, then Writes built before the clock starts. */
async function viaStub(address: string, electionId: bigint, total: number, batch: number): Promise<number> {
  const P4Runtime = p4RuntimeGrpc().p4.v1.P4Runtime;
  const stub = new P4Runtime(address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 256 * 1024 * 1024 });
  const election = { high: '0', low: electionId.toString() };
  const stream = stub.StreamChannel();
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('data', () => resolve());
      stream.once('error', reject);
      stream.write({ arbitration: { device_id: '0', election_id: election } });
    });
    const schema = new P4Schema(benchP4Info(4 * 1024 * 1024));
    const config = { p4info: schema.p4info, p4_device_config: Buffer.alloc(0) };
    await new Promise<void>((resolve, reject) =>
      stub.SetForwardingPipelineConfig({ device_id: '0', election_id: election, action: 'VERIFY_AND_COMMIT', config }, (err) => (err ? reject(err) : resolve())),
    );
    const requests: p4r.WriteRequest[] = [];
    for (let start = 0; start < total; start += batch) {
      const count = Math.min(batch, total - start);
      const updates = Array.from({ length: count }, (_, k) => ({ type: 'INSERT' as const, entity: update(start + k).entity.encode(schema) }));
      requests.push({ device_id: '0', election_id: election, updates });
    }
    let next = 0;
    return await timeBatches(total, batch, () => new Promise<void>((resolve, reject) => stub.Write(requests[next++]!, (err) => (err ? reject(err) : resolve()))));
  } finally {
    stream.end();
    stub.close();
  }
}

export const p4runtimeWrite: Benchmark = {
  name: 'p4runtime-write',
  summary: 'table-entry inserts/s over P4Runtime at batch 1, 100, 1000 (client → switch, stub → switch, client → null server)',
  async run({ quick, progress }): Promise<BenchResult> {
    const rows: Cell[][] = [];
    let electionId = 1n;
    const servers: ServerProcess[] = [];
    try {
      // The 4M-entry table is estimated at ~1.1 GiB, over the default budget; entries are only made as inserted.
      const sw = await spawnServer(
        [dist('../src/cli/main.js'), 'switch', '--no-p4', '--pipeline-memory-budget', '2GiB', '--', '--grpc-server-addr', '127.0.0.1:0'],
        /127\.0\.0\.1:(\d+)/,
      );
      servers.push(sw);
      const nul = await spawnServer([dist('./null-p4runtime-server.js')], /127\.0\.0\.1:(\d+)/);
      servers.push(nul);
      for (const batch of BATCHES) {
        const total = entriesFor(batch, quick);
        const row: Cell[] = [batch, total];
        progress(`batch ${batch}: our client → our switch`);
        const a = await viaClient(`127.0.0.1:${sw.port}`, electionId++, total, batch, true);
        progress(`batch ${batch}: grpc-js stub → our switch`);
        const b = await viaStub(`127.0.0.1:${sw.port}`, electionId++, total, batch);
        progress(`batch ${batch}: our client → null server`);
        const c = await viaClient(`127.0.0.1:${nul.port}`, electionId++, total, batch, false);
        row.push(Math.round(total / a), Math.round(total / b), Math.round(total / c));
        rows.push(row);
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    return {
      title: 'P4Runtime table-entry inserts (entries/s)',
      columns: ['batch', 'entries', 'client→switch', 'stub→switch', 'client→null'],
      rows,
      notes: [
        'One Write outstanding at a time; client and switch in separate processes on 127.0.0.1; every run starts from an empty 4M-entry exact table.',
        'client→switch is what a controller using src/p4runtime gets; stub→switch sends pre-built requests (the switch side alone); client→null sends to a server that does no work (the client side alone).',
        'Target (issue #2): at least 50,000 entries/s at batch 1,000. Published figures elsewhere: ~107,000/s (IPDK), ~17,000/s (Stratum).',
      ],
    };
  },
};
