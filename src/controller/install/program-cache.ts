/**
 * The pipeline each switch runs, built once per (program, defines) and shared
 * by every switch that runs the same program: a P4 source is compiled by the
 * `compiler` the caller passes in (p4ina's front end, `compilePipeline` from
 * src/p4c, whose device config is the IR JSON that p4ina's switch takes; the
 * controller itself does not depend on a compiler), and compiled artefacts (a
 * P4Info file and a device config, e.g. BMv2 JSON from p4c) are read as they
 * are. Relative paths are resolved against `baseDir` (the working directory by
 * default, as the tutorials do).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { P4Schema, parseP4Info, p4infoFormatForPath } from '../../p4info/index.js';
import { canonicalP4InfoBytes } from '../../p4runtime/index.js';
import type * as p4i from '../../proto/p4i.js';
import type { SwitchProgram } from '../topology.js';
import { InstallError, InstallErrorCode as E } from './errors.js';

export interface Pipeline {
  /** The decoded P4Info (as parseP4Info gives it). */
  readonly p4info: ReturnType<typeof parseP4Info>;
  readonly schema: P4Schema;
  readonly deviceConfig: Buffer;
}

/** Compiles a P4 source for the switches: `compilePipeline` of src/p4c has this shape. */
export type P4Compiler = (
  file: string,
  options: { readonly defines: readonly string[]; readonly includeDirs: readonly string[] },
) => { readonly ok: true; readonly p4info: p4i.P4Info; readonly deviceConfig: Buffer } | { readonly ok: false; readonly message: string };

export interface ProgramCacheOptions {
  /** Compiles topology programs given as P4 source; without it only compiled files ({ p4info, config }) can be pushed. */
  readonly compiler?: P4Compiler;
  /** Directory relative program paths are resolved against (default: the working directory). */
  readonly baseDir?: string;
  /** `-D` definitions for compiled sources, e.g. `['SWITCHML_SLOTS=64']`. */
  readonly defines?: readonly string[];
  /** Extra include directories for compiled sources. */
  readonly includeDirs?: readonly string[];
}

export class ProgramCache {
  private readonly pipelines = new Map<string, Pipeline>();
  /** How many pipelines were built (compiled or read); a hit does not count. */
  builds = 0;

  constructor(private readonly options: ProgramCacheOptions = {}) {}

  /** The pipeline of `program`; throws InstallError (INSTALL_NO_PROGRAM, INSTALL_PROGRAM_FAILED) for the switch named. */
  pipelineFor(program: SwitchProgram | undefined, switchName: string): Pipeline {
    const resolve = (p: string): string => path.resolve(this.options.baseDir ?? process.cwd(), p);
    if (program?.p4 !== undefined) return this.cached(`p4:${resolve(program.p4)}|${(this.options.defines ?? []).join(',')}`, () => this.compile(resolve(program.p4!), switchName));
    if (program?.p4info !== undefined && program.config !== undefined) {
      const p4info = resolve(program.p4info);
      const config = resolve(program.config);
      return this.cached(`files:${p4info}|${config}`, () => this.readFiles(p4info, config, switchName));
    }
    throw new InstallError(E.INSTALL_NO_PROGRAM, 'the switch has no program the installer can push; give "program": { "p4": … } or { "p4info": …, "config": … }', switchName);
  }

  private cached(key: string, build: () => Pipeline): Pipeline {
    let hit = this.pipelines.get(key);
    if (!hit) {
      hit = build();
      this.builds++;
      this.pipelines.set(key, hit);
    }
    return hit;
  }

  private compile(file: string, switchName: string): Pipeline {
    const compiler = this.options.compiler;
    if (!compiler) {
      throw new InstallError(E.INSTALL_PROGRAM_FAILED, `${file} is P4 source and this controller was given no compiler: compile it first ("p4ina compile") and give "program": { "p4info": …, "config": … }, or pass a compiler`, switchName);
    }
    const result = compiler(file, { includeDirs: this.options.includeDirs ?? [], defines: this.options.defines ?? [] });
    if (!result.ok) throw new InstallError(E.INSTALL_PROGRAM_FAILED, result.message, switchName);
    // A binary round trip gives the decoded (defaults-filled) form that P4Schema and the cookie use.
    const p4info = parseP4Info(canonicalP4InfoBytes(result.p4info), 'binary', file);
    return { p4info, schema: new P4Schema(p4info), deviceConfig: result.deviceConfig };
  }

  private readFiles(p4infoPath: string, configPath: string, switchName: string): Pipeline {
    try {
      const format = p4infoFormatForPath(p4infoPath);
      const raw = readFileSync(p4infoPath);
      const p4info = parseP4Info(format === 'binary' ? raw : raw.toString('utf8'), format, p4infoPath);
      return { p4info, schema: new P4Schema(p4info), deviceConfig: readFileSync(configPath) };
    } catch (err) {
      throw new InstallError(E.INSTALL_PROGRAM_FAILED, `cannot read ${p4infoPath} and ${configPath}: ${(err as Error).message}`, switchName, { cause: err });
    }
  }
}
