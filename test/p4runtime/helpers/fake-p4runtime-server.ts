// A minimal P4Runtime server for client tests, over real gRPC on 127.0.0.1:
// arbitration (highest connected election id is primary, as BMv2 does),
// writes stored and echoed back by reads, Writes that fail with a details
// trailer, pipelines with cookies, stream messages both ways, and streams
// that can be broken on demand. Not a switch: no validation beyond that.
import * as grpc from '@grpc/grpc-js';
import { encodeMessage, packAny } from '../../../src/proto/codec.js';
import { p4RuntimeGrpc } from '../../../src/proto/load.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { electionIdFromMessage, electionIdMessage } from '../../../src/p4runtime/election-id.js';

type StreamCall = grpc.ServerDuplexStream<p4r.StreamMessageRequest__Output, p4r.StreamMessageResponse>;
interface Peer {
  readonly call: StreamCall;
  electionId?: bigint;
}
export interface UpdateFailure {
  readonly code: grpc.status;
  readonly message: string;
}

const status = (code: grpc.status, details: string, metadata?: grpc.Metadata): Partial<grpc.StatusObject> => ({ code, details, metadata });

/** The part of an entity that identifies it in the store. */
function entityKey(e: p4r.Entity__Output): string {
  const te = e.table_entry;
  const keyOnly: p4r.Entity = te
    ? { table_entry: { table_id: te.table_id, match: te.match, priority: te.priority, is_default_action: te.is_default_action } }
    : e.register_entry
      ? { register_entry: { register_id: e.register_entry.register_id, index: e.register_entry.index } }
      : e.packet_replication_engine_entry?.multicast_group_entry
        ? { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: e.packet_replication_engine_entry.multicast_group_entry.multicast_group_id } } }
        : e;
  return `${e.entity}:${Buffer.from(encodeMessage('p4.v1.Entity', keyOnly)).toString('hex')}`;
}

export class FakeP4RuntimeServer {
  readonly writes: p4r.WriteRequest__Output[] = [];
  readonly setPipelineCalls: p4r.SetForwardingPipelineConfigRequest__Output[] = [];
  readonly arbitrations: p4r.MasterArbitrationUpdate__Output[] = [];
  /** Packet outs, digest acks and anything else clients send on the stream besides arbitration. */
  readonly streamMessages: p4r.StreamMessageRequest__Output[] = [];
  pipeline: p4r.ForwardingPipelineConfig__Output | undefined;
  /** Makes an update fail (index within its request). */
  failUpdate: ((update: p4r.Update__Output, index: number) => UpdateFailure | undefined) | undefined;
  /** Replaces the details trailer of failing Writes (to send garbage). */
  trailerOverride: Buffer | undefined;
  /** The next N arbitration requests end their stream with UNAVAILABLE instead of an answer. */
  refuseArbitrations = 0;
  /** When false, arbitration requests are recorded and never answered. */
  answerArbitrations = true;
  private readonly peers = new Set<Peer>();
  private readonly store = new Map<string, p4r.Entity__Output>();

  private constructor(
    private readonly server: grpc.Server,
    readonly port: number,
    readonly deviceId: bigint,
  ) {}

