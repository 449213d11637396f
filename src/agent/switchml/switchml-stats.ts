/**
 * What one SwitchML allreduce call cost, beyond the fields every AllReduce
 * reports (`messagesSent` counts first transmissions and retransmissions).
 */
import type { AllReduceStats } from '../allreduce.js';

export interface SwitchMlStats extends AllReduceStats {
  readonly algorithm: 'switchml';
  /** The epoch the call's packets carried. */
  readonly epoch: number;
  /** CPU time (user + system) this process used during the call, in ms: the worker's cost per call, beside `elapsedMs`. */
  readonly cpuMs: number;
  /** Chunks of `elementsPerPacket` values (the last one zero-padded). */
  readonly chunks: number;
  /** Outstanding packets at most: min(pool size, chunks). */
  readonly window: number;
  /** Packets of the call, first transmissions only: chunks + window (the window of priming packets). */
  readonly packets: number;
  /** Slot deadlines that passed (each normally followed by one retransmission). */
  readonly timeouts: number;
  /** Results accepted that were RETRANSMITTED_RESULTs: the first copy of the result had been lost. */
  readonly retransmittedResults: number;
  /** Results for this call dropped because their slot had already been answered. */
  readonly duplicates: number;
  /** Results of another epoch (an earlier call), dropped. */
  readonly staleResults: number;
  /** Datagrams dropped as not for this call: malformed, another job, an UPDATE, a wrong element count. */
  readonly ignored: number;
  /**
   * Retransmissions answered less than one SRTT after they were sent: the
   * answer was to an earlier copy, so the timeout fired too early. A lower
   * bound: a spurious retransmission answered later is not told apart.
   */
  readonly spuriousRetransmissions: number;
  /**
   * Retransmissions sent as RECOVERY_UPDATEs (`recoverAfter` retransmissions
   * or more of the same packet): each may take over a slot copy blocked by a
   * stray or forged round (docs/p4-programs.md §3, "Recovery").
   */
  readonly recoveryUpdates: number;
  /** The worker's retransmission timeout at the end of the call, in ms (rtt-estimator.ts). */
  readonly rtoMs: number;
  /** Its smoothed round-trip time and the RTT variation, in ms (0 before the first sample). */
  readonly srttMs: number;
  readonly rttVarMs: number;
}

/** The counters a call updates while it runs. */
export class MutableSwitchMlCounters {
  messagesSent = 0;
  messagesReceived = 0;
  retransmissions = 0;
  timeouts = 0;
  retransmittedResults = 0;
  duplicates = 0;
  staleResults = 0;
  ignored = 0;
  spuriousRetransmissions = 0;
  recoveryUpdates = 0;
}
