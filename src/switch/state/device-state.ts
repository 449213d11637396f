/**
 * The state of one P4Runtime device: the realized pipeline and its
 * forwarding state, a saved-but-uncommitted pipeline, and the P4Runtime
 * operations on them (SetForwardingPipelineConfig, GetForwardingPipelineConfig,
 * Write with its atomicity modes, Read). Arbitration and gRPC belong to the
 * runtime server; this class answers with Status values, never throws for
 * bad input.
 *
 * Every action first checks the config (buildPipeline: P4Info well-formed,
 * memory budget; then the device config hooks) without allocating a store.
 * VERIFY stops there. VERIFY_AND_SAVE keeps the checked pipeline; reads and
 * writes go to it from then on (the spec wants them to use the new P4Info),
 * allocating its stores on first use, while the data plane keeps running the
 * realized one. COMMIT realizes the saved pipeline with the writes made since
 * the save: they were applied to its state as they came, which is the
 * replay. Realizing allocates the stores, lets the device prepare its data
 * plane (which may still refuse), and only then swaps.
 *
 * DATAPLANE_ATOMIC is honoured because a batch is applied synchronously: the
 * packet pipeline runs on the same event loop and cannot see a batch half
 * done, so an all-or-none batch (as for ROLLBACK_ON_ERROR) is atomic for it.
 */
import { moduleLogger, type Logger } from '../../log/logger.js';
import type * as p4i from '../../proto/p4i.js';
import type * as p4r from '../../proto/p4r.js';
import { monotonicClock, type Clock } from './clock.js';
import type { DigestConfig } from './digests.js';
import { EntityError, invalidArgument, notFound, resourceExhausted } from './entity-error.js';
import type { ForwardingState } from './forwarding-state.js';
import { buildPipeline, DEFAULT_PIPELINE_LIMITS, type InstalledPipeline, type PipelineLimits } from './pipeline-config.js';
import { reconcileInto } from './reconcile.js';
import { Code, OK, status, type Status } from './status.js';

export type { InstalledPipeline } from './pipeline-config.js';

export type Atomicity = 'CONTINUE_ON_ERROR' | 'ROLLBACK_ON_ERROR' | 'DATAPLANE_ATOMIC';

export type PipelineListener = (pipeline: InstalledPipeline | undefined) => void;

/** What the data plane does with a pipeline's device config. Each may throw EntityError to refuse the config. */
export interface DeviceConfigHooks {
  /** Checks the device config against the pipeline (e.g. that the executor can run it) without allocating its stores. */
  verify(pipeline: InstalledPipeline): void;
  /** Fills a pipeline's stores when they are allocated (e.g. the program's const entries). */
  populate?(pipeline: InstalledPipeline, forwarding: ForwardingState): void;
  /** Makes the data plane of a pipeline about to be realized, its stores allocated. */
  prepare?(pipeline: InstalledPipeline): void;
}

export interface DeviceStateOptions {
  readonly logger?: Logger;
  readonly deviceConfig?: DeviceConfigHooks;
  /** Stamps table hits and measures idle timeouts in every pipeline this device builds. */
  readonly clock?: Clock;
  /** What one pipeline may declare and take (memory budget, array cells, …); defaults in DEFAULT_PIPELINE_LIMITS. */
  readonly limits?: Partial<PipelineLimits>;
}

function errorStatus(e: unknown, log: Logger, during: string): Status {
  if (e instanceof EntityError) return e.status;
  // Not a refusal but a bug: report it as INTERNAL rather than crash the server.
  log.error({ err: e }, `internal error during ${during}`);
  return status(Code.INTERNAL, `internal error during ${during}: ${e instanceof Error ? e.message : String(e)}`);
}

export class DeviceState {
  private realized: InstalledPipeline | undefined;
  private saved: InstalledPipeline | undefined;
  private readonly listeners = new Set<PipelineListener>();
  private readonly log: Logger;
  private readonly hooks: DeviceConfigHooks | undefined;
  /** Stamps table hits and measures idle timeouts in every pipeline this device builds. */
  readonly clock: Clock;
  readonly limits: PipelineLimits;

  constructor(options: DeviceStateOptions = {}) {
    this.log = options.logger ?? moduleLogger('switch.state');
    this.hooks = options.deviceConfig;
    this.clock = options.clock ?? monotonicClock;
    this.limits = { ...DEFAULT_PIPELINE_LIMITS, ...options.limits };
  }

