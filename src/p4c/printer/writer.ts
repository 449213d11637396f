/**
 * @fileoverview An indenting line writer for the printer.
 */
export class SourceWriter {
  private readonly lines: string[] = [];
  private depth = 0;

  /** Writes one line at the current indentation. */
  line(text: string): void {
    this.lines.push(text === '' ? '' : '    '.repeat(this.depth) + text);
  }

  /** Appends to the last line written (for `} else {` and `} name;`). */
  appendToLast(text: string): void {
    if (this.lines.length === 0) this.lines.push(text);
    else this.lines[this.lines.length - 1] += text;
  }

  indented(write: () => void): void {
    this.depth++;
    try {
      write();
    } finally {
      this.depth--;
    }
  }

  /** Inserts an empty line before line `index` (to separate declarations once their size is known). */
  insertBlankLineAt(index: number): void {
    this.lines.splice(index, 0, '');
  }

  /** The number of lines so far (to tell whether something took more than one). */
  get lineCount(): number {
    return this.lines.length;
  }

  toString(): string {
    return this.lines.length === 0 ? '' : this.lines.join('\n') + '\n';
  }
}
