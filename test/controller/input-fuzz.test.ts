import { describe, expect, test } from 'vitest';
import { ControllerError, parseJobSpec, parseTopology } from '../../src/controller/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';
import { fixtureJson } from './helpers.js';

const JUNK: unknown[] = [null, true, 0, -1, 1.5, 1e300, '', 'x', 's1-p1', 'h1', '10.0.0.1', [], [1, 2], {}, { nodes: 1 }, ['h1'], ['s1-p1', 's2-p1', 'x', 'y', 'z']];

/** Replaces one randomly chosen value somewhere inside `value` with junk. */
function mutate(value: unknown, rng: SeededRandom, depth = 0): unknown {
  if (depth > 0 && rng.chance(0.3)) return JUNK[rng.nextInt(JUNK.length)];
  if (Array.isArray(value) && value.length > 0) {
    const copy = [...value];
    const i = rng.nextInt(copy.length);
    copy[i] = mutate(copy[i], rng, depth + 1);
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (keys.length === 0 || rng.chance(0.1)) copy[`k${rng.nextInt(5)}`] = JUNK[rng.nextInt(JUNK.length)];
    else {
      const key = keys[rng.nextInt(keys.length)]!;
      if (rng.chance(0.1)) delete copy[key];
      else copy[key] = mutate(copy[key], rng, depth + 1);
    }
    return copy;
  }
  return JUNK[rng.nextInt(JUNK.length)];
}

/** Bad input is either accepted or refused with a ControllerError; it never throws anything else. */
function survives(parse: () => unknown): void {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ControllerError);
    expect((error as ControllerError).problems.length).toBeGreaterThan(0);
  }
}

describe('seeded mutations never crash the readers', () => {
  test.each(['tutorial-pod.json', 'single-switch.json', 'leaf-spine-2.json'])('topology %s', (name) => {
    const rng = new SeededRandom(`topology-fuzz-${name}`);
    const base = fixtureJson(name);
    for (let i = 0; i < 400; i++) {
      let doc: unknown = base;
      for (let m = 1 + rng.nextInt(3); m > 0; m--) doc = mutate(doc, rng);
      survives(() => parseTopology(doc));
    }
  });

  test('job specs', () => {
    const rng = new SeededRandom('job-fuzz');
    const base = {
      id: 3,
      algorithm: 'rina',
      workers: [{ rank: 0, host: 'h1', udp_port: 1 }, { rank: 1, ip: '10.0.0.2', mac: '02:00:00:00:00:02', udp_port: 2 }],
      parameter_server: { host: 'h3', udp_port: 3 },
      timeouts: { timeout_ms: 5 },
    };
    for (let i = 0; i < 400; i++) survives(() => parseJobSpec(mutate(mutate(base, rng), rng)));
  });
});
