/**
 * A P4Runtime writer as a new user would write one from the protos alone:
 * `@grpc/proto-loader` with the options of grpc's own examples, requests as
 * plain objects (bytes as Buffers, a oneof by setting its member), ids read
 * from the P4Info JSON. Nothing here comes from p4ina's client library or
 * codecs (no import from src/), so the server is measured with a client that
 * is not ours: its costs are whatever grpc-js and protobufjs make of such
 * objects.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The protos this repository vendors, found from dist/bench/ (where the benchmarks run) or bench/. */
function protoDir(): string {
  const fromDist = fileURLToPath(new URL('../../proto', import.meta.url));
  try {
    readFileSync(`${fromDist}/p4/v1/p4runtime.proto`);
    return fromDist;
  } catch {
    return fileURLToPath(new URL('../proto', import.meta.url));
  }
}

interface Uint64 {
  high: number;
  low: number;
}

interface StreamMessage {
  arbitration?: { status?: { code: number; message: string } };
}

/** The slice of the generated service a writer uses. */
interface P4RuntimeStub extends grpc.Client {
  StreamChannel(): grpc.ClientDuplexStream<object, StreamMessage>;
  Write(request: object, callback: (err: grpc.ServiceError | null) => void): grpc.ClientUnaryCall;
}

type StubConstructor = new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => P4RuntimeStub;

/** The ids a writer looks up in P4Info JSON (protobuf's JSON mapping: camelCase names). */
export interface LpmTableIds {
  tableId: number;
  fieldId: number;
  actionId: number;
  paramIds: number[];
}

interface JsonPreamble {
  preamble: { id: number; name: string };
}

/** Ids of `table` (one LPM field) and `action` from a P4Info JSON file. */
export function idsFromP4InfoJson(path: string, table: string, action: string): LpmTableIds {
  const p4info = JSON.parse(readFileSync(path, 'utf8')) as {
    tables: (JsonPreamble & { matchFields: { id: number; matchType: string }[] })[];
    actions: (JsonPreamble & { params?: { id: number }[] })[];
  };
  const t = p4info.tables.find((x) => x.preamble.name === table);
  const a = p4info.actions.find((x) => x.preamble.name === action);
  const lpm = t?.matchFields.find((f) => f.matchType === 'LPM');
  if (!t || !a || !lpm) throw new Error(`${path}: no table ${table} with an LPM field, or no action ${action}`);
  return { tableId: t.preamble.id, fieldId: lpm.id, actionId: a.preamble.id, paramIds: (a.params ?? []).map((p) => p.id) };
}

export class ProtoLoaderWriter {
  private readonly stub: P4RuntimeStub;
  private stream: grpc.ClientDuplexStream<object, StreamMessage> | undefined;
  private readonly electionId: Uint64;

  constructor(address: string, electionLow: number) {
    const definition = protoLoader.loadSync('p4/v1/p4runtime.proto', {
      keepCase: true,
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
      includeDirs: [protoDir()],
    });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { p4: { v1: { P4Runtime: StubConstructor } } };
    this.stub = new loaded.p4.v1.P4Runtime(address, grpc.credentials.createInsecure());
    this.electionId = { high: 0, low: electionLow };
  }

  /** Opens the stream and waits until the switch answers the arbitration (this writer must be primary). */
  async becomePrimary(): Promise<void> {
    const stream = this.stub.StreamChannel();
    this.stream = stream;
    stream.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      stream.once('data', (msg: StreamMessage) => {
        const code = msg.arbitration?.status?.code;
        if (code === 0) resolve();
        else reject(new Error(`not primary: ${msg.arbitration?.status?.message ?? 'no arbitration answer'}`));
      });
      stream.once('error', reject);
      stream.write({ arbitration: { device_id: 0, election_id: this.electionId } });
    });
  }

  /** One Write of `updates` plain Update objects; resolves when the switch has answered OK. */
  write(updates: object[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stub.Write({ device_id: 0, election_id: this.electionId, updates }, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(): void {
    this.stream?.end();
    this.stub.close();
  }
}

/** The INSERT of route `i`: 10.x.y.0/24 → forward(dstAddr, port), as plain proto-loader objects. */
export function lpmInsert(ids: LpmTableIds, i: number): object {
  const prefix = Buffer.from([10 + (i >> 16), (i >> 8) & 255, i & 255, 0]);
  const mac = Buffer.from([0x02, 0, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255]);
  const port = Buffer.from([1 + (i % 8)]);
  return {
    type: 'INSERT',
    entity: {
      table_entry: {
        table_id: ids.tableId,
        match: [{ field_id: ids.fieldId, lpm: { value: prefix, prefix_len: 24 } }],
        action: { action: { action_id: ids.actionId, params: [{ param_id: ids.paramIds[0], value: mac }, { param_id: ids.paramIds[1], value: port }] } },
      },
    },
  };
}
