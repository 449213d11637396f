/**
 * The clock of idle timeouts (spec §Idle-timeout): it stamps the hits of the
 * entries of tables that support idle timeouts (the data plane calls it on
 * every hit, `TableStore.hitClock`) and measures how long they have been idle.
 * Injectable, so tests step fake time instead of sleeping.
 */
import { performance } from 'node:perf_hooks';

/** Monotonic milliseconds. */
export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();
