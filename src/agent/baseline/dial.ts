/**
 * Connecting to a peer that may not be listening yet: workers start in any
 * order, so a refused connection is retried with a growing pause until a
 * deadline. Every attempt is itself cut off at the deadline, so a host that
 * never answers cannot hold set-up longer than the caller allowed.
 */
import { connect, type Socket } from 'node:net';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { formatEndpoint, type Endpoint } from './endpoint.js';

const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 500;

/** The error for an aborted wait, keeping the signal's reason as the cause. */
export function abortedError(signal: AbortSignal, what: string): BaselineError {
  return new BaselineError(BASELINE_ERROR_CODES.aborted, `${what} was aborted`, { cause: signal.reason });
}

/** Waits `ms`, or rejects when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal, what));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError(signal!, what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One connection attempt, given up at `deadline` (a Date.now() value) or on abort. */
function attempt(endpoint: Endpoint, deadline: number, signal: AbortSignal | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    const finish = (error: Error | undefined): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.removeListener('connect', onConnect);
      socket.removeListener('error', onError);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        resolve(socket);
      }
    };
    const onConnect = (): void => finish(undefined);
    const onError = (err: Error): void => finish(err);
    const onAbort = (): void => finish(abortedError(signal!, `connecting to ${formatEndpoint(endpoint)}`));
    const timer = setTimeout(() => finish(new Error('no answer before the deadline')), Math.max(0, deadline - Date.now()));
    socket.once('connect', onConnect);
    socket.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Connects to `endpoint`, retrying refused or failed attempts until
 * `deadline`. Throws BASELINE_CONNECT_TIMEOUT (with the last failure as
 * cause) or BASELINE_ABORTED.
 */
export async function dialUntil(endpoint: Endpoint, deadline: number, signal: AbortSignal | undefined, what: string): Promise<Socket> {
  let pauseMs = FIRST_PAUSE_MS;
  let lastError: unknown;
  // Bounded: every turn either returns, throws, or waits at least FIRST_PAUSE_MS of a finite deadline.
  while (Date.now() < deadline) {
    try {
      return await attempt(endpoint, deadline, signal);
    } catch (err) {
      if (err instanceof BaselineError) throw err;
      lastError = err;
    }
    const wait = Math.min(pauseMs, deadline - Date.now());
    if (wait <= 0) break;
    await pause(wait, signal, `connecting to ${what}`);
    pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new BaselineError(
    BASELINE_ERROR_CODES.connectTimeout,
    `could not connect to ${what} at ${formatEndpoint(endpoint)} before the deadline${reason}; is it running and listening there?`,
    { cause: lastError },
  );
}
