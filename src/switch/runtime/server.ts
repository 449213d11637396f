/**
 * The switch's P4Runtime gRPC server: binds the P4Runtime service to a device
 * state, runs arbitration over the StreamChannel calls, and carries PacketIns
 * digests and idle-timeout notifications from the data plane to the primary
 * controller.
 *
 * One server serves one device id (0 is accepted, as BMv2 defaults to it).
 * Message limits are raised to 256 MiB because P4Info and device configs can
 * be tens of MB; a handler that throws answers INTERNAL, never crashes.
 */
import * as grpc from '@grpc/grpc-js';
import { P4inaError } from '../../errors/p4ina-error.js';
import { type Logger, moduleLogger } from '../../log/logger.js';
import { p4RuntimeGrpc } from '../../proto/load.js';
import type * as p4r from '../../proto/p4r.js';
import { writeRequestDeserializer } from '../../proto/write-request-decoder.js';
import type { PacketIoPort } from '../ports/packet-io-port.js';
import type { DeviceState } from '../state/device-state.js';
import { Arbitrator } from './arbitration.js';
import { DigestBatcher, type DigestOutcome } from './digest-batcher.js';
import { DiscardingPacketIo } from './discarding-packet-io.js';
import { DEFAULT_MAX_ERROR_DETAILS_BYTES, fail, type GrpcFailure } from './grpc-failure.js';
import { IdleTimeoutNotifier, type IdleTimer } from './idle-timeout-notifier.js';
import { buildPacketIn } from './packet-in.js';
import { planRead, type ReadCall, streamRead } from './read-rpc.js';
import { notifiedOf, receivesPackets } from './role-config.js';
import { type StreamArbitrator, type StreamCall, StreamChannel, type StreamLimits } from './stream-channel.js';
import * as unary from './unary-rpcs.js';

export interface ServerLimits extends StreamLimits {
  /** Largest message received or sent, in bytes. */
  maxMessageBytes: number;
  /** Entities per ReadResponse. */
  readChunkEntities: number;
  /** Entities (selectors) one ReadRequest may name; more → RESOURCE_EXHAUSTED. */
  maxReadEntities: number;
  /** Read RPCs streaming at once, all clients together; more → RESOURCE_EXHAUSTED. */
  maxReadsInFlight: number;
  /** Live StreamChannel calls per role. */
  maxStreamsPerRole: number;
  /** Open StreamChannel calls in all, arbitrated or not. */
  maxStreams: number;
  /** How long stop() waits for calls to finish before closing connections. */
  stopGraceMs: number;
  /** Largest grpc-status-details-bin for per-update errors; see grpc-failure.ts. */
  maxErrorDetailsBytes: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxMessageBytes: 256 * 1024 * 1024,
  readChunkEntities: 512,
  maxReadEntities: 10_000,
  maxReadsInFlight: 16,
  maxStreamsPerRole: 32,
  maxStreams: 1024,
  softQueue: 1024,
  hardQueue: 4096,
  stopGraceMs: 2000,
  maxErrorDetailsBytes: DEFAULT_MAX_ERROR_DETAILS_BYTES,
};

export interface P4RuntimeServerOptions {
  deviceId: number | bigint;
  state: DeviceState;
  /** Where valid PacketOuts go; by default they are counted and dropped. */
  packetIo?: PacketIoPort;
  logger?: Logger;
  limits?: Partial<ServerLimits>;
  /**
   * The timer of idle-timeout scans; its clock must be the DeviceState's (`clock` option), which
   * stamps the hits. Default: real time, scanning every 100 ms.
   */
  idleTimer?: IdleTimer;
  idleScanMs?: number;
}

export interface TlsOptions {
  cert: Buffer;
  key: Buffer;
  /** CA bundle that client certificates must chain to. */
  ca?: Buffer;
  requireClientCert?: boolean;
}

