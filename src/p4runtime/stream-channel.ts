/**
 * The StreamChannel of one client: opens it, sends the arbitration update,
 * reports each arbitration answer, hands every other message on, and when the
 * stream breaks (not by close()) reopens it with exponential backoff and
 * jitter, re-sending the arbitration. A stream that is never answered is
 * cancelled after `arbitrationTimeoutMs`, so nothing waits forever.
 */
import type * as grpc from '@grpc/grpc-js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { P4inaError } from '../errors/p4ina-error.js';
import type { Logger } from '../log/logger.js';
import type * as p4r from '../proto/p4r.js';
import { backoffDelayMs, reconnectPolicy, type ReconnectPolicy } from './backoff.js';
import { electionIdFromMessage, electionIdMessage } from './election-id.js';
import { P4RuntimeError, toP4RuntimeError } from './errors.js';

/** What an arbitration answer says about this client. */
export interface Arbitration {
  readonly primary: boolean;
  /** The primary's election id (the highest seen), or undefined when the (device, role) has no primary. */
  readonly primaryElectionId: bigint | undefined;
  /** This client's election id. */
  readonly electionId: bigint;
}

export interface StreamIdentity {
  readonly deviceId: bigint;
  readonly role: string | undefined;
  readonly electionId: bigint;
}

export interface StreamHooks {
  arbitration(result: Arbitration): void;
  message(msg: p4r.StreamMessageResponse__Output): void;
  /** An answered stream broke; reconnection starts unless it is disabled. */
  disconnected(error: P4RuntimeError): void;
  /** A reconnect attempt got its arbitration answer. */
  reconnected(attempt: number, result: Arbitration): void;
  /** Reconnection gave up (after `maxAttempts`); the client stays disconnected. */
  gaveUp(error: P4inaError): void;
}

type Call = grpc.ClientDuplexStream<p4r.StreamMessageRequest, p4r.StreamMessageResponse__Output>;

interface Waiter {
  resolve(result: Arbitration): void;
  reject(error: Error): void;
}

export class StreamChannel {
  private call: Call | undefined;
  private callAnswered = false;
  private everAnswered = false;
  private closed = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiters: Waiter[] = [];
  private readonly policy: Required<ReconnectPolicy> | undefined;
  private readonly arbitrationTimeoutMs: number;
  private readonly log: Logger;

  constructor(
    private readonly stub: p4r.P4RuntimeClient,
    private readonly identity: () => StreamIdentity,
    options: { reconnect: ReconnectPolicy | false; arbitrationTimeoutMs: number; log: Logger },
    private readonly hooks: StreamHooks,
  ) {
    this.policy = options.reconnect ? reconnectPolicy(options.reconnect) : undefined;
    this.arbitrationTimeoutMs = options.arbitrationTimeoutMs;
    this.log = options.log;
  }

  /** True while a stream is open and has been answered. */
  get connected(): boolean {
    return this.call !== undefined && this.callAnswered;
  }

  /** Opens the stream and resolves with the first arbitration answer; rejects with a P4RuntimeError. */
  open(): Promise<Arbitration> {
    if (this.closed) return Promise.reject(new P4inaError('P4RUNTIME_CLOSED', 'the client is closed'));
    const call = this.stub.StreamChannel();
    this.call = call;
    this.callAnswered = false;
    const answer = this.nextArbitration(true);
    call.on('data', (msg: p4r.StreamMessageResponse__Output) => {
      if (this.call === call) this.onMessage(msg);
    });
    call.on('error', () => {}); // the 'status' event that follows carries the same information
    call.on('status', (status: grpc.StatusObject) => this.onEnded(call, status));
    call.write({ arbitration: this.arbitrationUpdate() });
    return answer;
  }

  /** Sends the arbitration update again (after the election id changed) and resolves with the answer. */
  rearbitrate(): Promise<Arbitration> {
    if (!this.connected) return Promise.reject(notConnected());
    const answer = this.nextArbitration(false);
    this.call!.write({ arbitration: this.arbitrationUpdate() });
    return answer;
  }

  /** Sends one message; resolves once gRPC has taken it (this is the flow control of packetOut). */
  send(msg: p4r.StreamMessageRequest): Promise<void> {
    const call = this.call;
    if (!call || !this.callAnswered) return Promise.reject(notConnected());
    return new Promise((resolve, reject) => {
      call.write(msg, (err: Error | null | undefined) => (err ? reject(toP4RuntimeError('StreamChannel', err)) : resolve()));
    });
  }

