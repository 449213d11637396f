// Test harness for the P4Runtime server: a server on an ephemeral 127.0.0.1 port,
// grpc-js's generated client, stream probes that queue what the server sends, and
// helpers to decode per-update errors. Every wait is bounded so a bug fails a test
// instead of hanging it.
import * as grpc from '@grpc/grpc-js';
import { decodeMessage, unpackAny } from '../../../src/proto/codec.js';
import { p4RuntimeGrpc } from '../../../src/proto/load.js';
import type * as p4i from '../../../src/proto/p4i.js';
import type * as p4r from '../../../src/proto/p4r.js';
import type * as rpc from '../../../src/proto/rpc.js';
import type { PacketIoPort } from '../../../src/switch/ports/packet-io-port.js';
import { P4RuntimeServer, type ServerLimits, type TlsOptions } from '../../../src/switch/runtime/server.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';

export const WAIT_MS = 5000;

type Client = InstanceType<ReturnType<typeof p4RuntimeGrpc>['p4']['v1']['P4Runtime']>;
type StreamMessage = p4r.StreamMessageResponse__Output;

/** Records PacketOuts handed to the data plane. */
export class RecordingPacketIo implements PacketIoPort {
  readonly packets: { payload: Buffer; metadata: Map<string, Buffer> }[] = [];
  private waiter: (() => void) | undefined;

  injectPacketOut(payload: Buffer, metadata: ReadonlyMap<string, Buffer>): void {
    this.packets.push({ payload, metadata: new Map(metadata) });
    this.waiter?.();
  }

