/**
 * Drives agents on an in-memory network in virtual time: the event loop turns
 * until no packet is in flight, and only then does the clock move to the next
 * timer (a resend). So every timeout is a real stall, and each run is bounded
 * by a number of clock steps, not by a wall-clock wait. Shared by the ATP,
 * Rina and OmniReduce agent tests.
 */

/** A network that can say when nothing is in flight (false: it never went quiet). */
export interface SettlingNetwork {
  settle(): Promise<boolean>;
}

/** A virtual clock that can jump to its next timer (false: none pending). */
export interface AdvancingClock {
  advance(): boolean;
}

/** Drives `work` to its end; throws when nothing is in flight and no timer is pending, or after `maxSteps` clock steps. */
export async function driveVirtual<T>(net: SettlingNetwork, time: AdvancingClock, work: Promise<T>, maxSteps = 200_000): Promise<{ value: T; steps: number }> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  work.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  let steps = 0;
  for (; steps < maxSteps && outcome === undefined; steps++) {
    if (!(await net.settle())) throw new Error('the network never went quiet');
    if (outcome !== undefined) break;
    if (time.advance()) continue;
    // Promise chains settle over several microtask turns: give them a macrotask before calling it a stall.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (outcome === undefined) throw new Error('stalled: nothing in flight and no timer pending');
  }
  if (outcome === undefined) throw new Error(`not done after ${maxSteps} clock steps`);
  if (!outcome.ok) throw outcome.error;
  return { value: outcome.value, steps };
}