  /** buildPipeline plus the device-config check, so a config the data plane cannot run fails at VERIFY; allocates no store. */
  private build(config: p4r.ForwardingPipelineConfig__Output | null): InstalledPipeline {
    const hooks = this.hooks;
    const built = buildPipeline(config, {
      clock: this.clock,
      limits: this.limits,
      ...(hooks?.populate ? { populate: (p: InstalledPipeline, f: ForwardingState) => hooks.populate!(p, f) } : {}),
    });
    try {
      hooks?.verify(built);
    } catch (e) {
      if (e instanceof EntityError) throw e;
      // The config is the client's: whatever it makes the checks trip on is its fault, not an internal error.
      this.log.warn({ err: e }, 'a device config made its check fail unexpectedly; refused');
      throw invalidArgument(`the device config cannot be used: ${e instanceof Error ? e.message : String(e)}`);
    }
    return built;
  }

  /** The realized (committed) pipeline: what the data plane runs. */
  get pipeline(): InstalledPipeline | undefined {
    return this.realized;
  }

  /** The pipeline that reads and writes address: the saved one after VERIFY_AND_SAVE, else the realized one. */
  get current(): InstalledPipeline | undefined {
    return this.saved ?? this.realized;
  }

  /** The forwarding state the data plane reads (the realized pipeline's). */
  get forwarding(): ForwardingState | undefined {
    return this.realized?.forwarding;
  }

  setPipeline(action: string, config: p4r.ForwardingPipelineConfig__Output | null): Status {
    try {
      switch (action) {
        case 'VERIFY':
          this.build(config);
          return OK;
        case 'VERIFY_AND_SAVE':
          this.saved = this.build(config);
          this.log.info({ cookie: this.saved.cookie }, 'pipeline saved; reads and writes now use its P4Info');
          return OK;
        case 'VERIFY_AND_COMMIT':
          this.realize(this.build(config), action);
          return OK;
        case 'COMMIT': {
          if (config) throw invalidArgument('COMMIT realizes the saved config: send no config with it');
          if (!this.saved) throw notFound('there is no saved config to commit: VERIFY_AND_SAVE one first');
          this.realize(this.saved, action);
          return OK;
        }
        case 'RECONCILE_AND_COMMIT': {
          const next = this.build(config);
          if (this.realized) reconcileInto(this.realized.forwarding, next.forwarding);
          this.realize(next, action);
          return OK;
        }
        default:
          throw invalidArgument(`SetForwardingPipelineConfig action ${action || 'UNSPECIFIED'} is not valid; use VERIFY, VERIFY_AND_SAVE, VERIFY_AND_COMMIT, COMMIT or RECONCILE_AND_COMMIT`);
      }
    } catch (e) {
      return errorStatus(e, this.log, `SetForwardingPipelineConfig ${action}`);
    }
  }

  getPipeline(responseType: string): { status: Status; config?: p4r.ForwardingPipelineConfig } {
    const p = this.current;
    const valid = ['ALL', 'COOKIE_ONLY', 'P4INFO_AND_COOKIE', 'DEVICE_CONFIG_AND_COOKIE'];
    if (!valid.includes(responseType)) return { status: status(Code.INVALID_ARGUMENT, `response_type ${responseType} is not valid; use one of ${valid.join(', ')}`) };
    // No pipeline yet: the spec leaves `config` unset.
    if (!p) return { status: OK };
    const config: p4r.ForwardingPipelineConfig = {};
    if (p.cookie !== undefined) config.cookie = { cookie: p.cookie };
    if (responseType === 'ALL' || responseType === 'P4INFO_AND_COOKIE') config.p4info = p.p4info as p4i.P4Info;
    if (responseType === 'ALL' || responseType === 'DEVICE_CONFIG_AND_COOKIE') config.p4_device_config = p.deviceConfig;
    return { status: OK, config };
  }

