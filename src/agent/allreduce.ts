/**
 * The one AllReduce API every p4ina host agent implements (the ring and
 * parameter-server baselines here, the SwitchML, ATP, OmniReduce and Rina
 * agents later), so that a benchmark or the demo can run them side by side.
 *
 * Semantics, the same for every implementation:
 * - **Sum.** Each rank calls `allreduce` with its own tensor, all of the same
 *   length; every rank gets back the elementwise sum over all ranks. The
 *   caller's array is never modified; `result` is a new array.
 * - **Bit-identical across ranks.** Every rank gets exactly the same bits
 *   (each element is computed once, by one party, and copied to the others).
 *   Implementations that cannot promise this must say so; none here do.
 * - **Accuracy against a float64 reference.** The reference is the sum of the
 *   same float32 inputs computed in float64. How far a result may be from it
 *   depends on the algorithm and is documented with it: the ring baseline sums
 *   in float32 in a fixed order per chunk (at most (n-1)·2^-24·Σ|x_i| away per
 *   element), the parameter server sums in float64 and rounds once (at most
 *   2^-24·|Σx_i| plus float64 noise), the INA protocols quantise to integers
 *   with a per-chunk scale (their quantisation bound).
 * - **Order.** Calls are collective: every rank makes the same sequence of
 *   calls with tensors of matching lengths. One call at a time per instance.
 * - **Failure.** A call that fails (a peer gone, a malformed message, a
 *   timeout, an abort) rejects with a typed P4inaError; an implementation may
 *   then refuse further calls, and `close()` is always safe.
 */

/** What one `allreduce` call cost. Algorithms add their own fields. */
export interface AllReduceStats {
  /** Bytes of the tensor reduced (its length × 4), not bytes on the wire. */
  bytes: number;
  /** Wall-clock time of the call, from the call to the result. */
  elapsedMs: number;
  /** Messages (frames, packets) this rank sent for the call. */
  messagesSent: number;
  /** Messages this rank received for the call. */
  messagesReceived: number;
  /** Messages this rank sent again because the first copy was presumed lost (0 over TCP). */
  retransmissions: number;
}

/**
 * What a worker process adds to each call's stats: the bytes its transport
 * sent during the call, retransmissions included, as the transport counts
 * them (a UDP wire: whole Ethernet frames; kernel UDP: UDP payloads; TCP:
 * the stream's bytes).
 */
export interface SentBytes {
  readonly bytesSent: number;
}

/** Per-call options. */
export interface AllReduceCallOptions {
  /** Aborting rejects the call; the instance may be unusable afterwards. */
  signal?: AbortSignal;
  /**
   * Called now and then with how many of the tensor's elements this rank has
   * final results for, e.g. to draw a progress line. Must not throw.
   */
  onProgress?: (doneElements: number, totalElements: number) => void;
}

export interface AllReduceResult<S extends AllReduceStats = AllReduceStats> {
  /** The elementwise sum over all ranks; a new array of the input's length. */
  result: Float32Array;
  stats: S;
}

export interface AllReduce<S extends AllReduceStats = AllReduceStats> {
  /** This worker's rank, 0..worldSize-1. */
  readonly rank: number;
  /** How many workers take part. */
  readonly worldSize: number;
  allreduce(data: Float32Array, options?: AllReduceCallOptions): Promise<AllReduceResult<S>>;
  /** Releases sockets and timers; idempotent; safe after a failure. */
  close(): Promise<void>;
}
