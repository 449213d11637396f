/**
 * The clock and timer of the egress queues. Injected: the switch runs on
 * real time, tests on a virtual clock whose time they step, so that rates,
 * drops and queueing delays are checked exactly and without sleeping.
 */
import { performance } from 'node:perf_hooks';

export interface QueueClock {
  /** Monotonic microseconds (fractions allowed). */
  nowMicros(): number;
  /** Runs `task` once, `delayMicros` (≥ 0) from now; the returned function cancels it. */
  schedule(delayMicros: number, task: () => void): () => void;
}

/** setTimeout's longest delay; a longer one would fire after 1 ms. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Real time. Node's timers have millisecond granularity, so a fast queue is
 * served in small batches, each packet at its own scheduled time (see
 * PortQueue): the rate is exact on average and the metadata exact per packet.
 */
export const realQueueClock: QueueClock = {
  nowMicros: () => performance.now() * 1000,
  schedule(delayMicros, task) {
    const timer = setTimeout(task, Math.min(MAX_TIMEOUT_MS, Math.max(0, delayMicros / 1000)));
    timer.unref(); // a waiting packet does not keep a stopping process alive
    return () => clearTimeout(timer);
  },
};
