/**
 * An OmniReduce worker: AllReduce (sum) of a float32 tensor through host
 * aggregators, sending only its non-zero blocks. Every slot runs its stream
 * in parallel (worker-slot.ts); the call resolves when every stream has
 * ended. The sums are integers under a scale every worker shares, so the
 * result is bit-identical on all workers and within switchMlErrorBound of the
 * float64 sum (for zeroThreshold 0).
 */
import { decodeOmniReduce } from '../../wire/omnireduce.js';
import type { ShadowSet } from '../../wire/pool-index.js';
import type { AllReduce, AllReduceResult, AllReduceStats } from '../allreduce.js';
import { chunkExponents, ScaleTable } from '../switchml/quantisation.js';
import { RttEstimator } from '../switchml/rtt-estimator.js';
import type { SocketAddress } from '../transport/index.js';
import { BlockLayout, WorkerBlocks } from './block-layout.js';
import { OMNIREDUCE_ERROR_CODES, OmniReduceError } from './omnireduce-error.js';
import { resolveSlots, type OmniReduceWorkerOptions } from './omnireduce-options.js';
import { addressKey } from './sourced-transport.js';
import { WorkerSlot, type SlotContext } from './worker-slot.js';

export interface OmniReduceStats extends AllReduceStats {
  /** UDP payload bytes this worker sent, retransmissions included. */
  bytesSent: number;
  /** Blocks of the tensor, and how many of them this worker sent values for. */
  blocks: number;
  blocksSent: number;
  /** Rounds completed over all slots (each one reply received). */
  rounds: number;
  /** Replies dropped because they came from elsewhere than the address their slot's blocks go to. */
  strangers: number;
}

export class OmniReduceWorker implements AllReduce<OmniReduceStats> {
  readonly rank: number;
  readonly worldSize: number;
  private readonly owners: SocketAddress[];
  private readonly rtt: RttEstimator;
  private readonly scales: ScaleTable;
  /** Per slot, the set its next priming round uses (every worker walks the same rounds, so they agree). */
  private readonly sets: Uint8Array;
  private slots: WorkerSlot[] = [];
  private state: 'idle' | 'busy' | 'unusable' = 'idle';
  /** Rejects the running call (close() while it runs). */
  /** Datagrams received during the running call. */
  private received = 0;
  /** Replies from an address other than their slot's aggregator, dropped during the running call. */
  private strangers = 0;
  private rejectCall: ((error: OmniReduceError) => void) | undefined;

  constructor(private readonly options: OmniReduceWorkerOptions) {
    this.owners = resolveSlots(options);
    this.rank = options.rank;
    this.worldSize = options.worldSize;
    this.rtt = new RttEstimator(options.timeoutMs, options.backoff);
    this.scales = new ScaleTable(options.worldSize);
    this.sets = new Uint8Array(this.owners.length);
  }

  allreduce(data: Float32Array): Promise<AllReduceResult<OmniReduceStats>> {
    if (this.state !== 'idle') {
      const [code, what] = this.state === 'busy' ? [OMNIREDUCE_ERROR_CODES.busy, 'another allreduce is running on this worker'] : [OMNIREDUCE_ERROR_CODES.unusable, 'an earlier call failed or the worker was closed; make a new worker'];
      return Promise.reject(new OmniReduceError(code, `OmniReduce worker ${this.rank}: ${what}`));
    }
    const { options } = this;
    let layout: BlockLayout;
    try {
      layout = new BlockLayout(data.length, options.blockSize, this.owners.length);
    } catch (error) {
      return Promise.reject(error);
    }
    const exponents = new Int8Array(layout.blockCount);
    const bad = chunkExponents(data, options.blockSize, exponents);
    if (bad !== -1) return Promise.reject(new OmniReduceError(OMNIREDUCE_ERROR_CODES.nonFiniteInput, `OmniReduce worker ${this.rank}: element ${bad} is ${data[bad]}; integer aggregation carries only finite values`));
    const blocks = new WorkerBlocks(layout, data, exponents, options.zeroThreshold ?? 0);
    const result = new Float32Array(data.length);
    const stats = { messagesSent: 0, bytesSent: 0, retransmissions: 0, blocksSent: 0, rounds: 0 };
    const started = options.clock.now();
    const empty = { bytes: 0, elapsedMs: 0, messagesSent: 0, messagesReceived: 0, retransmissions: 0, bytesSent: 0, blocks: 0, blocksSent: 0, rounds: 0, strangers: 0 };
    if (layout.activeSlots === 0) return Promise.resolve({ result, stats: empty });
    this.rtt.expectSamplesPerRtt(layout.activeSlots);
    return new Promise((resolve, reject) => {
      let open = layout.activeSlots;
      const settled = (slot: number, error?: OmniReduceError): void => {
        if (this.state !== 'busy') return;
        if (error !== undefined) {
          this.finishCall('unusable');
          return reject(error);
        }
        this.sets[slot] = this.slots[slot]!.nextSet;
        if (--open > 0) return;
        this.finishCall('idle');
        resolve({
          result,
          stats: { bytes: 4 * data.length, elapsedMs: options.clock.now() - started, messagesSent: stats.messagesSent, messagesReceived: this.received, retransmissions: stats.retransmissions, bytesSent: stats.bytesSent, blocks: layout.blockCount, blocksSent: stats.blocksSent, rounds: stats.rounds, strangers: this.strangers },
        });
      };
      this.rejectCall = reject;
      this.received = 0;
      this.strangers = 0;
      const ctx: SlotContext = { transport: options.transport, clock: options.clock, timers: options.timers, rtt: this.rtt, maxRetries: options.maxRetries, scales: this.scales, blocks, result, rank: this.rank, stats, settled };
      this.slots = Array.from({ length: layout.activeSlots }, (_, s) => new WorkerSlot(s, this.sets[s] as ShadowSet, this.owners[s]!, ctx));
      this.state = 'busy';
      options.transport.onDatagram((buf, offset, length, from) => this.receive(buf, offset, length, from));
      for (const slot of this.slots) slot.start();
    });
  }

  /** Stops every timer and detaches; the transport is the caller's to close. Idempotent. */
  close(): Promise<void> {
    const reject = this.state === 'busy' ? this.rejectCall : undefined;
    this.finishCall('unusable');
    reject?.(new OmniReduceError(OMNIREDUCE_ERROR_CODES.unusable, `OmniReduce worker ${this.rank} was closed during the call`));
    return Promise.resolve();
  }

  private receive(buf: Buffer, offset: number, length: number, from: SocketAddress | undefined): void {
    this.received++;
    const msg = decodeOmniReduce(buf, offset, offset + length);
    if (!msg.ok) return;
    // A reply comes from where its slot's blocks go: the shard, or the switch answering as that address.
    // A transport that cannot name the sender (a UDP wire to one peer) has nobody else to hear from.
    const owner = this.owners[msg.slot];
    if (from !== undefined && owner !== undefined && addressKey(from) !== addressKey(owner)) {
      this.strangers++;
      return;
    }
    this.slots[msg.slot]?.onReply(msg);
  }

  private finishCall(next: 'idle' | 'unusable'): void {
    for (const slot of this.slots) slot.stop();
    this.slots = [];
    this.rejectCall = undefined;
    this.options.transport.onDatagram(undefined);
    if (this.state !== 'unusable') this.state = next;
  }
}
