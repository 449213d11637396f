/**
 * The installer: programs switches over P4Runtime for ordinary forwarding and
 * for SwitchML, ATP, Rina and OmniReduce jobs, and reconciles after restarts. See installer.ts.
 */
export * from './errors.js';
export * from './installer.js';
export { ProgramCache, type P4Compiler, type Pipeline, type ProgramCacheOptions } from './program-cache.js';
export { SwitchSession, type SessionCounters, type SessionOptions } from './switch-session.js';
export { installForwarding, forwardingEntity, FORWARDING_NAMES, type ForwardingReport } from './forwarding-install.js';
export { jobSwitchEntries, cellResets, SWITCHML_NAMES, type JobSwitchEntries, type JobEntryOptions } from './switchml-entries.js';
export { setupJob, teardownJob, type InstalledJob, type JobContext } from './switchml-job.js';
export { readJobState, type FoundJob, type SwitchJobState } from './job-state-read.js';
export { reconcileJobs, type ReconcileOptions, type ReconcileReport, type WantedJob } from './reconcile.js';
export { CellHistory } from './cell-history.js';
export { tableEntryKey, tableEntrySignature, groupSignature } from './entity-signature.js';
export { atpSwitchEntries, ATP_NAMES, type AtpSwitchEntries } from './atp-entries.js';
export { setupAtpJob, teardownAtpJob, atpSwitchesOf, type AtpInstalledJob, type AtpJobContext } from './atp-job.js';
export { atpSettingsFor, atpSettingsEntry, type AtpSettings } from './atp-settings.js';
export { AtpGenerations, type WallClock } from './atp-generation.js';
export { readAtpState, type AtpSwitchState, type FoundAtpJob } from './atp-state-read.js';
export { rinaSwitchEntries, rinaCellResets, RINA_NAMES, RINA_NEXT_MEMBER_RID, type RinaSwitchEntries } from './rina-entries.js';
export { setupRinaJob, teardownRinaJob, type RinaInstalledJob, type RinaJobContext } from './rina-job.js';
export { readRinaState, type RinaSwitchState, type FoundRinaJob } from './rina-state-read.js';
export { omniReduceSwitchEntries, omniReduceCellResets, OMNIREDUCE_NAMES, type OmniReduceJobOnSwitch, type OmniReduceSwitchEntries } from './omnireduce-entries.js';
export { omniReduceJobOnSwitch, omniReduceEntriesAt, type OmniReduceEntriesAt } from './omnireduce-job-on-switch.js';
export { setupOmniReduceJob, teardownOmniReduceJob, type OmniReduceInstalledJob, type OmniReduceJobContext } from './omnireduce-job.js';
export { readOmniReduceState, type OmniReduceSwitchState, type FoundOmniReduceJob } from './omnireduce-state-read.js';
export type { AnyInstalledJob } from './installed-job.js';
