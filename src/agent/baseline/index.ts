/**
 * The TCP baselines: ring AllReduce and a parameter server, behind the shared
 * AllReduce API, with in-process runners and process entries.
 */
export type { AllReduce, AllReduceCallOptions, AllReduceResult, AllReduceStats } from '../allreduce.js';
export { BASELINE_ERROR_CODES, BaselineError, type BaselineErrorCode } from './baseline-error.js';
export * from './defaults.js';
export { parseEndpoint, parseEndpointList, formatEndpoint, type Endpoint } from './endpoint.js';
export { Listener } from './listener.js';
export { RingAllReduce, MAX_RING_SIZE, type RingOptions, type RingStats } from './ring-allreduce.js';
export { RingSchedule } from './ring-schedule.js';
export { ParameterServer, MAX_PS_WORKERS, DEFAULT_HANDSHAKE_TIMEOUT_MS, type ParameterServerOptions } from './parameter-server.js';
export { ParameterServerWorker, type ParameterServerWorkerOptions, type ParameterServerStats } from './ps-worker.js';
export { connectLocalRing, runLocalRing, type LocalRingOptions } from './local-ring.js';
export { connectLocalParameterServer, runLocalParameterServer, type LocalParameterServer, type LocalParameterServerOptions } from './local-parameter-server.js';
export type { LocalRunResult } from './local-run.js';
export * from './accuracy.js';
export { seededTensor } from './seeded-tensor.js';
export { parseRingWorkerArgs, runRingWorker, ringWorkerMain, RING_WORKER_USAGE, type RingWorkerArgs } from './ring-worker-main.js';
export { parsePsArgs, runPsServer, runPsWorker, psMain, PS_USAGE, type PsServerArgs, type PsWorkerArgs } from './ps-main.js';
export type { WorkerArgs } from './worker-args.js';
export type { WorkerReport } from './worker-run.js';
export type { MainIo } from './worker-process.js';
