/** `p4ina demo`: the loopback main job (SwitchML through an emulated switch vs the ring baseline). */
export { runDemo, type DemoHooks, type DemoOutcome, type DemoRunEvent } from './run-demo.js';
export { parseDemoArgs, parseTensorSize, DEMO_USAGE, DEFAULT_DEMO_OPTIONS, type DemoOptions } from './demo-options.js';
export { DemoError, DEMO_ERROR_CODES, type DemoErrorCode } from './demo-error.js';
export { parseWorkerReport, summariseRun, failedRun, rowIsExact, type DemoRow, type WorkerOutcome, type DemoAlgorithm } from './demo-results.js';
export { formatResultsTable, formatResultsJson, formatBytes, type DemoJsonDocument } from './results-table.js';
export { ChildGroup, waitExit, type TrackedChild, type ChildExit, type SpawnRequest } from './child-group.js';
export { LossyRelay } from './lossy-relay.js';
export { builtCliEntry, packageRoot, switchMlSource } from './package-paths.js';
export { compileSwitchMl, type CompiledProgram } from './compile-switchml.js';
