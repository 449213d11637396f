/**
 * Turns a pipeline's device config into a compiled executor: the bytes must
 * be p4ina IR (`p4ina compile` output) agreeing with the P4Info. Used by the
 * DeviceState's device-config hooks, so that a config the data plane cannot
 * run is refused with INVALID_ARGUMENT at VERIFY time, before anything
 * changes, and without allocating the pipeline's stores: the check compiles
 * the IR against stores of the pipeline's shape that hold no cells.
 *
 * Whatever the bytes are, the answer is INVALID_ARGUMENT naming the problem:
 * the IR is checked for sane numbers (widths, sizes) and against the P4Info
 * (every table, action and stateful extern the IR names by id is the P4Info's,
 * of the same kind and size), and any failure of the compiler on a malformed
 * IR is reported as the IR's fault, never as an internal error.
 */
import type { Logger } from 'pino';
import { IR_MAX_STACK_SIZE } from '../../p4c/ir/limits.js';
import { parseIr } from '../../p4c/ir/serialize.js';
import type { IrProgram } from '../../p4c/ir/types.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { CompiledPipeline } from '../pipeline/compiled-pipeline.js';
import { installProgramEntries } from '../pipeline/program-entries.js';
import { EntityError, invalidArgument } from '../state/entity-error.js';
import type { ForwardingState } from '../state/forwarding-state.js';
import type { InstalledPipeline, PipelineLimits } from '../state/pipeline-config.js';

export interface LoaderServices {
  readonly log: Logger;
  emitDigest(digestId: number, data: p4r.P4Data): void;
}

/** Reads the IR from a device config; throws EntityError (INVALID_ARGUMENT) saying what to do. */
export function readIr(deviceConfig: Buffer): IrProgram {
  const text = deviceConfig.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidArgument('the device config is not JSON: this switch runs p4ina IR; compile the program with "p4ina compile" and push NAME.ir.json');
  }
  if (typeof parsed === 'object' && parsed !== null && ('pipelines' in parsed || '__meta__' in parsed)) {
    throw invalidArgument('the device config is BMv2 JSON (p4c --target bmv2); this switch runs p4ina IR: compile the program with "p4ina compile" and push NAME.ir.json');
  }
  try {
    return parseIr(text);
  } catch (e) {
    throw invalidArgument(`the device config is not p4ina IR (${e instanceof Error ? e.message : String(e)}); compile the program with "p4ina compile"`);
  }
}


const SHAPE: Partial<Record<keyof IrProgram, 'array' | 'object'>> = {
  headers: 'array',
  structs: 'array',
  enums: 'array',
  errors: 'array',
  slots: 'array',
  pipeline: 'object',
  blocks: 'array',
  actions: 'array',
  tables: 'array',
  externs: 'array',
  functions: 'array',
};

/**
 * Numbers the executor sizes things by (`width`, `size`) must be non-negative integers within
 * the switch's limits; walked without recursion, so a deeply nested document cannot overflow the stack.
 */
