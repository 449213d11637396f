// Bounded waits: nothing in the suite waits for ever, and nothing asserts on time.

/** How long any single wait may take before the test fails (the machine is shared and slow at times). */
export const WAIT_MS = 10_000;

/** Polls `check` until it returns a value other than undefined/false; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The next item of an async iterator, or a failure naming `what` after `timeoutMs`. */
export async function nextWithin<T>(iterator: AsyncIterator<T>, what: string, timeoutMs = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    const result = await Promise.race([iterator.next(), timeout]);
    if (result.done) throw new Error(`the iterator ended while waiting for ${what}`);
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}
