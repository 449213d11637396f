/** A job the installer holds, of either kind of switch state. */
import type { AtpInstalledJob } from './atp-job.js';
import type { InstalledJob } from './switchml-job.js';

export type AnyInstalledJob = InstalledJob | AtpInstalledJob;
