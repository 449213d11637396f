/**
 * P4RuntimeClient: one connection to one device, shaped after finsy. Entities
 * are built from names (see entities/), reads and stream messages are async
 * iterators, mastership changes are events, and the stream channel reconnects
 * with backoff by itself.
 *
 *   const client = new P4RuntimeClient({ address: '127.0.0.1:9559', deviceId: 0, electionId: 1n });
 *   client.on('primary', () => …);
 *   await client.connect();
 *   await client.setPipeline({ p4info, deviceConfig });
 *   await client.write([insert(table('ingress.l2', { dst_addr: 1 }, action('forward', { port: 2 })))]);
 *   for await (const e of client.read(table('ingress.l2'))) …;
 */
import { EventEmitter } from 'node:events';
import type * as grpc from '@grpc/grpc-js';
import { P4inaError } from '../errors/p4ina-error.js';
import { moduleLogger, type Logger } from '../log/logger.js';
import type * as p4i from '../proto/p4i.js';
import type * as p4r from '../proto/p4r.js';
import { P4Schema, type ValueInput } from '../p4info/index.js';
import { BoundedQueue } from './async-queue.js';
import { DEFAULT_RECONNECT } from './backoff.js';
import { createP4RuntimeStub } from './channel.js';
import type { DigestList } from './digest-list.js';
import { electionIdMessage, toElectionId, type ElectionIdInput } from './election-id.js';
import { decodeEntity, type Entity } from './entities/decode-entity.js';
import { isServiceError, P4RuntimeError, readErrorFrom, toP4RuntimeError } from './errors.js';
import { encodePacketOut, type PacketIn } from './packet-io.js';
import { decodePipelineConfig, pipelineConfigMessage, preparePipeline, type PipelineConfig, type PipelineResponseType, type SetPipelineInput } from './pipeline.js';
import type { P4RuntimeClientEvents, P4RuntimeClientOptions } from './client-options.js';
import { StreamChannel, type Arbitration } from './stream-channel.js';
import { StreamInbox, type IdleTimeoutNotification } from './stream-inbox.js';
import { encodeUpdate, type Update } from './update.js';
import { writeInBatches, type Atomicity } from './write-batch.js';

function listOf<T>(x: T | readonly T[]): readonly T[] {
  return Array.isArray(x) ? (x as readonly T[]) : [x as T];
}

export class P4RuntimeClient extends EventEmitter<P4RuntimeClientEvents> {
  readonly address: string;
  readonly deviceId: bigint;
  readonly role: string | undefined;
  private electionIdValue: bigint;
  private schemaValue: P4Schema | undefined;
  private arbitration: Arbitration | undefined;
  private state: 'idle' | 'connecting' | 'open' | 'closed' = 'idle';
  private readonly stub: p4r.P4RuntimeClient;
  private readonly stream: StreamChannel;
  private readonly log: Logger;
  private readonly rpcTimeoutMs: number;
  private readonly maxUpdatesPerWrite: number;
  private readonly inbox: StreamInbox;

  constructor(options: P4RuntimeClientOptions) {
    super();
    if (!options.address) throw new TypeError('P4RuntimeClient: address is required (host:port)');
    this.address = options.address;
    this.deviceId = BigInt(options.deviceId);
    if (this.deviceId < 0n) throw new RangeError(`P4RuntimeClient: deviceId must be >= 0, got ${this.deviceId}`);
    this.role = options.role || undefined;
    this.electionIdValue = toElectionId(options.electionId);
    this.log = options.logger ?? moduleLogger('p4runtime', { address: this.address, deviceId: this.deviceId.toString() });
    this.rpcTimeoutMs = options.rpcTimeoutMs ?? 60_000;
    this.maxUpdatesPerWrite = options.maxUpdatesPerWrite ?? 256;
    this.stub = createP4RuntimeStub(this.address, options.tls, options.channelOptions);
    this.inbox = new StreamInbox({
      schema: () => this.schemaValue,
      ackDigest: (digestId, listId) => this.stream.send({ digest_ack: { digest_id: digestId, list_id: listId } }),
      onError: (err) => this.reportError(err),
      log: this.log,
      queueLimit: options.queueLimit ?? 1024,
    });
    const identity = () => ({ deviceId: this.deviceId, role: this.role, electionId: this.electionIdValue });
    const streamOptions = { reconnect: options.reconnect ?? DEFAULT_RECONNECT, arbitrationTimeoutMs: options.arbitrationTimeoutMs ?? 10_000, log: this.log };
    this.stream = new StreamChannel(this.stub, identity, streamOptions, {
      arbitration: (r) => this.onArbitration(r),
      message: (m) => this.inbox.handle(m),
      disconnected: (e) => {
        this.arbitration = undefined;
        this.fire('disconnect', e);
      },
      reconnected: (attempt, r) => this.fire('reconnect', { attempt, primary: r.primary }),
      gaveUp: (e) => this.reportError(e),
    });
  }