  /** Resolves when `count` packets have arrived. */
  async waitFor(count: number): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (this.packets.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} PacketOuts, got ${this.packets.length}`);
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 50);
      });
    }
  }
}

/** One StreamChannel call seen from the client. */
export class StreamProbe {
  readonly call: grpc.ClientDuplexStream<p4r.StreamMessageRequest, StreamMessage>;
  /** Resolves with the call's final status. */
  readonly status: Promise<grpc.StatusObject>;
  private readonly received: StreamMessage[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(client: Client) {
    this.call = client.StreamChannel();
    this.call.on('data', (m: StreamMessage) => {
      this.received.push(m);
      this.wake?.();
    });
    this.call.on('error', () => undefined); // the status event carries it
    this.status = new Promise((resolve) =>
      this.call.on('status', (s: grpc.StatusObject) => {
        this.ended = true;
        this.wake?.();
        resolve(s);
      }),
    );
  }

  send(message: p4r.StreamMessageRequest): void {
    this.call.write(message);
  }

  arbitrate(electionId: bigint | undefined, options: { deviceId?: number; role?: string } = {}): void {
    this.send({
      arbitration: {
        device_id: options.deviceId ?? DEVICE_ID,
        election_id: electionId === undefined ? null : { high: '0', low: electionId.toString() },
        ...(options.role ? { role: { name: options.role } } : {}),
      },
    });
  }

  /** The next message the server sent; fails after WAIT_MS or if the stream ended. */
  async next(): Promise<StreamMessage> {
    const deadline = Date.now() + WAIT_MS;
    while (this.received.length === 0) {
      if (this.ended) throw new Error('the stream ended before another message arrived');
      if (Date.now() > deadline) throw new Error('no stream message arrived in time');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return this.received.shift()!;
  }

  /** The next message, which must be an arbitration update; returns [status code, election id low]. */
  async nextArbitration(): Promise<[number, string | undefined]> {
    const m = await this.next();
    if (m.update !== 'arbitration') throw new Error(`expected an arbitration update, got ${m.update}`);
    return [m.arbitration!.status!.code, m.arbitration!.election_id?.low];
  }

  close(): void {
    if (!this.ended) this.call.cancel();
  }
}

export const DEVICE_ID = 1;

export interface Harness {
  server: P4RuntimeServer;
  state: DeviceState;
  port: number;
  client: Client;
  packetIo: RecordingPacketIo;
  stream(): StreamProbe;
  close(): Promise<void>;
}

export async function startHarness(
  options: { tls?: TlsOptions; limits?: Partial<ServerLimits>; clientCredentials?: grpc.ChannelCredentials; deviceId?: number } = {},
): Promise<Harness> {
  const state = new DeviceState();
  const packetIo = new RecordingPacketIo();
  const server = new P4RuntimeServer({ deviceId: options.deviceId ?? DEVICE_ID, state, packetIo, ...(options.limits ? { limits: options.limits } : {}) });
  const { port } = await server.start({ address: '127.0.0.1:0', ...(options.tls ? { tls: options.tls } : {}) });
  const Client = p4RuntimeGrpc().p4.v1.P4Runtime;
  const client = new Client(`127.0.0.1:${port}`, options.clientCredentials ?? grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
  });
  const probes: StreamProbe[] = [];
  return {
    server,
    state,
    port,
    client,
    packetIo,
    stream() {
      const probe = new StreamProbe(client);
      probes.push(probe);
      return probe;
    },
    async close() {
      for (const p of probes) p.close();
      client.close();
      await server.stop();
    },
  };
}

/** Calls a unary RPC; rejects with the grpc ServiceError. */
export function unary<Req, Res>(client: Client, method: 'Capabilities' | 'Write' | 'SetForwardingPipelineConfig' | 'GetForwardingPipelineConfig', request: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    const fn = client[method].bind(client) as unknown as (r: Req, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v?: Res) => void) => void;
    fn(request, { deadline: Date.now() + WAIT_MS }, (err, value) => (err ? reject(err) : resolve(value as Res)));
  });
}

/** Reads; resolves with the responses (not flattened) or rejects with the ServiceError. */
export function read(client: Client, request: p4r.ReadRequest): Promise<p4r.ReadResponse__Output[]> {
  return new Promise((resolve, reject) => {
    const responses: p4r.ReadResponse__Output[] = [];
    const call = client.Read(request, { deadline: Date.now() + WAIT_MS });
    call.on('data', (r: p4r.ReadResponse__Output) => responses.push(r));
    call.on('error', reject);
    call.on('end', () => resolve(responses));
  });
}

/** The p4.v1.Errors of a failed batch, from grpc-status-details-bin. */
export function batchErrors(err: grpc.ServiceError): p4r.Error__Output[] {
  const [raw] = err.metadata.get('grpc-status-details-bin');
  if (!Buffer.isBuffer(raw)) throw new Error('no grpc-status-details-bin trailer');
  const status = decodeMessage<rpc.Status__Output>('google.rpc.Status', raw);
  return status.details.map((any) => {
    const e = unpackAny<p4r.Error__Output>('p4.v1.Error', any);
    if (!e) throw new Error(`detail of type ${any.type_url}, not p4.v1.Error`);
    return e;
  });
}

export const electionId = (low: bigint): p4r.Uint128 => ({ high: '0', low: low.toString() });

/** SetForwardingPipelineConfig as the primary with `id`. */
export function pushPipeline(
  client: Client,
  id: bigint | undefined,
  p4info: p4i.P4Info__Output | null,
  options: { action?: string; cookie?: string; deviceConfig?: Buffer; deviceId?: number } = {},
): Promise<p4r.SetForwardingPipelineConfigResponse__Output> {
  return unary(client, 'SetForwardingPipelineConfig', {
    device_id: options.deviceId ?? DEVICE_ID,
    election_id: id === undefined ? null : electionId(id),
    action: options.action ?? 'VERIFY_AND_COMMIT',
    config: p4info
      ? { p4info, p4_device_config: options.deviceConfig ?? Buffer.from('{}'), ...(options.cookie ? { cookie: { cookie: options.cookie } } : {}) }
      : null,
  });
}

/** A stream that has become primary with `id` (its OK notice consumed). */
export async function primaryStream(h: Harness, id: bigint): Promise<StreamProbe> {
  const s = h.stream();
  s.arbitrate(id);
  const [code] = await s.nextArbitration();
  if (code !== grpc.status.OK) throw new Error(`stream with election id ${id} did not become primary (code ${code})`);
  return s;
}
