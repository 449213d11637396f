/**
 * Why the reference SwitchML switch drops an update, and what became of the
 * updates it kept, with the index each has in `p4/switchml.p4`'s counters
 * (`switchml_drops`, `switchml_outcomes`; docs/p4-programs.md), so that a test
 * can compare the model's counters with the ones read back from a switch.
 */

export type SwitchMlDropReason =
  /** Version ≠ 1 (P4 code 1). */
  | 'badVersion'
  /** Neither an UPDATE nor a RECOVERY_UPDATE (2). */
  | 'notUpdate'
  /** `elem_count` ≠ the compiled count (3). */
  | 'badElementCount'
  /** The packet ends before its header or its values do (4). */
  | 'malformed'
  /** Bytes after the values (5). */
  | 'badLength'
  /** No jobs entry (6). */
  | 'unknownJob'
  /** `slot` ≥ the job's pool size (7). */
  | 'slotOutOfRange'
  /** Job base + slot past the registers (8): a bad jobs entry. */
  | 'slotBeyondRegisters'
  /** No workers entry for (job, worker) (9). */
  | 'unknownWorker'
  /** The worker entry checks the IPv4 source and UDP source port, and one differs (10). */
  | 'wrongSource'
  /** A retransmission for a copy whose round is still filling (11). */
  | 'incompleteRetransmission'
  /** A late update of an earlier round or operation (12). */
  | 'stale';

/** `switchml_drops` index of each reason. */
export const SWITCHML_DROP_CODES: Readonly<Record<SwitchMlDropReason, number>> = Object.freeze({
  badVersion: 1,
  notUpdate: 2,
  badElementCount: 3,
  malformed: 4,
  badLength: 5,
  unknownJob: 6,
  slotOutOfRange: 7,
  slotBeyondRegisters: 8,
  unknownWorker: 9,
  wrongSource: 10,
  incompleteRetransmission: 11,
  stale: 12,
});

/**
 * `takeovers` counts updates that started their round over a copy that was
 * filling another one (docs/p4-programs.md §3, "Recovery"); each is also
 * counted as `aggregated` or `results`.
 */
export type SwitchMlOutcome = 'aggregated' | 'results' | 'retransmittedResults' | 'takeovers';

/** `switchml_outcomes` index of each outcome. */
export const SWITCHML_OUTCOME_CODES: Readonly<Record<SwitchMlOutcome, number>> = Object.freeze({
  aggregated: 1,
  results: 2,
  retransmittedResults: 3,
  takeovers: 4,
});

export type SwitchMlSwitchCounters = Record<SwitchMlDropReason | SwitchMlOutcome, number>;

export function zeroCounters(): SwitchMlSwitchCounters {
  const counters = {} as SwitchMlSwitchCounters;
  for (const reason of Object.keys(SWITCHML_DROP_CODES) as SwitchMlDropReason[]) counters[reason] = 0;
  for (const outcome of Object.keys(SWITCHML_OUTCOME_CODES) as SwitchMlOutcome[]) counters[outcome] = 0;
  return counters;
}
