/**
 * p4ina's library entry point (`import … from 'p4ina'`): the P4Runtime client
 * library, the P4Info model, and the INA controller (topology and job files,
 * the rollout planner, the installer that programs switches and tears jobs
 * down). The switch, compiler and agents are used through the `p4ina` command.
 */
export * from './p4runtime/index.js';
export * from './p4info/index.js';
export * from './controller/index.js';
export * from './controller/install/index.js';
export { formatRolloutPlan } from './controller/plan-text.js';
export { compilePipeline, type PipelineCompileOptions, type PipelineCompileResult } from './p4c/pipeline-compiler.js';
export { P4inaError } from './errors/p4ina-error.js';
