/**
 * The shape of build/Release/udp_batch.node (native/udp_batch/addon.c), as
 * TypeScript sees it. Only this directory uses it; others use BatchedUdpSocket.
 */

/** An Error from the addon: `code` is the errno name, as in Node's system errors. */
export interface NativeErrnoError extends Error {
  readonly code: string;
  readonly errno?: number;
  readonly syscall?: string;
}

export interface NativeUdpBatchOptions {
  /** Messages per recvmmsg/sendmmsg call, 1..1024 (default 64). */
  readonly batchSize?: number;
  /** SO_RCVBUF request in bytes (0: the kernel's default; capped at net.core.rmem_max). */
  readonly receiveBufferBytes?: number;
  /** SO_SNDBUF request in bytes (0: the kernel's default; capped at net.core.wmem_max). */
  readonly sendBufferBytes?: number;
  /** Coalesce runs of equal-length datagrams into UDP GSO messages (default true). */
  readonly gso?: boolean;
  /** Ask the kernel for UDP GRO on receive (default true). */
  readonly gro?: boolean;
}

export interface NativeSendResult {
  /** Datagrams the kernel took (the others were dropped). */
  readonly sent: number;
  readonly sentBytes: number;
  /** Why some datagrams were dropped; null when all went out. */
  readonly error: NativeErrnoError | null;
}

/** Cumulative counts kept by the addon. */
export interface NativeUdpBatchStatistics {
  readonly receivedMessages: number;
  /** After splitting GRO-coalesced messages. */
  readonly receivedDatagrams: number;
  /** Received messages that held several datagrams. */
  readonly groMessages: number;
  /** Received messages longer than 64 KiB (dropped). */
  readonly truncated: number;
  /** Datagrams the kernel dropped for a full receive buffer (SO_RXQ_OVFL), as of the last batch. */
  readonly kernelDrops: number;
  readonly sentMessages: number;
  readonly sentDatagrams: number;
  /** Sent messages that carried several datagrams (UDP GSO). */
  readonly gsoMessages: number;
  /** Datagrams send() or sendTo() dropped. */
  readonly sendRefused: number;
  /** GSO is still in use (false when asked off or once the kernel refused it). */
  readonly gso: boolean;
  /** UDP GRO is on. */
  readonly gro: boolean;
}

export interface NativeSource {
  readonly address: string;
  readonly port: number;
}

/**
 * Receives a batch: `count` little-endian uint32 datagram lengths, then the
 * datagrams back to back (datagram-batch.ts). `sources` are the distinct
 * senders; `origins` is null when all came from sources[0], else `count`
 * little-endian uint16 indexes into sources.
 */
export type NativeDatagramsCallback = (batch: Buffer, count: number, sources: readonly NativeSource[], origins: Buffer | null) => void;

/** A receive-side error, or an ICMP error for an earlier send (ECONNREFUSED); the socket stays open. */
export type NativeErrorCallback = (error: NativeErrnoError) => void;

export interface NativeUdpBatchSocket {
  /** What the kernel granted (it reports twice the request). */
  readonly receiveBufferBytes: number;
  readonly sendBufferBytes: number;
  /** The kernel accepted UDP_GRO. */
  readonly gro: boolean;
  /** Binds; returns the bound port. Throws an errno error (EADDRINUSE…). */
  bind(address: string, port: number): number;
  /** Sets the peer (again: replaces it, keeping the local port). */
  connect(address: string, port: number): void;
  disconnect(): void;
  /** Sends to the connected peer, synchronously, without blocking. */
  send(frames: readonly Buffer[]): NativeSendResult;
  sendTo(frames: readonly Buffer[], address: string, port: number): NativeSendResult;
  statistics(): NativeUdpBatchStatistics;
  ref(): void;
  unref(): void;
  /** Idempotent; every method but statistics() then throws (code EBADF). */
  close(): void;
}

export interface NativeUdpBatchModule {
  readonly UdpBatchSocket: new (family: 4 | 6, onDatagrams: NativeDatagramsCallback, onError: NativeErrorCallback, options?: NativeUdpBatchOptions) => NativeUdpBatchSocket;
}
