/**
 * Turns a pipeline's device config into a compiled executor: the bytes must
 * be p4ina IR (`p4ina compile` output) agreeing with the P4Info. Used as the
 * DeviceState's device-config verifier, so a config the data plane cannot
 * run is refused with INVALID_ARGUMENT at VERIFY time, before anything
 * changes.
 */
import type { Logger } from 'pino';
import { parseIr } from '../../p4c/ir/serialize.js';
import type { IrProgram } from '../../p4c/ir/types.js';
import type * as p4r from '../../proto/p4r.js';
import { CompiledPipeline } from '../pipeline/compiled-pipeline.js';
import { installProgramEntries } from '../pipeline/program-entries.js';
import { invalidArgument } from '../state/entity-error.js';
import type { InstalledPipeline } from '../state/pipeline-config.js';

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

/** Compiles the IR of `pipeline` against its own forwarding state; throws EntityError on any problem. */
export function compileInstalled(pipeline: InstalledPipeline, services: LoaderServices): CompiledPipeline {
  const ir = readIr(pipeline.deviceConfig);
  for (const t of ir.tables) {
    if (!pipeline.forwarding.tables.find(t.id)) throw invalidArgument(`the IR's table ${t.name} (id ${t.id}) is not in the P4Info: push the P4Info and IR of the same compile`);
  }
  // The program's own entries go into the fresh state first, so P4Runtime reads show them; EntityErrors pass through.
  installProgramEntries(ir, pipeline.forwarding);
  try {
    return new CompiledPipeline(ir, {
      programEntriesInstalled: true,
      forwarding: pipeline.forwarding,
      schema: pipeline.schema,
      log: services.log,
      emitDigest: (id, data) => services.emitDigest(id, data),
    });
  } catch (e) {
    throw invalidArgument(`the IR cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
  }
}
