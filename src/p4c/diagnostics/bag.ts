/**
 * @fileoverview DiagnosticBag: where every pass reports. It fills message
 * templates from the catalogue, quotes the source line, notes macro
 * expansions, and caps the number of errors so that a badly broken input
 * cannot flood the output.
 */
import type { SourceRegistry } from '../source/source-registry.js';
import type { SourceSpan } from '../source/span.js';
import { DIAGNOSTIC_CATALOGUE, fillTemplate, type DiagnosticId } from './catalogue.js';
import type { Diagnostic, RelatedInput, RelatedLocation } from './diagnostic.js';

export interface DiagnosticBagOptions {
  /** Errors kept before the bag reports TooManyErrors and drops the rest (default 200). */
  readonly maxErrors?: number;
}

export class DiagnosticBag {
  private readonly items: Diagnostic[] = [];
  private errors = 0;
  private warnings = 0;
  private overflowed = false;
  private readonly maxErrors: number;

  constructor(
    private readonly sources?: SourceRegistry,
    options: DiagnosticBagOptions = {},
  ) {
    this.maxErrors = options.maxErrors ?? 200;
  }

  /** Records a diagnostic; returns it, or undefined when the error cap dropped it. */
  report(
    id: DiagnosticId,
    span: SourceSpan | null,
    args: readonly (string | number)[] = [],
    related: readonly RelatedInput[] = [],
  ): Diagnostic | undefined {
    const definition = DIAGNOSTIC_CATALOGUE[id];
    if (definition.severity === 'error') {
      if (this.errors >= this.maxErrors) {
        if (!this.overflowed) {
          this.overflowed = true;
          this.push(this.make('TooManyErrors', span, [this.maxErrors], []));
        }
        return undefined;
      }
      this.errors++;
    } else if (definition.severity === 'warning') {
      this.warnings++;
    }
    const diagnostic = this.make(id, span, args, related);
    this.push(diagnostic);
    return diagnostic;
  }

  /** Adds diagnostics made elsewhere (another bag), counting them. */
  addAll(diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) {
      if (d.severity === 'error') this.errors++;
      else if (d.severity === 'warning') this.warnings++;
      this.push(d);
    }
  }

  get errorCount(): number {
    return this.errors;
  }

  get warningCount(): number {
    return this.warnings;
  }

  hasErrors(): boolean {
    return this.errors > 0;
  }

  all(): readonly Diagnostic[] {
    return this.items;
  }

  /** A position to pass to sortSince(). */
  mark(): number {
    return this.items.length;
  }

  /**
   * Puts the diagnostics reported since `mark` in source order: by file (in
   * the order given, e.g. the order files were read), then line and column.
   * The preprocessor and parser find problems in different orders; users
   * read them top to bottom. The sort is stable.
   */
  sortSince(mark: number, fileOrder: readonly string[]): void {
    const rank = new Map(fileOrder.map((file, index) => [file, index]));
    const key = (d: Diagnostic): [number, number] =>
      d.span ? [rank.get(d.span.file) ?? fileOrder.length, d.span.start.offset] : [-1, 0];
    const tail = this.items.splice(mark).map((d, index) => ({ d, index }));
    tail.sort((a, b) => {
      const [fa, oa] = key(a.d);
      const [fb, ob] = key(b.d);
      return fa - fb || oa - ob || a.index - b.index;
    });
    for (const t of tail) this.items.push(t.d);
  }

  private push(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  private make(
    id: DiagnosticId,
    span: SourceSpan | null,
    args: readonly (string | number)[],
    related: readonly RelatedInput[],
  ): Diagnostic {
    const definition = DIAGNOSTIC_CATALOGUE[id];
    const relatedLocations: RelatedLocation[] = related.map((r) => this.locate(r.message, r.span));
    if (span?.expandedFrom) {
      const origin = span.expandedFrom;
      relatedLocations.push(this.locate(`in expansion of macro '${origin.macro}', defined here`, origin.definedAt));
    }
    return {
      id,
      code: definition.code,
      severity: definition.severity,
      message: fillTemplate(definition.template, args),
      span,
      ...(span ? this.sourceLineOf(span) : {}),
      related: relatedLocations,
    };
  }

  private locate(message: string, span: SourceSpan): RelatedLocation {
    return { message, span, ...this.sourceLineOf(span) };
  }

  private sourceLineOf(span: SourceSpan): { sourceLine?: string } {
    const line = this.sources?.lineText(span.file, span.start.line);
    return line === undefined ? {} : { sourceLine: line };
  }
}