  /** Ends the stream for good: no reconnection, pending answers rejected. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const call = this.call;
    this.call = undefined;
    this.rejectWaiters(new P4inaError('P4RUNTIME_CLOSED', 'the client was closed'));
    if (call) {
      call.end();
      call.cancel();
    }
  }

  private arbitrationUpdate(): p4r.MasterArbitrationUpdate {
    const id = this.identity();
    return { device_id: id.deviceId.toString(), role: id.role ? { name: id.role } : null, election_id: electionIdMessage(id.electionId) };
  }

  private nextArbitration(cancelOnTimeout: boolean): Promise<Arbitration> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (r) => {
          clearTimeout(timeout);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timeout);
          reject(e);
        },
      };
      const timeout = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new P4RuntimeError('StreamChannel', GrpcStatus.DEADLINE_EXCEEDED, `no arbitration answer within ${this.arbitrationTimeoutMs} ms`));
        if (cancelOnTimeout) this.call?.cancel();
      }, this.arbitrationTimeoutMs);
      this.waiters.push(waiter);
    });
  }

  private rejectWaiters(error: Error): void {
    for (const w of this.waiters.splice(0)) w.reject(error);
  }

  private onMessage(msg: p4r.StreamMessageResponse__Output): void {
    if (msg.update !== 'arbitration' || !msg.arbitration) {
      this.hooks.message(msg);
      return;
    }
    const ours = this.identity().electionId;
    const highest = electionIdFromMessage(msg.arbitration.election_id);
    // OK: we are primary; ALREADY_EXISTS: someone else is; NOT_FOUND: nobody is. A missing status is judged by the id.
    const code = msg.arbitration.status?.code ?? (highest === ours ? GrpcStatus.OK : GrpcStatus.ALREADY_EXISTS);
    const result: Arbitration = { primary: code === GrpcStatus.OK, primaryElectionId: code === GrpcStatus.NOT_FOUND ? undefined : highest, electionId: ours };
    const reconnected = !this.callAnswered && this.everAnswered;
    this.callAnswered = true;
    this.everAnswered = true;
    const attempt = this.attempt;
    if (reconnected) this.attempt = 0;
    for (const w of this.waiters.splice(0)) w.resolve(result);
    this.hooks.arbitration(result);
    if (reconnected) this.hooks.reconnected(attempt, result);
  }

  private onEnded(call: Call, status: grpc.StatusObject): void {
    if (call !== this.call) return; // a stream we already left (closed or replaced)
    this.call = undefined;
    const code = status.code === GrpcStatus.OK ? GrpcStatus.UNAVAILABLE : status.code;
    const error = new P4RuntimeError('StreamChannel', code, status.code === GrpcStatus.OK ? 'the switch ended the stream' : status.details);
    this.rejectWaiters(error);
    if (this.closed) return;
    if (this.callAnswered) {
      this.log.warn({ code: error.grpcCodeName, details: error.details }, 'stream channel broke');
      this.hooks.disconnected(error);
      this.scheduleReconnect();
    } else if (this.everAnswered) {
      // A failed attempt is expected while a switch restarts: logged, not an error event.
      this.log.info({ attempt: this.attempt, code: error.grpcCodeName, details: error.details }, 'reconnect attempt failed');
      this.scheduleReconnect();
    }
    // Otherwise connect() failed: its promise carries the error and nothing reconnects.
  }

  private scheduleReconnect(): void {
    if (!this.policy || this.closed) return;
    if (this.attempt >= this.policy.maxAttempts) {
      this.hooks.gaveUp(new P4inaError('P4RUNTIME_RECONNECT_GAVE_UP', `gave up reconnecting after ${this.attempt} attempts; call connect() on a new client`));
      return;
    }
    const delay = backoffDelayMs(this.attempt, this.policy);
    this.attempt++;
    this.log.info({ attempt: this.attempt, delayMs: delay }, 'reconnecting stream channel');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.open().catch(() => {}); // failures are reported through onEnded
    }, delay);
  }
}

function notConnected(): P4inaError {
  return new P4inaError('P4RUNTIME_NOT_CONNECTED', 'the stream channel is not open: call connect() first (or wait for the reconnect event)');
}