  /** The schema in use: set by setPipeline(), getPipeline() or useP4Info(). */
  get schema(): P4Schema | undefined {
    return this.schemaValue;
  }

  get isPrimary(): boolean {
    return this.stream.connected && (this.arbitration?.primary ?? false);
  }

  get electionId(): bigint {
    return this.electionIdValue;
  }

  /** Opens the stream channel and arbitrates; resolves with the first answer. Rejects with a P4RuntimeError. */
  async connect(): Promise<{ primary: boolean }> {
    if (this.state !== 'idle') throw new Error(`P4RuntimeClient.connect: the client is already ${this.state}`);
    this.state = 'connecting';
    try {
      const result = await this.stream.open();
      this.state = 'open';
      return { primary: result.primary };
    } catch (err) {
      if (this.state === 'connecting') this.state = 'idle';
      throw err;
    }
  }

  /**
   * Changes this client's election id; when connected, arbitrates again and
   * resolves with the answer. If the switch refuses the id (INVALID_ARGUMENT:
   * another stream holds it) it ends the stream; the client then keeps its
   * previous id, so that reconnecting does not repeat the refused one.
   */
  async setElectionId(id: ElectionIdInput): Promise<{ primary: boolean }> {
    const previous = this.electionIdValue;
    this.electionIdValue = toElectionId(id);
    if (!this.stream.connected) return { primary: false };
    try {
      return { primary: (await this.stream.rearbitrate()).primary };
    } catch (err) {
      if (err instanceof P4RuntimeError && err.grpcCodeName === 'INVALID_ARGUMENT') this.electionIdValue = previous;
      throw err;
    }
  }

  /** Uses this P4Info for names without pushing anything (e.g. a backup controller). */
  useP4Info(p4info: p4i.P4Info | P4Schema): P4Schema {
    this.schemaValue = p4info instanceof P4Schema ? p4info : new P4Schema(preparePipeline({ p4info, action: 'VERIFY' }).p4info!);
    return this.schemaValue;
  }

  /**
   * Pushes a pipeline (default VERIFY_AND_COMMIT). Unless `force`, asks for the
   * switch's cookie first and skips the push when it matches.
   */
  async setPipeline(input: SetPipelineInput): Promise<{ pushed: boolean; cookie: bigint | undefined }> {
    const prepared = preparePipeline(input);
    const schema = prepared.p4info ? new P4Schema(prepared.p4info) : undefined; // checks the P4Info before sending it
    const commits = prepared.action === 'VERIFY_AND_COMMIT' || prepared.action === 'RECONCILE_AND_COMMIT';
    if (!input.force && commits && prepared.cookie !== undefined) {
      const current = await this.fetchPipeline('COOKIE_ONLY').catch((err: unknown) => {
        if (!(err instanceof P4inaError)) throw err;
        this.log.debug({ err: err.message }, 'no cookie from the switch; pushing the pipeline');
        return undefined;
      });
      if (current?.cookie === prepared.cookie) {
        this.log.info({ cookie: prepared.cookie.toString() }, 'switch already runs this pipeline; not pushing it');
        this.schemaValue = schema;
        return { pushed: false, cookie: prepared.cookie };
      }
    }
    const request: p4r.SetForwardingPipelineConfigRequest = { ...this.writer(), action: prepared.action, config: pipelineConfigMessage(prepared) };
    await this.unary('SetForwardingPipelineConfig', (cb) => this.stub.SetForwardingPipelineConfig(request, this.callOptions(), cb));
    if (schema && prepared.action !== 'VERIFY') this.schemaValue = schema;
    return { pushed: true, cookie: prepared.cookie };
  }

