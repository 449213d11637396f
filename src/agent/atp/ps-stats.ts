/**
 * What an ATP parameter server did, per job and in total (live counters;
 * `snapshot` copies them). The fallback work is what the PS summed itself:
 * `piecesSummed` over sequences `completedInSoftware`.
 */

export class AtpPsCounters {
  /** Datagrams handed to the PS. */
  datagrams = 0;
  /** Pieces kept for a sequence (not duplicates, not dropped). */
  pieces = 0;
  /** Of those: with `collision` (an aggregator held by another tag), with `resend` (a flush or a lone resend), float32 with `overflow`. */
  collisionPieces = 0;
  resendPieces = 0;
  overflowPieces = 0;
  /** Pieces that were aggregates: more than one worker, and level-1 aggregates (edge 1, several bitmap1 bits). */
  aggregatePieces = 0;
  level1Aggregates = 0;
  /** Pieces covering exactly the workers of a piece already kept (network duplicates, repeated resends). */
  duplicatePieces = 0;
  /** Pieces of a sequence already completed; those with `resend` got the ACK again (`reAcks`). */
  latePieces = 0;
  reAcks = 0;
  /** Sequences completed, by one piece (the switches did it all) or by summing several (fallback work). */
  completed = 0;
  completedByOnePiece = 0;
  completedInSoftware = 0;
  piecesSummed = 0;
  /** Results sent as float32 (a piece overflowed, or the integer sum did not fit). */
  floatResults = 0;
  /** Window positions moved to a fresh aggregator after a collision. */
  aggregatorMoves = 0;
  /** ACKs of completed sequences sent again to free an aggregator a collision showed still held (docs/atp.md). */
  sweeps = 0;
  /** Pieces of this job that arrived with CE in their IPv4 header (read on a UDP wire, or by an IPv4 CE observer). */
  ipCeMarks = 0;
  /** ACKs sent again with the ecn bit, for a CE mark that came after the sequence's ACK had gone without it. */
  markedReAcks = 0;
  /** ACK datagrams sent, and sends the transport refused. */
  acksSent = 0;
  ackSendFailures = 0;
  /** Dropped: not a piece of a configured job (malformed, unknown job, an ACK, bits outside the job, wrong value count). */
  strayDrops = 0;
  /** Dropped: a sequence outside the window the PS accepts. */
  outOfWindowDrops = 0;
  /** Dropped: a sequence already held `maxPieces` pieces. */
  overLimitDrops = 0;
  /** Unfinished sequences forgotten because the job moved W past them (stray pieces, mostly). */
  staleSequences = 0;
  /** Cover searches stopped at their step budget. */
  coverSearchesExhausted = 0;
}

export type AtpPsStats = Readonly<AtpPsCounters>;

/** A copy of the counters at this moment. */
export function snapshotPsCounters(c: AtpPsCounters): AtpPsStats {
  return { ...c };
}

/** `into` += `from`, field by field. */
export function addPsCounters(into: AtpPsCounters, from: AtpPsStats): void {
  for (const key of Object.keys(from) as (keyof AtpPsCounters)[]) into[key] += from[key];
}
