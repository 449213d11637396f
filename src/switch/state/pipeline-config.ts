/**
 * Checking a ForwardingPipelineConfig before it is saved or realized: the
 * P4Info must be present and consistent (P4Schema), and within what this
 * switch can hold; the device config is kept as given (the executor
 * interprets it). Problems are INVALID_ARGUMENT with the reason.
 */
import { P4inaError } from '../../errors/p4ina-error.js';
import { P4Schema } from '../../p4info/schema.js';
import type * as p4i from '../../proto/p4i.js';
import type * as p4r from '../../proto/p4r.js';
import { invalidArgument } from './entity-error.js';
import { monotonicClock, type Clock } from './clock.js';
import { ForwardingState } from './forwarding-state.js';

/** The most cells an indexed counter, meter or register may have here (memory is allocated up front). */
export const MAX_ARRAY_CELLS = 1 << 24;

export interface InstalledPipeline {
  readonly schema: P4Schema;
  readonly p4info: p4i.P4Info__Output;
  /** The p4_device_config bytes exactly as the controller sent them. */
  readonly deviceConfig: Buffer;
  /** The uint64 cookie as a decimal string; undefined when the config had none (not the same as 0). */
  readonly cookie: string | undefined;
  /** The pipeline's stores: tables, counters, meters, registers, PRE, digests, value sets, action profiles. */
  readonly forwarding: ForwardingState;
}

function checkRealizable(schema: P4Schema): void {
  const arrays = [
    ...schema.counters.all.map((c) => ['counter', c.name, c.size] as const),
    ...schema.meters.all.map((m) => ['meter', m.name, m.size] as const),
    ...schema.registers.all.map((r) => ['register', r.name, r.size] as const),
  ];
  for (const [kind, name, size] of arrays) {
    if (!Number.isSafeInteger(size) || size < 0) throw invalidArgument(`${kind} ${name} has an invalid size ${size}`);
    if (size > MAX_ARRAY_CELLS) throw invalidArgument(`${kind} ${name} has ${size} cells; this switch holds at most ${MAX_ARRAY_CELLS} per array`);
  }
  for (const t of schema.tables.all) {
    for (const f of t.matchFields.all) {
      if (f.bitwidth <= 0) throw invalidArgument(`match field ${f.name} of table ${t.name} has no bitwidth (string-translated types are not supported)`);
    }
    if (t.directCounterId && !schema.directCounters.find(t.directCounterId)) {
      throw invalidArgument(`table ${t.name} refers to direct counter id ${t.directCounterId}, which the P4Info does not define`);
    }
    if (t.directMeterId && !schema.directMeters.find(t.directMeterId)) {
      throw invalidArgument(`table ${t.name} refers to direct meter id ${t.directMeterId}, which the P4Info does not define`);
    }
    if (t.implementationId && !schema.actionProfiles.find(t.implementationId)) {
      throw invalidArgument(`table ${t.name} refers to action profile id ${t.implementationId}, which the P4Info does not define`);
    }
  }
  for (const a of schema.actions.all) {
    for (const p of a.params.all) {
      if (p.bitwidth <= 0) throw invalidArgument(`parameter ${p.name} of action ${a.name} has no bitwidth (string-translated types are not supported)`);
    }
  }
}

/** Verifies a config and builds its (empty) forwarding state; throws EntityError (INVALID_ARGUMENT). */
export function buildPipeline(config: p4r.ForwardingPipelineConfig__Output | null, clock: Clock = monotonicClock): InstalledPipeline {
  if (!config) throw invalidArgument('the request has no config: send a ForwardingPipelineConfig with p4info and p4_device_config');
  if (!config.p4info) throw invalidArgument('the config has no p4info');
  let schema: P4Schema;
  try {
    schema = new P4Schema(config.p4info);
  } catch (e) {
    if (P4inaError.is(e)) throw invalidArgument(`the P4Info is inconsistent: ${e.message}`);
    throw invalidArgument(`the P4Info cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  checkRealizable(schema);
  return {
    schema,
    p4info: config.p4info,
    deviceConfig: config.p4_device_config,
    cookie: config.cookie ? config.cookie.cookie : undefined,
    forwarding: new ForwardingState(schema, clock),
  };
}