  /** Reads the switch's pipeline; when it includes a P4Info, that becomes the schema in use. */
  async getPipeline(responseType: PipelineResponseType = 'ALL'): Promise<PipelineConfig> {
    const config = await this.fetchPipeline(responseType);
    if (config.p4info) this.schemaValue = new P4Schema(config.p4info);
    return config;
  }

  /** Writes updates (any number); throws P4WriteError naming each failed update, before sending if one cannot be encoded. */
  async write(updates: Update | readonly Update[], options: { atomicity?: Atomicity } = {}): Promise<void> {
    const list = listOf(updates);
    if (!list.length) return;
    const schema = this.requireSchema();
    const encoded = list.map((u, i) => encodeUpdate(u, schema, i));
    await writeInBatches(list, encoded, options.atomicity ?? 'CONTINUE_ON_ERROR', this.maxUpdatesPerWrite, (batch, atomicity) => {
      const request: p4r.WriteRequest = { ...this.writer(), updates: batch, atomicity };
      return this.unary('Write', (cb) => this.stub.Write(request, this.callOptions(), cb), (err) => err).then(() => undefined);
    });
  }

  /** Reads entities (wildcards allowed); yields decoded entities of the kinds asked for. Encoding errors throw here. */
  read<E extends Entity>(query: E | readonly E[]): AsyncIterableIterator<E> {
    this.assertUsable();
    const schema = this.requireSchema();
    const list = listOf(query);
    const request: p4r.ReadRequest = { device_id: this.deviceId.toString(), role: this.role ?? '', entities: list.map((e) => e.encode(schema, 'read')) };
    return this.readEncoded<E>(request, schema, list);
  }

  /** read() gathered into an array. */
  async readAll<E extends Entity>(query: E | readonly E[]): Promise<E[]> {
    const out: E[] = [];
    for await (const e of this.read(query)) out.push(e);
    return out;
  }

  async capabilities(): Promise<{ apiVersion: string }> {
    const response = await this.unary<p4r.CapabilitiesResponse__Output>('Capabilities', (cb) =>
      this.stub.Capabilities({ device_id: this.deviceId.toString() }, this.callOptions(), cb),
    );
    return { apiVersion: response.p4runtime_api_version };
  }

  /** Sends a packet to the switch's CPU port with packet_out metadata by name; resolves once gRPC has taken it. */
  async packetOut(payload: Uint8Array, metadata: Readonly<Record<string, ValueInput>> = {}): Promise<void> {
    const packet = encodePacketOut(payload, metadata, this.schemaValue);
    this.log.trace({ bytes: payload.length }, 'packet out');
    await this.stream.send({ packet });
  }

  /** PacketIns from now on, until close() or the loop ends. Holds `limit` packets, then drops the oldest (see `.dropped`). */
  packets(options: { limit?: number } = {}): BoundedQueue<PacketIn> {
    return this.inbox.packets(options.limit);
  }

  /** Digest lists from now on; call `ack()` on each. Bounded like packets(). */
  digests(options: { limit?: number } = {}): BoundedQueue<DigestList> {
    return this.inbox.digests(options.limit);
  }

  /** Idle-timeout notifications from now on. Bounded like packets(). */
  idleTimeouts(options: { limit?: number } = {}): BoundedQueue<IdleTimeoutNotification> {
    return this.inbox.idleTimeouts(options.limit);
  }

