/**
 * atp.p4's switch-wide settings (docs/p4-programs.md §4, `atp_settings`):
 * the ECN threshold and the reclaim time, written on every switch that runs
 * atp.p4, since any of them may mark a packet of any job on its way and any
 * aggregating one reclaims leftovers. They come from the ATP jobs installed:
 *
 * - the ECN threshold is the smallest any job asks for (marking is per
 *   queue, not per job, so the most sensitive job decides; the others see a
 *   few more marks and halve their windows sooner), and no marking (the
 *   19-bit maximum, which atp.p4's docs give for "off") when none asks;
 * - the reclaim time is the longest any job asks for: a job's aggregates
 *   must not be taken for leftovers while its workers resend, and a longer
 *   reclaim time only keeps real leftovers a little longer.
 *
 * With no ATP job the program's own default comes back (no marking, 1 s):
 * a MODIFY of the default entry without an action, which P4Runtime defines
 * as the reset to the program's default.
 * Writes only what differs (the default entry is read first); a MODIFY is
 * journalled with the entry it replaced, so a failed setup restores it.
 */
import { action, defaultEntry, modify, type Action, type TableEntry } from '../../p4runtime/index.js';
import { ATP_ECN_THRESHOLD_OFF } from '../atp-limits.js';
import type { JobSpec } from '../job.js';
import { ATP_NAMES } from './atp-entries.js';
import { tableEntrySignature } from './entity-signature.js';
import type { SwitchSession } from './switch-session.js';
import type { WriteJournal } from './write-journal.js';

export interface AtpSettings {
  /** Queue depth in packets at which egress marks. */
  readonly ecnThreshold: number;
  readonly reclaimAfterUs: number;
}

/** The settings the ATP jobs among `specs` call for; undefined (the program's default) when there is none. */
export function atpSettingsFor(specs: readonly JobSpec[]): AtpSettings | undefined {
  const atp = specs.flatMap((s) => (s.atp ? [s.atp] : []));
  if (atp.length === 0) return undefined;
  const thresholds = atp.flatMap((a) => (a.ecnThreshold === undefined ? [] : [a.ecnThreshold]));
  return {
    ecnThreshold: thresholds.length === 0 ? ATP_ECN_THRESHOLD_OFF : Math.min(...thresholds),
    reclaimAfterUs: Math.max(...atp.map((a) => a.reclaimMs)) * 1000,
  };
}

/** The default entry to write: set_atp_settings, or no action (P4Runtime's reset to the program's default). */
export function atpSettingsEntry(settings: AtpSettings | undefined): TableEntry {
  const n = ATP_NAMES;
  return settings === undefined ? defaultEntry(n.settings) : defaultEntry(n.settings, action(n.setSettings, { ecn_threshold: settings.ecnThreshold, reclaim_after_us: settings.reclaimAfterUs }));
}

/** Whether the entry read back is what `settings` ask for; the program's default reads back with no action or as default_atp_settings. */
function holds(session: SwitchSession, now: TableEntry, settings: AtpSettings | undefined): boolean {
  if (settings === undefined) return now.action === undefined || (now.action as Action).name === ATP_NAMES.defaultSettings;
  return tableEntrySignature(session.schema, now) === tableEntrySignature(session.schema, atpSettingsEntry(settings));
}

/** The sessions of every switch that runs atp.p4. */
export function atpSessions(sessions: ReadonlyMap<string, SwitchSession>): SwitchSession[] {
  return [...sessions.values()].filter((s) => s.schema.tables.find(ATP_NAMES.settings) !== undefined);
}

/** Makes every atp.p4 switch hold `settings`, writing only where they differ; returns the number of switches written. */
export async function syncAtpSettings(sessions: ReadonlyMap<string, SwitchSession>, settings: AtpSettings | undefined, journal?: WriteJournal): Promise<number> {
  let written = 0;
  for (const session of atpSessions(sessions)) {
    const want = atpSettingsEntry(settings);
    const [now] = await session.readAll(defaultEntry(ATP_NAMES.settings));
    if (now && holds(session, now, settings)) continue;
    const undo = now ? modify(defaultEntry(ATP_NAMES.settings, now.action)) : undefined;
    if (journal) await journal.step(session, [modify(want)], () => undo);
    else await session.write([modify(want)]);
    written++;
  }
  return written;
}