  write(updates: readonly p4r.Update__Output[], atomicity: Atomicity): Status[] | Status {
    const target = this.current?.forwarding;
    if (!target) return status(Code.FAILED_PRECONDITION, 'no forwarding pipeline is set: call SetForwardingPipelineConfig first');
    if (atomicity === 'CONTINUE_ON_ERROR') return updates.map((u, i) => this.applyOne(target, u, i));
    if (atomicity !== 'ROLLBACK_ON_ERROR' && atomicity !== 'DATAPLANE_ATOMIC') {
      return status(Code.UNIMPLEMENTED, `atomicity ${String(atomicity)} is not supported`);
    }
    target.undo.begin();
    for (let i = 0; i < updates.length; i++) {
      const result = this.applyOne(target, updates[i]!, i);
      if (result.code === Code.OK) continue;
      target.undo.rollback();
      const aborted = status(Code.ABORTED, `not applied: update ${i} failed and the ${atomicity} batch was rolled back`);
      return updates.map((_, j) => (j === i ? result : aborted));
    }
    target.undo.commit();
    return updates.map(() => OK);
  }

  /**
   * Reads: every request entity is checked first (the first refusal is returned, naming the
   * entity); the entities then come as the caller iterates (see planRead).
   */
  read(entities: readonly p4r.Entity__Output[]): Status | Iterable<p4r.Entity> {
    const plan = this.planRead(entities);
    if ('status' in plan) return plan.status;
    if ('statuses' in plan) {
      const i = plan.statuses.findIndex((s) => s.code !== Code.OK);
      const s = plan.statuses[i]!;
      return status(s.code, entities.length > 1 ? `entity ${i}: ${s.message}` : s.message);
    }
    const results = plan.results;
    return (function* all(): Generator<p4r.Entity> {
      for (const r of results) yield* r;
    })();
  }

  /**
   * Checks a read request without reading anything yet: `status` when it fails as a whole (no
   * pipeline), `statuses` (one per entity, OK for the good ones) when some entity is malformed,
   * else one lazy iterable per entity, read from `forwarding` (the state addressed when the read
   * began) as the caller iterates. Iterating costs memory for one entity at a time; the caller
   * should check `current` between steps if it cares whether the pipeline changed meanwhile.
   */
  planRead(
    entities: readonly p4r.Entity__Output[],
  ): { status: Status } | { statuses: Status[] } | { results: Iterable<p4r.Entity>[]; pipeline: InstalledPipeline } {
    const pipeline = this.current;
    if (!pipeline) return { status: status(Code.FAILED_PRECONDITION, 'no forwarding pipeline is set: call SetForwardingPipelineConfig first') };
    const target = pipeline.forwarding;
    const results: Iterable<p4r.Entity>[] = [];
    const statuses: Status[] = [];
    let failed = false;
    for (const entity of entities) {
      try {
        results.push(target.read(entity));
        statuses.push(OK);
      } catch (e) {
        failed = true;
        results.push([]);
        statuses.push(errorStatus(e, this.log, 'Read'));
      }
    }
    return failed ? { statuses } : { results, pipeline };
  }

  digestConfig(digestId: number): DigestConfig | undefined {
    return this.realized?.forwarding.digests.config(digestId);
  }

  onPipelineChange(listener: PipelineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private applyOne(target: ForwardingState, update: p4r.Update__Output, index: number): Status {
    try {
      target.apply(update);
      return OK;
    } catch (e) {
      const s = errorStatus(e, this.log, 'Write');
      this.log.trace({ index, code: s.code, reason: s.message }, 'update refused');
      return s;
    }
  }

  /** Allocates the pipeline's stores, lets the device prepare its data plane (which may refuse), then swaps. */
  private realize(next: InstalledPipeline, action: string): void {
    try {
      void next.forwarding;
      this.hooks?.prepare?.(next);
    } catch (e) {
      if (e instanceof EntityError) throw e;
      if (e instanceof RangeError) {
        throw resourceExhausted(`the switch could not allocate the pipeline (estimated ${next.estimate.bytes} bytes): ${e.message}; the old pipeline keeps running`);
      }
      throw e;
    }
    this.realized = next;
    this.saved = undefined;
    this.log.info({ action, cookie: next.cookie, tables: next.schema.tables.size, estimatedBytes: next.estimate.bytes }, 'pipeline realized');
    for (const listener of [...this.listeners]) {
      try {
        listener(next);
      } catch (e) {
        this.log.error({ err: e }, 'a pipeline-change listener threw');
      }
    }
  }
}
