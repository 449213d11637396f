/**
 * The demo's progress line on stderr: rewritten in place on a terminal, one
 * line per change otherwise (so logs and CI output stay readable).
 */
export interface Progress {
  /** `detail` (e.g. the seconds so far) shows on a terminal only, so that a log gets one line per step. */
  update(text: string, detail?: string): void;
  /** Ends the line on a terminal so the results start on a fresh one. */
  done(): void;
}

export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  let last = '';
  let open = false;
  return {
    update(text, detail) {
      if (stream.isTTY) {
        stream.write(`\r${text}${detail ? ` ${detail}` : ''}\x1b[K`);
        open = true;
      } else if (text !== last) {
        stream.write(`${text}\n`);
      }
      last = text;
    },
    done() {
      if (open) stream.write('\n');
      open = false;
    },
  };
}

/** A Progress that prints nothing. */
export const SILENT_PROGRESS: Progress = { update: () => {}, done: () => {} };
