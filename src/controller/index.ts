/**
 * The controller's model: topology files and their derived views, job specs,
 * the rollout planner and the capacity allocator. Pure logic (reading files
 * aside); the part that talks P4Runtime to switches builds on it.
 * Format of topology files: docs/topology.md.
 */
export * from './errors.js';
export * from './topology.js';
export { parseTopology, parseTopologyText, loadTopology, type ParseOptions } from './topology-load.js';
export { TopologyGraph, shortestPath, type Adjacency, type Path, type PathHop } from './topology-graph.js';
export * from './topology-views.js';
export * from './forwarding-plan.js';
export * from './job.js';
export { parseJobSpec, defineJob, loadJobSpec } from './job-parse.js';
export * from './job-placement.js';
export * from './rollout-plan.js';
export { planRollout, type RolloutOptions } from './rollout.js';
export type { AncestorRule } from './rollout-switchml.js';
export type { AtpRolloutOptions } from './rollout-atp.js';
export * from './atp-plan.js';
export * from './atp-limits.js';
export * from './atp-agents.js';
export * from './rina-agents.js';
export * from './omnireduce-agents.js';
export * from './rollout-stages.js';
export * from './capacity-limits.js';
export * from './capacity.js';
export * from './capacity-snapshot.js';
export * from './job-demand.js';
export { RangePool, type Span } from './range-pool.js';
export { compareNames, sortNames } from './names.js';
