/** A job the installer holds, of any kind of switch state. */
import type { AtpInstalledJob } from './atp-job.js';
import type { OmniReduceInstalledJob } from './omnireduce-job.js';
import type { RinaInstalledJob } from './rina-job.js';
import type { InstalledJob } from './switchml-job.js';

export type AnyInstalledJob = InstalledJob | AtpInstalledJob | RinaInstalledJob | OmniReduceInstalledJob;
