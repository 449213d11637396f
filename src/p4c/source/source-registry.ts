/**
 * @fileoverview The text of every file a compile run has read, so that
 * diagnostics can quote the line they point at, and so that the printer knows
 * which declarations came from our library files.
 */

export interface SourceFile {
  /** The path as spans name it. */
  readonly path: string;
  readonly text: string;
  /** The name it is included by when it is a library file (`core.p4`), else null. */
  readonly libraryName: string | null;
  /**
   * For a library file: the program's own macros its #if/#ifdef lines
   * consulted, as `NAME VALUE` definitions (e.g. `V1MODEL_VERSION 20200408`),
   * so that a printed program can configure the library the same way.
   */
  readonly configuration: Map<string, string>;
}

/** How a library file was brought in: its include name and the definitions that configured it. */
export interface LibraryInclude {
  readonly name: string;
  readonly defines: readonly string[];
}

export class SourceRegistry {
  private readonly files = new Map<string, SourceFile>();
  private readonly lineStarts = new Map<string, number[]>();

  add(path: string, text: string, libraryName: string | null = null): SourceFile {
    const file: SourceFile = { path, text, libraryName, configuration: new Map() };
    this.files.set(path, file);
    this.lineStarts.delete(path);
    return file;
  }

  get(path: string): SourceFile | undefined {
    return this.files.get(path);
  }

  all(): SourceFile[] {
    return [...this.files.values()];
  }

  /** Library files by path, with the name they are included by and what configured them. */
  libraryFiles(): Map<string, LibraryInclude> {
    const result = new Map<string, LibraryInclude>();
    for (const file of this.files.values()) {
      if (file.libraryName === null) continue;
      const defines = [...file.configuration].map(([name, value]) => (value === '' ? name : `${name} ${value}`));
      result.set(file.path, { name: file.libraryName, defines });
    }
    return result;
  }

  /** The text of line `line` (1-based) of `path`, without its line break; undefined when unknown. */
  lineText(path: string, line: number): string | undefined {
    const file = this.files.get(path);
    if (!file || line < 1) return undefined;
    const starts = this.starts(path, file.text);
    if (line > starts.length) return undefined;
    const begin = starts[line - 1]!;
    const end = line < starts.length ? starts[line]! - 1 : file.text.length;
    return file.text.slice(begin, end).replace(/\r$/, '');
  }

  private starts(path: string, text: string): number[] {
    let starts = this.lineStarts.get(path);
    if (!starts) {
      starts = [0];
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
      this.lineStarts.set(path, starts);
    }
    return starts;
  }
}
