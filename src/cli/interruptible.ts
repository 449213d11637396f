/**
 * Runs a command's work with an AbortSignal that Ctrl-C (SIGINT) or SIGTERM
 * aborts, so the work can stop its children and clean up; the handlers are
 * removed again however the work ends.
 */
export async function runInterruptible<T>(work: (signal: AbortSignal) => Promise<T>, reason?: Error): Promise<T> {
  const controller = new AbortController();
  const stop = (): void => controller.abort(reason);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(controller.signal);
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}
