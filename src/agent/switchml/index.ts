/**
 * The SwitchML host agent (docs/wire.md §4): a worker behind the shared
 * AllReduce API, its numbers and timeouts, a program entry for `p4ina agent`,
 * and an exact reference model of the switch's SwitchML logic.
 */
export type { AllReduce, AllReduceCallOptions, AllReduceResult, AllReduceStats } from '../allreduce.js';
export { SwitchMlWorker } from './switchml-worker.js';
export {
  resolveSwitchMlOptions,
  SWITCHML_LOOPBACK_TIMING,
  SWITCHML_MININET_TIMING,
  type ResolvedSwitchMlOptions,
  type SwitchMlBackoff,
  type SwitchMlTiming,
  type SwitchMlWorkerOptions,
} from './switchml-options.js';
export { RttEstimator, type RetransmissionPolicy } from './rtt-estimator.js';
export type { SwitchMlStats } from './switchml-stats.js';
export { SWITCHML_ERROR_CODES, SwitchMlError, type SwitchMlErrorCode } from './switchml-error.js';
export {
  chunkExponents,
  exponentOfMagnitudeBits,
  jobChunkExponents,
  MAX_CHUNK_EXPONENT,
  MIN_CHUNK_EXPONENT,
  ScaleTable,
  scaleExponent,
  switchMlErrorBound,
} from './quantisation.js';
export { ReferenceSwitchMl, type ReferenceSwitchOptions, type SwitchMlDropReason, type SwitchMlSwitchCounters, type SwitchMlVerdict } from './reference-switch.js';
export type { ReferenceJobConfig } from './reference-switch-jobs.js';
export type { SlotCopyState } from './reference-switch-registers.js';
export {
  formatSwitchMlReport,
  openSwitchMlTransport,
  runSwitchMlWorker,
  switchMlWorkerCommand,
  switchMlWorkerMain,
  type SwitchMlWorkerReport,
} from './worker-main.js';
export { parseSwitchMlWorkerArgs, SWITCHML_WORKER_USAGE, type SwitchMlTransportSpec, type SwitchMlWorkerMainOptions } from './worker-args.js';
