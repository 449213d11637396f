/**
 * Checking a ForwardingPipelineConfig before it is saved or realized: the
 * P4Info must be present and well-formed (p4info-checks.ts, then P4Schema),
 * within what this switch can hold, and within its memory budget
 * (pipeline-budget.ts). Problems are INVALID_ARGUMENT with the reason; a
 * pipeline over the budget is RESOURCE_EXHAUSTED with the figures.
 *
 * Checking allocates no store. A checked pipeline allocates its forwarding
 * state (tables, counter, meter and register arrays, …) the first time
 * something asks for it: when it is committed, or when a Write or Read
 * addresses it after VERIFY_AND_SAVE. So VERIFY and VERIFY_AND_SAVE of a
 * large program cost only its P4Info and device config.
 */
import { P4inaError } from '../../errors/p4ina-error.js';
import { P4Schema } from '../../p4info/schema.js';
import type * as p4i from '../../proto/p4i.js';
import type * as p4r from '../../proto/p4r.js';
import { monotonicClock, type Clock } from './clock.js';
import { EntityError, invalidArgument } from './entity-error.js';
import { ForwardingState } from './forwarding-state.js';
import { checkP4Info, type P4InfoLimits } from './p4info-checks.js';
import { checkBudget, estimatePipeline, type PipelineEstimate } from './pipeline-budget.js';

/** The most cells an indexed counter, meter or register may have by default. */
export const MAX_ARRAY_CELLS = 1 << 24;

export interface PipelineLimits extends P4InfoLimits {
  /** The estimated memory one pipeline may take (pipeline-budget.ts), in bytes. */
  readonly memoryBudgetBytes: number;
}

export const DEFAULT_PIPELINE_LIMITS: PipelineLimits = {
  memoryBudgetBytes: 1024 * 1024 * 1024,
  maxArrayCells: MAX_ARRAY_CELLS,
  maxTableEntries: 1 << 24,
  maxBitwidth: 65_536,
  maxObjects: 65_536,
};

/** Fills the stores of a pipeline when they are allocated (the program's const entries); throws EntityError. */
export type StorePopulator = (pipeline: InstalledPipeline, forwarding: ForwardingState) => void;

export class InstalledPipeline {
  private stores: ForwardingState | undefined;

  constructor(
    readonly schema: P4Schema,
    readonly p4info: p4i.P4Info__Output,
    /** The p4_device_config bytes exactly as the controller sent them. */
    readonly deviceConfig: Buffer,
    /** The uint64 cookie as a decimal string; undefined when the config had none (not the same as 0). */
    readonly cookie: string | undefined,
    /** The memory this pipeline may take, estimated before anything was allocated. */
    readonly estimate: PipelineEstimate,
    private readonly clock: Clock,
    private readonly populate: StorePopulator | undefined,
  ) {}

  /**
   * The pipeline's stores: tables, counters, meters, registers, PRE, digests, value sets,
   * action profiles. Allocated (and filled with the program's const entries) on first use.
   */
  get forwarding(): ForwardingState {
    if (!this.stores) {
      const stores = new ForwardingState(this.schema, this.clock);
      this.populate?.(this, stores);
      this.stores = stores;
    }
    return this.stores;
  }

  /** Whether the stores exist yet. */
  get allocated(): boolean {
    return this.stores !== undefined;
  }

  /** Stores of this pipeline's shape without their arrays (every counter, meter and register of 0 cells), for checks. */
  hollowForwarding(): ForwardingState {
    return new ForwardingState(this.schema, this.clock, { allocate: false });
  }
}

function checkRealizable(schema: P4Schema): void {
  for (const t of schema.tables.all) {
    for (const f of t.matchFields.all) {
      if (f.bitwidth <= 0) throw invalidArgument(`match field ${f.name} of table ${t.name} has no bitwidth (string-translated types are not supported)`);
    }
  }
  for (const a of schema.actions.all) {
    for (const p of a.params.all) {
      if (p.bitwidth <= 0) throw invalidArgument(`parameter ${p.name} of action ${a.name} has no bitwidth (string-translated types are not supported)`);
    }
  }
}

export interface PipelineOptions {
  readonly clock?: Clock;
  readonly limits?: Partial<PipelineLimits>;
  readonly populate?: StorePopulator;
}

/**
 * Verifies a config: the P4Info well-formed, realizable and within the memory budget. Allocates
 * no store (see InstalledPipeline.forwarding). Throws EntityError: INVALID_ARGUMENT, or
 * RESOURCE_EXHAUSTED over the budget.
 */
export function buildPipeline(config: p4r.ForwardingPipelineConfig__Output | null, options: PipelineOptions | Clock = {}): InstalledPipeline {
  const { clock = monotonicClock, limits: given, populate } = typeof options === 'function' ? { clock: options } : options;
  const limits = { ...DEFAULT_PIPELINE_LIMITS, ...given };
  if (!config) throw invalidArgument('the request has no config: send a ForwardingPipelineConfig with p4info and p4_device_config');
  if (!config.p4info) throw invalidArgument('the config has no p4info');
  let schema: P4Schema;
  try {
    checkP4Info(config.p4info, limits);
    schema = new P4Schema(config.p4info);
  } catch (e) {
    if (e instanceof EntityError) throw e;
    if (P4inaError.is(e)) throw invalidArgument(`the P4Info is inconsistent: ${e.message}`);
    throw invalidArgument(`the P4Info cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  checkRealizable(schema);
  const deviceConfig = config.p4_device_config ?? Buffer.alloc(0);
  const estimate = estimatePipeline(schema, deviceConfig.length);
  checkBudget(estimate, limits.memoryBudgetBytes);
  return new InstalledPipeline(schema, config.p4info, deviceConfig, config.cookie ? config.cookie.cookie : undefined, estimate, clock, populate);
}
