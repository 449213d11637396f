/** The options and events of P4RuntimeClient. */
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from '../log/logger.js';
import type { ReconnectPolicy } from './backoff.js';
import type { TlsOptions } from './channel.js';
import type { ElectionIdInput } from './election-id.js';
import type { P4RuntimeError } from './errors.js';
import type { Arbitration } from './stream-channel.js';

export interface P4RuntimeClientOptions {
  /** host:port of the switch's P4Runtime server. */
  readonly address: string;
  readonly deviceId: number | bigint;
  readonly electionId: ElectionIdInput;
  /** Role name; the default role (full access) when left out. */
  readonly role?: string;
  readonly tls?: TlsOptions;
  /** Extra grpc-js channel options, over p4ina's defaults (256 MiB messages). */
  readonly channelOptions?: grpc.ChannelOptions;
  /** Reconnection of a broken stream channel; false to stay disconnected. Defaults: 250 ms doubling to 10 s, ±20% jitter. */
  readonly reconnect?: ReconnectPolicy | false;
  readonly logger?: Logger;
  /** Deadline of each unary RPC and of each Read; default 60 s. */
  readonly rpcTimeoutMs?: number;
  /** How long connect() waits for the first arbitration answer; default 10 s. */
  readonly arbitrationTimeoutMs?: number;
  /** Items each packets()/digests()/idleTimeouts() iterator buffers before dropping the oldest; default 1024. */
  readonly queueLimit?: number;
  /** Updates per Write request when a write is split (CONTINUE_ON_ERROR only); default 256. */
  readonly maxUpdatesPerWrite?: number;
}

export type P4RuntimeClientEvents = {
  /** This client became primary. */
  primary: [Arbitration];
  /** This client is (or became) a backup; `primaryElectionId` is the current primary's id, if any. */
  backup: [Arbitration];
  /** The stream channel broke; isPrimary is false until it is back. */
  disconnect: [P4RuntimeError];
  /** The stream channel is back; `attempt` is the reconnect attempt that succeeded (1 = the first). */
  reconnect: [{ attempt: number; primary: boolean }];
  /** Errors not tied to a call: StreamErrors from the switch, undecodable stream messages, reconnection giving up. */
  error: [Error];
};