export interface StartOptions {
  /** host:port; port 0 picks a free one. Default 127.0.0.1:9559. */
  address?: string;
  tls?: TlsOptions;
}

export const DEFAULT_ADDRESS = '127.0.0.1:9559';

export const ServerErrorCode = {
  /** The address could not be bound (in use, not local, malformed). */
  BIND_FAILED: 'SWITCH_BIND_FAILED',
  /** The TLS options do not fit together. */
  TLS_CONFIG: 'SWITCH_TLS_CONFIG',
} as const;

export class P4RuntimeServer {
  readonly deviceId: bigint;
  private readonly state: DeviceState;
  private readonly packetIo: PacketIoPort;
  private readonly logger: Logger;
  private readonly limits: ServerLimits;
  private readonly arbitrator: StreamArbitrator;
  private readonly digests: DigestBatcher;
  private readonly idleTimeouts: IdleTimeoutNotifier;
  private readonly channels = new Set<StreamChannel>();
  private readsInFlight = 0;
  private server: grpc.Server | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(options: P4RuntimeServerOptions) {
    this.deviceId = BigInt(options.deviceId);
    if (this.deviceId < 0n || this.deviceId >= 1n << 64n) throw new RangeError(`device id ${this.deviceId} is not a uint64`);
    this.state = options.state;
    this.logger = options.logger ?? moduleLogger('switch.runtime', { deviceId: this.deviceId.toString() });
    this.packetIo = options.packetIo ?? new DiscardingPacketIo(this.logger);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.arbitrator = new Arbitrator({ deviceId: this.deviceId, maxStreamsPerRole: this.limits.maxStreamsPerRole });
    this.digests = new DigestBatcher({
      configOf: (id) => this.state.digestConfig(id),
      deliver: (list) => {
        let delivered = false;
        for (const p of this.arbitrator.primaryRoles()) if (notifiedOf(p.role, p.config, list.digestId)) delivered = p.stream.sendDigestList(list) || delivered;
        return delivered;
      },
    });
    this.idleTimeouts = new IdleTimeoutNotifier({
      state: this.state,
      hasPrimary: () => this.arbitrator.primaries().length > 0,
      deliver: (notification) => {
        let delivered = false;
        const tableId = notification.table_entry?.[0]?.table_id ?? 0;
        for (const p of this.arbitrator.primaryRoles()) if (notifiedOf(p.role, p.config, tableId)) delivered = p.stream.sendIdleTimeout(notification) || delivered;
        return delivered;
      },
      ...(options.idleTimer ? { timer: options.idleTimer } : {}),
      ...(options.idleScanMs ? { periodMs: options.idleScanMs } : {}),
    });
  }

