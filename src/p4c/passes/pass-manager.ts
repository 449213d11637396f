/**
 * @fileoverview The pass manager: the front end as a named, ordered list of
 * small passes. It runs them in order, stops after the first pass that
 * reports an error (later passes may assume what earlier ones checked),
 * turns an exception thrown by a pass into an "internal error" diagnostic,
 * and can dump the program as P4 text after any pass that succeeded, for
 * golden tests.
 */
import type { Program } from '../ast/program.js';
import { moduleLogger } from '../../log/logger.js';
import { printProgram } from '../printer.js';
import type { CompileContext } from './context.js';

const log = moduleLogger('p4c');

export interface Pass {
  /** A stable kebab-case name (`parse`, `resolve-names`), used to select dumps. */
  readonly name: string;
  /** Inspects or rewrites the program; returns the new program, or nothing to keep the old one. */
  run(program: Program, context: CompileContext): Program | void;
}

export interface RunOptions {
  /** Pass names after which to dump the program, or 'all'. */
  readonly dumpAfter?: readonly string[] | 'all';
  /** Called with each dump; dumps are also returned in the result. */
  readonly onDump?: (passName: string, text: string) => void;
}

export interface PassDump {
  readonly pass: string;
  readonly text: string;
}

export interface PassManagerResult {
  readonly program: Program;
  /** Names of the passes that ran to the end, in order. */
  readonly completed: readonly string[];
  /** The pass that reported errors (or threw), when the run stopped early. */
  readonly stoppedAfter: string | null;
  readonly dumps: readonly PassDump[];
}

export class PassManager {
  constructor(readonly passes: readonly Pass[]) {
    const seen = new Set<string>();
    for (const pass of passes) {
      if (seen.has(pass.name)) throw new Error(`duplicate pass name '${pass.name}'`);
      seen.add(pass.name);
    }
  }

  names(): string[] {
    return this.passes.map((p) => p.name);
  }

  run(initial: Program, context: CompileContext, options: RunOptions = {}): PassManagerResult {
    const unknown = options.dumpAfter === 'all' ? [] : (options.dumpAfter ?? []).filter((n) => !this.names().includes(n));
    if (unknown.length > 0) throw new RangeError(`no pass named ${unknown.map((n) => `'${n}'`).join(', ')}`);
    let program = initial;
    const completed: string[] = [];
    const dumps: PassDump[] = [];
    for (const pass of this.passes) {
      const errorsBefore = context.diagnostics.errorCount;
      const started = performance.now();
      try {
        program = pass.run(program, context) ?? program;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // The diagnostic tells the user; the stack (LOG_LEVEL=debug) is for the bug report.
        log.debug({ pass: pass.name, err: error }, 'pass threw');
        context.diagnostics.report('InternalError', null, [pass.name, message]);
        return { program, completed, stoppedAfter: pass.name, dumps };
      }
      log.debug({ pass: pass.name, ms: Math.round(performance.now() - started) }, 'pass done');
      completed.push(pass.name);
      const failed = context.diagnostics.errorCount > errorsBefore;
      // A pass that reported errors is not dumped: its tree may be partial, or nested too deep to print.
      if (!failed && (options.dumpAfter === 'all' || options.dumpAfter?.includes(pass.name))) {
        const text = printProgram(program, { libraryFiles: context.sources.libraryFiles() });
        dumps.push({ pass: pass.name, text });
        options.onDump?.(pass.name, text);
      }
      if (failed) return { program, completed, stoppedAfter: pass.name, dumps };
    }
    return { program, completed, stoppedAfter: null, dumps };
  }
}