function checkNumbers(ir: IrProgram, limits: Pick<PipelineLimits, 'maxBitwidth' | 'maxArrayCells' | 'maxTableEntries'>): void {
  const maxSize = Math.max(limits.maxArrayCells, limits.maxTableEntries);
  const stack: unknown[] = [ir];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    const isStack = (value as { kind?: unknown }).kind === 'stack';
    for (const [key, item] of Object.entries(value)) {
      if (key === 'width' || key === 'size') {
        const max = key === 'width' ? limits.maxBitwidth : isStack ? IR_MAX_STACK_SIZE : maxSize;
        if (item !== null && (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 0 || item > max)) {
          throw invalidArgument(`the IR has ${key} ${JSON.stringify(item)}; it must be an integer from 0 to ${max}`);
        }
      } else if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
}

const EXTERN_KINDS: Record<string, (schema: P4Schema, id: number) => { name: string; size?: number } | undefined> = {
  register: (s, id) => s.registers.find(id),
  counter: (s, id) => s.counters.find(id),
  meter: (s, id) => s.meters.find(id),
  direct_counter: (s, id) => s.directCounters.find(id),
  direct_meter: (s, id) => s.directMeters.find(id),
  action_profile: (s, id) => s.actionProfiles.find(id),
  action_selector: (s, id) => s.actionProfiles.find(id),
};

/** The IR's shape, and every object it names by P4Info id is the P4Info's; throws EntityError (INVALID_ARGUMENT). */
export function checkIrAgainstP4Info(ir: IrProgram, schema: P4Schema, limits: Pick<PipelineLimits, 'maxBitwidth' | 'maxArrayCells' | 'maxTableEntries'>): void {
  for (const [key, shape] of Object.entries(SHAPE)) {
    const value = (ir as unknown as Record<string, unknown>)[key];
    const ok = shape === 'array' ? Array.isArray(value) : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!ok) throw invalidArgument(`the IR's "${key}" is not ${shape === 'array' ? 'a list' : 'an object'}: the device config is damaged; push the NAME.ir.json of "p4ina compile"`);
  }
  checkNumbers(ir, limits);
  const same = 'push the P4Info and IR of the same compile';
  for (const t of ir.tables) {
    if (typeof t !== 'object' || t === null) throw invalidArgument('the IR lists a table that is not an object');
    const info = schema.tables.find(t.id);
    if (!info) throw invalidArgument(`the IR's table ${t.name} (id ${t.id}) is not in the P4Info: ${same}`);
    if (info.name !== t.name) throw invalidArgument(`the IR's table ${t.name} has id ${t.id}, which the P4Info gives to table ${info.name}: ${same}`);
  }
  for (const a of ir.actions) {
    if (typeof a !== 'object' || a === null) throw invalidArgument('the IR lists an action that is not an object');
    if (!a.id) continue; // not visible to the control plane
    const info = schema.actions.find(a.id);
    if (!info) throw invalidArgument(`the IR's action ${a.name} (id ${a.id}) is not in the P4Info: ${same}`);
    // P4Info lists action data only; the IR lists directional parameters too (`controlPlane` false).
    const data = Array.isArray(a.params) ? a.params.filter((p) => typeof p !== 'object' || p === null || p.controlPlane !== false).length : undefined;
    if (data !== info.params.size) {
      throw invalidArgument(`the IR's action ${a.name} has ${data ?? 'no'} action data parameters, the P4Info's ${info.params.size}: ${same}`);
    }
  }
  for (const e of ir.externs) {
    if (typeof e !== 'object' || e === null) throw invalidArgument('the IR lists an extern that is not an object');
    const find = EXTERN_KINDS[e.type];
    if (!find || !e.id) continue;
    const info = find(schema, e.id);
    if (!info) throw invalidArgument(`the IR's ${e.type} ${e.name} (id ${e.id}) is not a ${e.type.replace('_', ' ')} of the P4Info: ${same}`);
    if (info.size !== undefined && e.size !== null && e.size !== undefined && info.size !== e.size && !(e.type === 'action_profile' || e.type === 'action_selector')) {
      throw invalidArgument(`the IR's ${e.type} ${e.name} has ${e.size} cells, the P4Info's ${info.size}: ${same}`);
    }
  }
}

/** Runs `step` on a malformed IR: EntityErrors pass, anything else the compiler throws is the IR's fault. */
function blameIr<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof EntityError) throw e;
    throw invalidArgument(`the IR cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function compile(ir: IrProgram, pipeline: InstalledPipeline, forwarding: ForwardingState, services: LoaderServices): CompiledPipeline {
  return new CompiledPipeline(ir, {
    programEntriesInstalled: true,
    forwarding,
    schema: pipeline.schema,
    log: services.log,
    emitDigest: (id, data) => services.emitDigest(id, data),
  });
}

/**
 * Checks that the data plane can run `pipeline`: reads the IR, checks it against the P4Info,
 * installs its const entries and compiles it against stores that hold no cells. Allocates
 * nothing for the pipeline's stores. Returns the IR; throws EntityError (INVALID_ARGUMENT).
 */
export function verifyIr(pipeline: InstalledPipeline, limits: Pick<PipelineLimits, 'maxBitwidth' | 'maxArrayCells' | 'maxTableEntries'>, services: LoaderServices): IrProgram {
  const ir = readIr(pipeline.deviceConfig);
  blameIr(() => checkIrAgainstP4Info(ir, pipeline.schema, limits));
  blameIr(() => {
    const hollow = pipeline.hollowForwarding();
    installProgramEntries(ir, hollow);
    compile(ir, pipeline, hollow, services);
  });
  return ir;
}

/** Fills freshly allocated stores with the program's const entries and default actions. */
export function populateFromIr(ir: IrProgram, forwarding: ForwardingState): void {
  blameIr(() => installProgramEntries(ir, forwarding));
}

/** Compiles the IR of `pipeline` against its own (allocated) stores; throws EntityError on any problem. */
export function compileInstalled(ir: IrProgram, pipeline: InstalledPipeline, services: LoaderServices): CompiledPipeline {
  return blameIr(() => compile(ir, pipeline, pipeline.forwarding, services));
}
