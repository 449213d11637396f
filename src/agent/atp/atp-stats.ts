/**
 * What one ATP allreduce call cost on one worker, beyond the fields every
 * AllReduce reports (`messagesSent` counts first transmissions and resends).
 */
import type { AllReduceStats } from '../allreduce.js';

export interface AtpStats extends AllReduceStats {
  readonly algorithm: 'atp';
  /** CPU time (user + system) this process used during the call, in ms. */
  readonly cpuMs: number;
  /** Packets of `elementsPerPacket` values (the last one zero-padded): one sequence number each. */
  readonly packets: number;
  /** The call's first sequence number (16 bits, as on the wire). */
  readonly firstSequence: number;
  /** Packets sent as float32 with `overflow` (a value past the job's range). */
  readonly overflowPackets: number;
  /** Deadlines that passed (each normally followed by a resend). */
  readonly timeouts: number;
  /** ACKs accepted: one per packet. */
  readonly acks: number;
  /** ACKs whose values were float32 (`overflow`). */
  readonly floatResults: number;
  /** ACKs for a sequence already answered or not outstanding: ignored. */
  readonly duplicateAcks: number;
  /** Datagrams that were not an ACK of this job with the job's value count. */
  readonly ignored: number;
  /** ACKs that moved a window position to another aggregator (the PS saw a collision). */
  readonly aggregatorMoves: number;
  /** ACKs carrying the ATP ecn bit. */
  readonly ecnMarks: number;
  /**
   * CE marks in the IPv4 headers of this job's ACKs (on a UDP wire, or with the
   * kernel's UDP and an IPv4 CE observer), each a mark on its ACK's sequence.
   */
  readonly ipCeMarks: number;
  /** Duplicate ACKs with the ecn bit (a PS sends an ACK again to carry a mark that reached it late), each a mark on its sequence. */
  readonly duplicateEcnMarks: number;
  /** The halvings all these marks caused (at most one per window). */
  readonly windowHalvings: number;
  /** The congestion window at the end of the call, and the smallest and largest it has been on this worker. */
  readonly window: number;
  readonly windowMin: number;
  readonly windowMax: number;
  /** The worker's retransmission timeout at the end of the call, its smoothed RTT and variation, in ms. */
  readonly rtoMs: number;
  readonly srttMs: number;
  readonly rttVarMs: number;
}

/** The counters a call updates while it runs. */
export class MutableAtpCounters {
  messagesSent = 0;
  messagesReceived = 0;
  retransmissions = 0;
  overflowPackets = 0;
  timeouts = 0;
  acks = 0;
  floatResults = 0;
  duplicateAcks = 0;
  ignored = 0;
  aggregatorMoves = 0;
  ecnMarks = 0;
  duplicateEcnMarks = 0;
}
