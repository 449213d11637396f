/**
 * The shape of build/Release/af_packet.node (native/af_packet/addon.c), as
 * TypeScript sees it. Only load-addon.ts and af-packet-port.ts use it.
 */

/** An Error from the addon: `code` is the errno name, as in Node's system errors. */
export interface NativeErrnoError extends Error {
  readonly code: string;
  readonly errno?: number;
  readonly syscall?: string;
}

export interface NativeSocketOptions {
  /** Frames per recvmmsg/sendmmsg call, 1..1024. */
  readonly batchSize: number;
  /** Longest frame received; longer ones are dropped and counted as truncated. 64..262144. */
  readonly maxFrameBytes: number;
  /** SO_RCVBUF request in bytes (0: the kernel's default). */
  readonly receiveBufferBytes: number;
  /** SO_SNDBUF request in bytes (0: the kernel's default). */
  readonly sendBufferBytes: number;
}

export interface NativeSendResult {
  /** Frames the kernel took (the others were dropped). */
  readonly sent: number;
  readonly sentBytes: number;
  /** Why some frames were dropped; null when all went out. */
  readonly error: NativeErrnoError | null;
}

/** Cumulative counts kept by the addon and the kernel. */
export interface NativeStatistics {
  /** Frames the interface sent, seen by the socket and dropped (only without PACKET_IGNORE_OUTGOING). */
  readonly outgoingSkipped: number;
  /** Received frames longer than maxFrameBytes, dropped. */
  readonly truncated: number;
  /** Frames the kernel queued for the socket (PACKET_STATISTICS). */
  readonly kernelPackets: number;
  /** Frames the kernel dropped because the receive buffer was full. */
  readonly kernelDrops: number;
}

/**
 * Receives a batch: `count` little-endian uint32 frame lengths, then the
 * frames back to back (see frame-batch.ts). The Buffer is fresh per batch.
 */
export type NativeFramesCallback = (batch: Buffer, count: number) => void;

/** A receive-side error; the socket stays open (e.g. ENETDOWN while the link is down). */
export type NativeErrorCallback = (error: NativeErrnoError) => void;

export interface NativeAfPacketSocket {
  readonly ifindex: number;
  /** PACKET_IGNORE_OUTGOING took effect; otherwise the addon filters by packet type. */
  readonly kernelIgnoresOutgoing: boolean;
  /** The interface was down at open. */
  readonly linkWasDown: boolean;
  /** What the kernel granted (it reports twice the request). */
  readonly receiveBufferBytes: number;
  readonly sendBufferBytes: number;
  /** Sends synchronously without blocking; throws (code EBADF) once closed. */
  send(frames: readonly Buffer[]): NativeSendResult;
  statistics(): NativeStatistics;
  /** Whether the open socket keeps the event loop alive (it does by default). */
  ref(): void;
  unref(): void;
  /** Idempotent. */
  close(): void;
}

export interface NativeAfPacketModule {
  readonly AfPacketSocket: new (
    ifname: string,
    onFrames: NativeFramesCallback,
    onError: NativeErrorCallback,
    options: NativeSocketOptions,
  ) => NativeAfPacketSocket;
}