  /** Stream messages that arrived while no iterator of their kind was open (they are not kept). */
  get unclaimed(): Readonly<Record<'packets' | 'digests' | 'idleTimeouts', number>> {
    return this.inbox.unclaimed;
  }

  /** Ends the stream, ends every iterator and closes the channel. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stream.close();
    this.inbox.close();
    this.arbitration = undefined;
    this.stub.close();
  }

  private async *readEncoded<E extends Entity>(request: p4r.ReadRequest, schema: P4Schema, query: readonly E[]): AsyncGenerator<E, void, undefined> {
    const kinds = new Set(query.map((e) => e.kind));
    const call = this.stub.Read(request, this.callOptions());
    try {
      for await (const response of call as AsyncIterable<p4r.ReadResponse__Output>) {
        for (const msg of response.entities) {
          const entity = decodeEntity(msg, schema);
          if (!kinds.has(entity.kind)) throw new P4inaError('P4RUNTIME_UNEXPECTED_ENTITY', `Read asked for ${[...kinds].join(', ')} but the switch sent a ${entity.kind}`);
          yield entity as E;
        }
      }
    } catch (err) {
      throw isServiceError(err) ? readErrorFrom(err, query) : err;
    } finally {
      call.cancel(); // a no-op after the last message; stops the server when the caller leaves early
    }
  }

  private fetchPipeline(responseType: PipelineResponseType): Promise<PipelineConfig> {
    const request = { device_id: this.deviceId.toString(), response_type: responseType };
    return this.unary<p4r.GetForwardingPipelineConfigResponse__Output>('GetForwardingPipelineConfig', (cb) =>
      this.stub.GetForwardingPipelineConfig(request, this.callOptions(), cb),
    ).then(decodePipelineConfig);
  }

  /** The fields that identify a writer: device, role and election id. */
  private writer(): { device_id: string; role: string; election_id: p4r.Uint128 } {
    return { device_id: this.deviceId.toString(), role: this.role ?? '', election_id: electionIdMessage(this.electionIdValue) };
  }

  private callOptions(): grpc.CallOptions {
    return { deadline: Date.now() + this.rpcTimeoutMs };
  }

  private unary<T>(rpc: string, start: (cb: grpc.requestCallback<T>) => void, mapError: (err: unknown) => unknown = (err) => toP4RuntimeError(rpc, err)): Promise<T> {
    this.assertUsable();
    return new Promise((resolve, reject) => {
      start((err, response) => (err ? reject(mapError(err)) : response ? resolve(response) : reject(toP4RuntimeError(rpc, new Error('empty response')))));
    });
  }

  private assertUsable(): void {
    if (this.state === 'closed') throw new P4inaError('P4RUNTIME_CLOSED', 'the client is closed');
  }

  private requireSchema(): P4Schema {
    if (!this.schemaValue) throw new P4inaError('P4RUNTIME_NO_P4INFO', 'no P4Info loaded: call setPipeline(), getPipeline() or useP4Info() first');
    return this.schemaValue;
  }

  private onArbitration(result: Arbitration): void {
    const previous = this.arbitration;
    this.arbitration = result;
    if (result.primary) {
      if (!previous?.primary) this.fire('primary', result);
    } else if (!previous || previous.primary || previous.primaryElectionId !== result.primaryElectionId) {
      this.fire('backup', result);
    }
  }

  private reportError(err: Error): void {
    if (this.listenerCount('error') > 0) this.fire('error', err);
    else this.log.warn({ err: err.message }, 'P4Runtime client error (no error listener)');
  }

  /** Emits an event; a listener that throws is logged, never thrown into gRPC's callbacks. */
  private fire<K extends keyof P4RuntimeClientEvents>(event: K, ...args: P4RuntimeClientEvents[K]): void {
    try {
      (this.emit as (event: K, ...a: P4RuntimeClientEvents[K]) => boolean)(event, ...args);
    } catch (err) {
      this.log.error({ err: err instanceof Error ? err.message : String(err), event }, 'a P4RuntimeClient event listener threw');
    }
  }
}