  /** Binds and starts serving; resolves with the bound port (useful with port 0). */
  async start(options: StartOptions = {}): Promise<{ port: number }> {
    if (this.server) throw new Error('P4RuntimeServer.start: already started');
    const address = options.address ?? DEFAULT_ADDRESS;
    const credentials = serverCredentials(options.tls);
    const server = new grpc.Server({
      'grpc.max_receive_message_length': this.limits.maxMessageBytes,
      'grpc.max_send_message_length': this.limits.maxMessageBytes,
    });
    server.addService(tolerantService(p4RuntimeGrpc().p4.v1.P4Runtime.service), this.handlers());
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(address, credentials, (err, bound) => {
        if (err) reject(new P4inaError(ServerErrorCode.BIND_FAILED, `cannot listen on ${address}: ${err.message}`, { cause: err }));
        else resolve(bound);
      });
    });
    this.server = server;
    this.unsubscribe = this.state.onPipelineChange(() => this.digests.reset());
    this.idleTimeouts.start();
    this.logger.info({ address, port, tls: !!options.tls }, 'P4Runtime server listening');
    if (!options.tls && !isLoopback(address)) {
      this.logger.warn(
        { address },
        'P4Runtime is served without TLS on an address other hosts can reach: anyone who reaches it can arbitrate, write and replace the pipeline; ' +
          'bind 127.0.0.1, or serve TLS with client certificates (--grpc-server-ssl … --grpc-server-with-client-auth)',
      );
    }
    return { port };
  }

  /** Ends every stream, lets calls finish for a bounded time, then closes connections. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const channel of [...this.channels]) channel.terminate({ code: grpc.status.UNAVAILABLE, message: 'the switch is shutting down' });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, this.limits.stopGraceMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.idleTimeouts.stop();
    this.digests.reset();
    this.logger.info('P4Runtime server stopped');
  }

  /**
   * Sends a packet from the data plane to the primary controller of every role
   * as a PacketIn. `metadata` holds the `packet_in` header fields by id or
   * name. Returns how many streams it was queued on (0 without a primary or a
   * pipeline). Throws RangeError if the metadata does not fit the header.
   */
  emitPacketIn(payload: Buffer, metadata: ReadonlyMap<number | string, Uint8Array>): number {
    const pipeline = this.state.pipeline;
    if (!pipeline) return 0;
    const packet = buildPacketIn(pipeline.schema.packetHeader('packet_in'), payload, metadata);
    let queued = 0;
    for (const p of this.arbitrator.primaryRoles()) if (receivesPackets(p.role, p.config, packet) && p.stream.sendPacketIn(packet)) queued++;
    return queued;
  }

  /** Takes one digest from the data plane; it reaches the primary in a DigestList per the digest's config. */
  emitDigest(digestId: number, data: p4r.P4Data): DigestOutcome {
    return this.digests.emit(digestId, data);
  }

  private handlers(): p4r.P4RuntimeHandlers {
    const ctx: unary.RpcContext = {
      deviceId: this.deviceId,
      state: this.state,
      arbitrator: this.arbitrator,
      maxErrorDetailsBytes: this.limits.maxErrorDetailsBytes,
    };
    return {
      Capabilities: (call, callback) => this.answer(callback, 'Capabilities', () => malformed(call.request, 'CapabilitiesRequest') ?? unary.capabilities()),
      SetForwardingPipelineConfig: (call, callback) =>
        this.answer(callback, 'SetForwardingPipelineConfig', () => malformed(call.request, 'SetForwardingPipelineConfigRequest') ?? unary.setForwardingPipelineConfig(ctx, call.request)),
      GetForwardingPipelineConfig: (call, callback) =>
        this.answer(callback, 'GetForwardingPipelineConfig', () => malformed(call.request, 'GetForwardingPipelineConfigRequest') ?? unary.getForwardingPipelineConfig(ctx, call.request)),
      Write: (call, callback) => this.answer(callback, 'Write', () => malformed(call.request, 'WriteRequest') ?? unary.write(ctx, call.request)),
      Read: (call) => {
        const refused = malformed(call.request, 'ReadRequest');
        if (refused) call.emit('error', refused.failure);
        else void this.read(ctx, call);
      },
      StreamChannel: (call) => this.openStream(call),
    };
  }

  /** Runs a unary RPC; a throw becomes INTERNAL instead of a crash. */
  private answer<T>(callback: grpc.sendUnaryData<T>, rpc: string, run: () => unary.RpcResult<T>): void {
    let result: unary.RpcResult<T>;
    try {
      result = run();
    } catch (err) {
      this.logger.error({ err, rpc }, 'RPC handler failed');
      result = { ok: false, failure: internal(err) };
    }
    if (result.ok) callback(null, result.response);
    else callback(result.failure);
  }

  /** Read RPCs streaming now. */
  get activeReads(): number {
    return this.readsInFlight;
  }

  private async read(ctx: unary.RpcContext, call: ReadCall): Promise<void> {
    if (this.readsInFlight >= this.limits.maxReadsInFlight) {
      call.emit(
        'error',
        fail(
          grpc.status.RESOURCE_EXHAUSTED,
          `${this.readsInFlight} reads are in progress, the most this switch streams at once (limit ${this.limits.maxReadsInFlight}); retry when one has finished, or read less at a time`,
        ),
      );
      return;
    }
    this.readsInFlight++;
    try {
      const plan = planRead(ctx, call.request, this.limits);
      if ('failure' in plan) call.emit('error', plan.failure);
      else await streamRead(call, plan, this.limits.readChunkEntities, () => this.state.current);
    } catch (err) {
      this.logger.error({ err, rpc: 'Read' }, 'RPC handler failed');
      if (!call.cancelled && !call.writableEnded) call.emit('error', internal(err));
    } finally {
      this.readsInFlight--;
    }
  }

  private openStream(call: StreamCall): void {
    if (!this.server) {
      call.emit('error', fail(grpc.status.UNAVAILABLE, 'the switch is shutting down'));
      return;
    }
    if (this.channels.size >= this.limits.maxStreams) {
      call.emit('error', fail(grpc.status.RESOURCE_EXHAUSTED, `too many open streams (limit ${this.limits.maxStreams}); close unused ones`));
      return;
    }
    const channel = new StreamChannel(call, {
      arbitrator: this.arbitrator,
      state: this.state,
      packetIo: this.packetIo,
      digests: this.digests,
      logger: this.logger,
      limits: this.limits,
      onClosed: (closed) => this.channels.delete(closed),
    });
    this.channels.add(channel);
  }
}

