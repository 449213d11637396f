/**
 * @fileoverview The stack of open `#if` / `#ifdef` / `#ifndef` groups of one
 * file, and whether the text at the current point is compiled.
 */
import type { SourceSpan } from '../source/span.js';

export interface ConditionalGroup {
  /** The directive that opened the group, for "#if without #endif". */
  readonly opener: string;
  readonly span: SourceSpan;
  /** Whether the enclosing text is compiled at all. */
  readonly parentActive: boolean;
  /** Whether the current branch is compiled (implies parentActive). */
  active: boolean;
  /** Whether some branch of the group has been taken already. */
  taken: boolean;
  sawElse: boolean;
}

export class ConditionalStack {
  private readonly groups: ConditionalGroup[] = [];

  isActive(): boolean {
    return this.groups.length === 0 || this.groups[this.groups.length - 1]!.active;
  }

  /** Opens a group whose first branch is taken when `condition` holds. */
  open(opener: string, span: SourceSpan, condition: boolean): void {
    const parentActive = this.isActive();
    const active = parentActive && condition;
    this.groups.push({ opener, span, parentActive, active, taken: active || !parentActive, sawElse: false });
  }

  top(): ConditionalGroup | undefined {
    return this.groups[this.groups.length - 1];
  }

  close(): ConditionalGroup | undefined {
    return this.groups.pop();
  }

  /** Groups still open, outermost first (at the end of a file these are errors). */
  unclosed(): readonly ConditionalGroup[] {
    return this.groups;
  }
}
