// switchml.p4 under seeded loss, duplication and reordering, on the IR
// oracle with minimal SwitchML workers in virtual time: every worker gets
// every chunk's exact sum, over several operations (epochs) in a row.
// The workers follow docs/p4-programs.md "What workers must do": packet j
// into slot j mod W with the set flipping per reuse, the next packet into a
// slot only after its result, retransmission after a timeout.
import { expect, it } from 'vitest';
import { decodeSwitchMl, parseUdpFrame } from '../../src/wire/index.js';
import { SWITCHML_P4 } from './helpers.js';
import { installJob, startSwitch, updateFrame, worker } from './support/fixture.js';

const N = 8;
const WORKERS = 3;
const WINDOW = 2;
const PACKETS_PER_OPERATION = 13;
const OPERATIONS = 6;
const TIMEOUT = 25;
const TICK_LIMIT = 20_000;

/** A small deterministic generator (LCG), so that a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface InFlight { at: number; toSwitch: boolean; worker: number; bytes: Buffer }

const valuesOf = (w: number, j: number, epoch: number): number[] => Array.from({ length: N }, (_, i) => (w + 1) * 1000 + j * 10 + i - 50 + epoch);

it.each([
  [1, 0.01],
  [2, 0.05],
  [3, 0.1],
  [4, 0.3],
])('seed %i, loss %f: exact sums for every worker', (seed, loss) => {
  const sw = startSwitch(SWITCHML_P4, [`SWITCHML_ELEMENTS=${N}`]);
  installJob(sw, { jobId: 7, slotBase: 3, poolSize: WINDOW, workers: [0, 1, 2], group: 5 });
  const rng = random(seed);
  let now = 0;
  let network: InFlight[] = [];
  // Every frame may be lost; a survivor arrives 1..6 ticks later, and one in ten is duplicated up to 400 ticks late.
  const transmit = (frame: Omit<InFlight, 'at'>): void => {
    if (rng() < loss) return;
    network.push({ ...frame, at: now + 1 + Math.floor(rng() * 6) });
    if (rng() < 0.1) network.push({ ...frame, at: now + 1 + Math.floor(rng() * 400) });
  };

  for (let epoch = 0; epoch < OPERATIONS; epoch++) {
    const results = Array.from({ length: WORKERS }, () => new Map<number, number[]>());
    const outstanding = Array.from({ length: WORKERS }, () => new Map<number, number>());
    const sendUpdate = (w: number, j: number): void => {
      outstanding[w]!.set(j, now);
      const set = (Math.floor(j / WINDOW) % 2) as 0 | 1;
      transmit({ toSwitch: true, worker: w, bytes: updateFrame({ worker: w, tsi: j, slot: j % WINDOW, set, epoch, values: valuesOf(w, j, epoch) }, N) });
    };
    for (let w = 0; w < WORKERS; w++) for (let j = 0; j < WINDOW; j++) sendUpdate(w, j);

    for (; results.some((r) => r.size < PACKETS_PER_OPERATION); now++) {
      if (now > TICK_LIMIT) throw new Error(`seed ${seed}: operation ${epoch} did not finish`);
      const due = network.filter((f) => f.at <= now);
      network = network.filter((f) => f.at > now);
      for (const frame of due) {
        if (frame.toSwitch) {
          for (const out of sw.process(frame.bytes, worker(frame.worker).switchPort)) transmit({ toSwitch: false, worker: out.port - 1, bytes: out.bytes });
          continue;
        }
        const udp = parseUdpFrame(frame.bytes);
        if (!udp.ok) throw new Error(udp.message);
        const result = decodeSwitchMl(frame.bytes, udp.payloadOffset);
        if (!result.ok) throw new Error(result.message);
        expect(udp.ipv4.dstIp).toBe(worker(frame.worker).ip);
        if (result.epoch !== epoch || results[frame.worker]!.has(result.tsi)) continue; // late or duplicate
        results[frame.worker]!.set(result.tsi, [...result.values.toInt32Array()]);
        outstanding[frame.worker]!.delete(result.tsi);
        if (result.tsi + WINDOW < PACKETS_PER_OPERATION) sendUpdate(frame.worker, result.tsi + WINDOW);
      }
      for (let w = 0; w < WORKERS; w++) for (const [j, sentAt] of outstanding[w]!) if (now - sentAt > TIMEOUT) sendUpdate(w, j);
    }

    for (let j = 0; j < PACKETS_PER_OPERATION; j++) {
      const sum = Array.from({ length: N }, (_, i) => [0, 1, 2].reduce((s, w) => s + valuesOf(w, j, epoch)[i]!, 0));
      for (let w = 0; w < WORKERS; w++) expect(results[w]!.get(j), `operation ${epoch}, packet ${j}, worker ${w}`).toEqual(sum);
    }
  }
  // Each round completed exactly once, and the faults did reach the switch's recovery paths.
  const outcomes = sw.counter('ingress.switchml.switchml_outcomes');
  const drops = sw.counter('ingress.switchml.switchml_drops');
  expect(outcomes[2]).toBe(OPERATIONS * PACKETS_PER_OPERATION);
  expect(outcomes[3]! + drops[11]! + drops[12]!).toBeGreaterThan(0);
});
