/**
 * What one Rina allreduce call cost on one worker, beyond the fields every
 * AllReduce reports (`messagesSent` counts first transmissions and
 * retransmissions).
 */
import type { AllReduceStats } from '../allreduce.js';
import type { RinaRole } from './ring-config.js';

export interface RinaStats extends AllReduceStats {
  readonly algorithm: 'rina';
  readonly role: RinaRole;
  /** Members in the ring. */
  readonly ringLength: number;
  /** The epochs of the call's exponent pass and data pass. */
  readonly epochs: readonly [number, number];
  /** Chunks per segment in the data pass (padding included) and the window of slots. */
  readonly chunksPerSegment: number;
  readonly window: number;
  /** Deadlines that passed (each followed by a retransmission, or the failure). */
  readonly timeouts: number;
  /** ACKs this worker sent. */
  readonly acksSent: number;
  /** Packets received again (duplicates, retransmissions whose ACK was lost): answered, not used twice. */
  readonly duplicates: number;
  /** Packets of an earlier pass, acknowledged again. */
  readonly stale: number;
  /** Datagrams that were not a Rina packet of this job for this worker. */
  readonly ignored: number;
  /** The ring-facing retransmission timeout (RING_DATA to its ACK) at the end of the call, the smoothed RTT and its variation, in ms. */
  readonly rtoMs: number;
  readonly srttMs: number;
  readonly rttVarMs: number;
  /** The timeout of a CONTRIBUTION (to its round's result) at the end of the call, in ms. */
  readonly roundRtoMs: number;
}

/** The counters a call updates while it runs. */
export class MutableRinaCounters {
  messagesSent = 0;
  messagesReceived = 0;
  retransmissions = 0;
  timeouts = 0;
  acksSent = 0;
  duplicates = 0;
  stale = 0;
  ignored = 0;
}
