/**
 * @fileoverview A diagnostic is a value: what went wrong (a catalogue entry and
 * its filled message), where (a span, with the source line quoted at report
 * time so that rendering needs nothing else), and related locations.
 */
import type { SourceSpan } from '../source/span.js';
import type { DiagnosticId, Severity } from './catalogue.js';

/** A second location that explains the first ("previous declaration here"). */
export interface RelatedLocation {
  readonly message: string;
  readonly span: SourceSpan;
  readonly sourceLine?: string;
}

export interface Diagnostic {
  readonly id: DiagnosticId;
  readonly code: number;
  readonly severity: Severity;
  readonly message: string;
  /** Null for diagnostics about no particular text (e.g. an unreadable input file). */
  readonly span: SourceSpan | null;
  /** The text of the span's first line, when the file was known. */
  readonly sourceLine?: string;
  readonly related: readonly RelatedLocation[];
}

/** The related location a report may ask for, before its source line is looked up. */
export interface RelatedInput {
  readonly message: string;
  readonly span: SourceSpan;
}
