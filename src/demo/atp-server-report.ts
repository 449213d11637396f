/**
 * What the demo reads from ATP's parameter server: its last stdout line
 * (`p4ina agent atp-ps --json`, AtpPsReport) reduced to where each result
 * packet was aggregated. A report that lacks a field is an Error saying which.
 */
export interface AtpServerSummary {
  /** Result packets (sequences) the PS completed. */
  readonly sequences: number;
  /** Of those, the ones that arrived as one whole aggregate from the switch. */
  readonly bySwitch: number;
  /** The rest: summed by the PS from pieces (collided, resent, partial aggregates). */
  readonly byServer: number;
  /** Pieces the PS summed for those, and the pieces that came with a collision or as a resend. */
  readonly piecesSummed: number;
  readonly collisionPieces: number;
  readonly resendPieces: number;
}

export function parseAtpServerReport(stdout: string): AtpServerSummary {
  const last = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'))
    .at(-1);
  if (last === undefined) throw new Error('no JSON report on its stdout');
  let stats: unknown;
  try {
    stats = (JSON.parse(last) as { stats?: unknown }).stats;
  } catch {
    throw new Error('its report is not valid JSON');
  }
  if (typeof stats !== 'object' || stats === null) throw new Error('its report has no "stats"');
  const read = (name: string): number => {
    const value = (stats as Record<string, unknown>)[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Error(`its stats lack "${name}"`);
    return value;
  };
  return {
    sequences: read('completed'),
    bySwitch: read('completedByOnePiece'),
    byServer: read('completedInSoftware'),
    piecesSummed: read('piecesSummed'),
    collisionPieces: read('collisionPieces'),
    resendPieces: read('resendPieces'),
  };
}

/** The share of result packets the switch aggregated whole; undefined when there were none. */
export function switchShare(summary: AtpServerSummary): number | undefined {
  return summary.sequences > 0 ? summary.bySwitch / summary.sequences : undefined;
}
