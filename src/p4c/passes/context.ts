/**
 * @fileoverview What passes share: the input, the sources read, the
 * diagnostic bag, and side tables. A side table holds what a pass learns
 * about nodes (the type of each expression, what each name refers to) keyed
 * by node, so the tree itself stays plain, as p4c keeps its typeMap and
 * refMap beside the IR.
 */
import { DiagnosticBag } from '../diagnostics/bag.js';
import type { ParseOptions } from '../parse-program.js';
import { SourceRegistry } from '../source/source-registry.js';

/** Names one side table and how to make it empty. Define one per table, as a module constant. */
export class SideTableKey<T> {
  constructor(
    readonly name: string,
    readonly create: () => T,
  ) {}
}

export interface CompileInput {
  /** The program's path (or the name given to `text`). */
  readonly path: string;
  /** The program's text, when it does not come from the file system. */
  readonly text?: string;
  readonly options: ParseOptions;
}

export class CompileContext {
  readonly sources = new SourceRegistry();
  readonly diagnostics: DiagnosticBag;
  private readonly tables = new Map<SideTableKey<unknown>, unknown>();

  constructor(readonly input: CompileInput) {
    this.diagnostics = new DiagnosticBag(this.sources, { maxErrors: input.options.maxErrors ?? 200 });
  }

  /** The side table for `key`, created empty on first use. */
  table<T>(key: SideTableKey<T>): T {
    if (!this.tables.has(key)) this.tables.set(key, key.create());
    return this.tables.get(key) as T;
  }
}