  static async start(options: { deviceId?: number; port?: number } = {}): Promise<FakeP4RuntimeServer> {
    const server = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${options.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const fake = new FakeP4RuntimeServer(server, port, BigInt(options.deviceId ?? 0));
    server.addService(p4RuntimeGrpc().p4.v1.P4Runtime.service, fake.handlers());
    return fake;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The primary's election id, if any stream has arbitrated. */
  primaryId(): bigint | undefined {
    return [...this.peers].reduce<bigint | undefined>((max, p) => (p.electionId !== undefined && (max === undefined || p.electionId > max) ? p.electionId : max), undefined);
  }

  /** Sends a message to the primary's stream. */
  sendToPrimary(msg: p4r.StreamMessageResponse): void {
    const primary = [...this.peers].find((p) => p.electionId === this.primaryId());
    primary?.call.write(msg);
  }

  /** Ends every stream with UNAVAILABLE, as a switch restart would. */
  breakStreams(): void {
    for (const peer of [...this.peers]) peer.call.emit('error', status(grpc.status.UNAVAILABLE, 'switch restarting'));
    this.peers.clear();
  }

  stop(): Promise<void> {
    this.server.forceShutdown();
    return Promise.resolve();
  }

  private notifyAll(): void {
    const primary = this.primaryId();
    for (const peer of this.peers) {
      const code = primary === undefined ? grpc.status.NOT_FOUND : peer.electionId === primary ? grpc.status.OK : grpc.status.ALREADY_EXISTS;
      peer.call.write({
        arbitration: {
          device_id: this.deviceId.toString(),
          election_id: primary === undefined ? null : electionIdMessage(primary),
          status: { code, message: code === grpc.status.OK ? 'primary' : 'backup' },
        },
      });
    }
  }

  private leave(peer: Peer): void {
    const wasPrimary = peer.electionId !== undefined && peer.electionId === this.primaryId();
    if (this.peers.delete(peer) && wasPrimary) this.notifyAll();
  }

  private arbitrate(peer: Peer, a: p4r.MasterArbitrationUpdate__Output): void {
    this.arbitrations.push(a);
    const fail = (code: grpc.status, details: string) => {
      this.peers.delete(peer);
      peer.call.emit('error', status(code, details));
    };
    if (!this.answerArbitrations) return;
    if (this.refuseArbitrations > 0) return (this.refuseArbitrations--, fail(grpc.status.UNAVAILABLE, 'not ready'));
    if (BigInt(a.device_id) !== this.deviceId) return fail(grpc.status.NOT_FOUND, `unknown device ${a.device_id}`);
    const id = electionIdFromMessage(a.election_id);
    if ([...this.peers].some((p) => p !== peer && p.electionId === id)) return fail(grpc.status.INVALID_ARGUMENT, 'Election id already exists');
    peer.electionId = id;
    this.peers.add(peer);
    this.notifyAll();
  }

  private isPrimary(id: p4r.Uint128__Output | null): boolean {
    const primary = this.primaryId();
    return primary !== undefined && electionIdFromMessage(id) === primary;
  }

  private write(request: p4r.WriteRequest__Output): Partial<grpc.StatusObject> | undefined {
    if (!this.isPrimary(request.election_id)) return status(grpc.status.PERMISSION_DENIED, 'Not primary');
    if (!this.pipeline) return status(grpc.status.FAILED_PRECONDITION, 'No forwarding pipeline config set for this device');
    this.writes.push(request);
    const errors = request.updates.map((u, i) => this.failUpdate?.(u, i) ?? this.apply(u));
    if (errors.every((e) => !e)) return undefined;
    const details = errors.map((e) => packAny('p4.v1.Error', e ? { canonical_code: e.code, message: e.message, space: 'fake' } : {}));
    const metadata = new grpc.Metadata();
    metadata.set('grpc-status-details-bin', this.trailerOverride ?? Buffer.from(encodeMessage('google.rpc.Status', { code: grpc.status.UNKNOWN, details })));
    return status(grpc.status.UNKNOWN, 'Write failure.', metadata);
  }

  private apply(u: p4r.Update__Output): UpdateFailure | undefined {
    const key = entityKey(u.entity!);
    const exists = this.store.has(key);
    if (u.type === 'INSERT' && exists) return { code: grpc.status.ALREADY_EXISTS, message: 'entity exists' };
    if (u.type === 'DELETE') return this.store.delete(key) ? undefined : { code: grpc.status.NOT_FOUND, message: 'no such entity' };
    this.store.set(key, u.entity!);
    return undefined;
  }

  private read(request: p4r.ReadRequest__Output): p4r.Entity__Output[] {
    return [...this.store.values()].filter((stored) =>
      request.entities.some((q) => q.entity === stored.entity && (!q.table_entry?.table_id || q.table_entry.table_id === stored.table_entry?.table_id)),
    );
  }

  private handlers(): grpc.UntypedServiceImplementation {
    const handlers: p4r.P4RuntimeHandlers = {
      StreamChannel: (call) => {
        const peer: Peer = { call };
        call.on('data', (msg: p4r.StreamMessageRequest__Output) => (msg.update === 'arbitration' ? this.arbitrate(peer, msg.arbitration!) : this.streamMessages.push(msg)));
        call.on('end', () => {
          this.leave(peer);
          call.end();
        });
        call.on('cancelled', () => this.leave(peer));
        call.on('error', () => this.leave(peer));
      },
      Write: (call, callback) => {
        const error = this.write(call.request);
        if (error) callback(error);
        else callback(null, {});
      },
      Read: (call) => {
        call.write({ entities: this.read(call.request) });
        call.end();
      },
      SetForwardingPipelineConfig: (call, callback) => {
        const req = call.request;
        if (!this.isPrimary(req.election_id)) return callback(status(grpc.status.PERMISSION_DENIED, 'Not primary'));
        this.setPipelineCalls.push(req);
        if (req.action !== 'VERIFY' && req.config) {
          this.pipeline = req.config;
          this.store.clear();
        }
        callback(null, {});
      },
      GetForwardingPipelineConfig: (call, callback) => {
        if (!this.pipeline) return callback(status(grpc.status.FAILED_PRECONDITION, 'No forwarding pipeline config set for this device'));
        const config = call.request.response_type === 'COOKIE_ONLY' ? { cookie: this.pipeline.cookie } : this.pipeline;
        callback(null, { config });
      },
      Capabilities: (_call, callback) => callback(null, { p4runtime_api_version: '1.4.0' }),
    };
    return handlers;
  }
}
