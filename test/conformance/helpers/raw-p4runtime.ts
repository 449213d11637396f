// A bare grpc-js P4Runtime stub, for requests that P4RuntimeClient refuses to
// build (it validates before sending) and for looking at the server's exact
// answers: unary calls reject with a RawRpcError holding the gRPC code and the
// per-item p4.v1.Errors of grpc-status-details-bin; reads resolve with every
// entity of every response. Every call has a deadline.
import * as grpc from '@grpc/grpc-js';
import { decodeStatusDetails, grpcCodeName } from '../../../src/p4runtime/errors.js';
import { p4RuntimeGrpc } from '../../../src/proto/load.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { WAIT_MS } from './wait.js';

type Stub = InstanceType<ReturnType<typeof p4RuntimeGrpc>['p4']['v1']['P4Runtime']>;
type StreamMessage = p4r.StreamMessageResponse__Output;

/** A failed call as the server answered it. */
export class RawRpcError extends Error {
  readonly codeName: string;

  constructor(
    readonly code: number,
    readonly details: string,
    /** One p4.v1.Error per item of the batch, when the server sent them. */
    readonly errors: p4r.Error__Output[] | undefined,
  ) {
    super(`${grpcCodeName(code)}: ${details}`);
    this.codeName = grpcCodeName(code);
  }

  /** The code names of the per-item errors ("OK" for items that succeeded). */
  get itemCodes(): string[] | undefined {
    return this.errors?.map((e) => grpcCodeName(e.canonical_code));
  }
}

function rawError(err: grpc.ServiceError): RawRpcError {
  const [raw] = err.metadata?.get('grpc-status-details-bin') ?? [];
  return new RawRpcError(err.code, err.details, Buffer.isBuffer(raw) ? decodeStatusDetails(raw) : undefined);
}

export interface WriterIdentity {
  electionId?: bigint;
  deviceId?: number | bigint;
  role?: string;
}

export class RawP4Runtime {
  private readonly stub: Stub;
  private readonly streams: RawStream[] = [];

  constructor(
    address: string,
    private readonly deviceId: number,
  ) {
    const Client = p4RuntimeGrpc().p4.v1.P4Runtime;
    this.stub = new Client(address, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 });
  }

  /** A Write of these updates as the writer `who` (the primary's election id, usually). */
  write(updates: p4r.Update[], who: WriterIdentity, atomicity: p4r.WriteRequest['atomicity'] = 'CONTINUE_ON_ERROR'): Promise<void> {
    return this.unary<p4r.WriteResponse__Output>('Write', { ...this.writer(who), updates, atomicity }).then(() => undefined);
  }

  /** Every entity the switch returns for these read entities. */
  read(entities: p4r.Entity[], deviceId: number | bigint = this.deviceId): Promise<p4r.Entity__Output[]> {
    return new Promise((resolve, reject) => {
      const out: p4r.Entity__Output[] = [];
      const call = this.stub.Read({ device_id: String(deviceId), entities }, { deadline: Date.now() + WAIT_MS });
      call.on('data', (r: p4r.ReadResponse__Output) => out.push(...r.entities));
      call.on('error', (err: grpc.ServiceError) => reject(rawError(err)));
      call.on('end', () => resolve(out));
    });
  }

  setPipeline(request: Omit<p4r.SetForwardingPipelineConfigRequest, 'device_id' | 'election_id'>, who: WriterIdentity): Promise<void> {
    return this.unary('SetForwardingPipelineConfig', { ...this.writer(who), ...request }).then(() => undefined);
  }

  getPipeline(responseType: string, deviceId: number | bigint = this.deviceId): Promise<p4r.GetForwardingPipelineConfigResponse__Output> {
    return this.unary('GetForwardingPipelineConfig', { device_id: String(deviceId), response_type: responseType });
  }

  capabilities(): Promise<p4r.CapabilitiesResponse__Output> {
    return this.unary('Capabilities', {});
  }

  /** A StreamChannel of its own, closed with the stub. */
  stream(): RawStream {
    const s = new RawStream(this.stub.StreamChannel(), this.deviceId);
    this.streams.push(s);
    return s;
  }

  close(): void {
    for (const s of this.streams) s.close();
    this.stub.close();
  }

  private writer(who: WriterIdentity): { device_id: string; role: string; election_id: p4r.Uint128 | null } {
    const id = who.electionId;
    return {
      device_id: String(who.deviceId ?? this.deviceId),
      role: who.role ?? '',
      election_id: id === undefined ? null : { high: String(id >> 64n), low: String(id & ((1n << 64n) - 1n)) },
    };
  }

  private unary<T>(method: 'Write' | 'SetForwardingPipelineConfig' | 'GetForwardingPipelineConfig' | 'Capabilities', request: object): Promise<T> {
    return new Promise((resolve, reject) => {
      const fn = this.stub[method].bind(this.stub) as unknown as (r: object, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v?: T) => void) => void;
      fn(request, { deadline: Date.now() + WAIT_MS }, (err, value) => (err ? reject(rawError(err)) : resolve(value as T)));
    });
  }
}

/** One StreamChannel driven by hand: what the server sends is queued and read with a deadline. */
export class RawStream {
  /** Resolves with the final status of the call. */
  readonly status: Promise<grpc.StatusObject>;
  private readonly received: StreamMessage[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(
    private readonly call: grpc.ClientDuplexStream<p4r.StreamMessageRequest, StreamMessage>,
    private readonly deviceId: number,
  ) {
    call.on('data', (m: StreamMessage) => {
      this.received.push(m);
      this.wake?.();
    });
    call.on('error', () => undefined); // the 'status' event carries it
    this.status = new Promise((resolve) =>
      call.on('status', (s: grpc.StatusObject) => {
        this.ended = true;
        this.wake?.();
        resolve(s);
      }),
    );
  }

  send(message: p4r.StreamMessageRequest): void {
    this.call.write(message);
  }

  arbitrate(electionId: bigint | undefined, options: { deviceId?: number | bigint; role?: string } = {}): void {
    this.send({
      arbitration: {
        device_id: String(options.deviceId ?? this.deviceId),
        election_id: electionId === undefined ? null : { high: '0', low: electionId.toString() },
        ...(options.role ? { role: { name: options.role } } : {}),
      },
    });
  }

  /** The next message from the server; throws if none comes in time or the stream ends first. */
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

  /** Half-closes the stream: the server ends it in turn, so `status` resolves once the server has let it go. */
  end(): void {
    this.call.end();
  }

  close(): void {
    if (!this.ended) this.call.cancel();
  }
}