/** Marks a request the protobuf decoder could not read (see tolerantService). */
const UNDECODABLE = Symbol('undecodable request');

/**
 * The service with request decoders that never throw: grpc-js answers a request it cannot
 * decode with INTERNAL ("Error deserializing request"), which is the client's mistake, not
 * ours. A request that fails to decode becomes a marker the handlers answer with INVALID_ARGUMENT.
 */
function tolerantService(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    // Writes of table entries skip proto-loader's double work (write-request-decoder.ts); the rest decode as before.
    const decode = name === 'Write' ? writeRequestDeserializer(method.requestDeserialize as (bytes: Buffer) => p4r.WriteRequest__Output) : method.requestDeserialize;
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return decode(bytes);
        } catch (err) {
          return { [UNDECODABLE]: err instanceof Error ? err.message : String(err) };
        }
      },
    };
  }
  return out as grpc.ServiceDefinition;
}

/** INVALID_ARGUMENT for a request tolerantService could not decode, else undefined. */
function malformed(request: unknown, type: string): { ok: false; failure: GrpcFailure } | undefined {
  if (typeof request !== 'object' || request === null || !(UNDECODABLE in request)) return undefined;
  const reason = (request as Record<typeof UNDECODABLE, string>)[UNDECODABLE];
  return { ok: false, failure: fail(grpc.status.INVALID_ARGUMENT, `the request is not a valid p4.v1.${type} (${reason})`) };
}

/** Whether a HOST:PORT address only takes connections from this host (127.0.0.0/8, ::1, localhost). */
export function isLoopback(address: string): boolean {
  const host = address.slice(0, address.lastIndexOf(':')).replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::ffff:127.0.0.1';
}

function internal(err: unknown): GrpcFailure {
  return fail(grpc.status.INTERNAL, `the switch failed to handle the request: ${err instanceof Error ? err.message : String(err)}`);
}

function serverCredentials(tls: TlsOptions | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  if (tls.requireClientCert && !tls.ca) {
    throw new P4inaError(ServerErrorCode.TLS_CONFIG, 'requiring client certificates needs a CA to check them against: give the CA certificate too');
  }
  try {
    return grpc.ServerCredentials.createSsl(tls.ca ?? null, [{ private_key: tls.key, cert_chain: tls.cert }], tls.requireClientCert ?? false);
  } catch (err) {
    throw new P4inaError(ServerErrorCode.TLS_CONFIG, `the TLS certificate or key cannot be used: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
