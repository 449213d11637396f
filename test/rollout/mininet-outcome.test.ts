// The Mininet rollout network's pure parts, no root needed: a stage's ToRs (the loopback
// fabric's names) turned into the testbed's --ina-tors, checked against the testbed's own
// planner (mininet/p4ina_mininet/topologies.py, run with python3: which ToRs it makes INA);
// and a testbed --json document (the shape runner.py prints, taken from a real run) turned
// into the sweep's outcome, failures kept with their reasons.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseRolloutArgs, type RolloutOptions } from '../../src/rollout/rollout-options.js';
import { shorthandHosts, testbedArgs } from '../../src/rollout/mininet-network.js';
import { outcomeOfTestbedRun } from '../../src/rollout/mininet-outcome.js';
import type { TestbedProcessResult } from '../../src/rollout/mininet-testbed-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = '/usr/bin/python3';

function options(...argv: string[]): RolloutOptions {
  return parseRolloutArgs(argv)!;
}

/** The ToRs the testbed's planner makes INA for `--ina-tors TEXT` on a leaf-spine, by name. */
function testbedInaTors(racks: number, hosts: number, inaTorsText: string): string[] {
  const script = [
    'import json, sys',
    `sys.path.append(${JSON.stringify(path.join(ROOT, 'mininet'))})`,
    'from p4ina_mininet.topologies import parse_rack_list, plan_leafspine',
    `plan = plan_leafspine('p4i', ${racks}, ${hosts}, 1, parse_rack_list(${JSON.stringify(inaTorsText)}, ${racks}), 'p4', 'p4', ps=1)`,
    "print(json.dumps(sorted(s.name for s in plan.switches if s.kind == 'ina')))",
  ].join('\n');
  const run = spawnSync(PYTHON, ['-B', '-c', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[];
}

const inaTorsArg = (args: readonly string[]): string => args[args.indexOf('--ina-tors') + 1]!;

describe('testbedArgs', () => {
  test.runIf(existsSync(PYTHON))("a stage's ToRs become the racks the testbed makes INA, by the same names", () => {
    const o = options('--net', 'mininet', '--topo', 'leafspine,racks=3,hosts=2,spines=1');
    const { workers, rackOfTor } = shorthandHosts(o);
    expect(workers).toEqual(['p4ih1', 'p4ih2', 'p4ih3', 'p4ih4', 'p4ih5', 'p4ih6']);
    for (const tors of [[], ['p4it2'], ['p4it3', 'p4it1'], ['p4it1', 'p4it2', 'p4it3']]) {
      const args = testbedArgs(o, rackOfTor, { stage: { count: tors.length, inaTors: tors }, algorithm: 'atp', repeat: 0 });
      expect(testbedInaTors(3, 2, inaTorsArg(args))).toEqual([...tors].sort());
    }
  });

  test('the sweep options pass on: tensor, per-repeat seed, timeout, bandwidth, loss; legacy switches run forward.p4 as on loopback', () => {
    const o = options('--net', 'mininet', '--topo', 'single,hosts=3', '--tensor', '64KiB', '--seed', '7', '--run-timeout', '9.5', '--bw', '100', '--loss', '0.01');
    const { rackOfTor } = shorthandHosts(o);
    expect([...rackOfTor]).toEqual([['p4is1', 1]]);
    const args = testbedArgs(o, rackOfTor, { stage: { count: 1, inaTors: ['p4is1'] }, algorithm: 'ring', repeat: 2 });
    expect(args).toEqual(['--topo', 'single,hosts=3', '--ina-tors', '1', '--legacy', 'p4', '--job', 'ring', '--tensor', '65536', '--seed', '7/2', '--timeout', '10', '--bw', '100', '--loss', '0.01', '--json']);
  });

  test('a ToR that has no workers is a misuse', () => {
    const o = options('--net', 'mininet', '--topo', 'leafspine,racks=2,hosts=1,spines=1');
    const { rackOfTor } = shorthandHosts(o);
    // p4it3 is the parameter server's rack: never a stage ToR.
    expect(() => testbedArgs(o, rackOfTor, { stage: { count: 1, inaTors: ['p4it3'] }, algorithm: 'atp', repeat: 0 })).toThrow(/p4it3 is not a ToR with workers/);
  });
});

function atpRow(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    algorithm: 'atp', workers: 2, bytes: 65536, timeMs: 663.6, goodputGbps: 0.00079, retransmissions: 24, maxAbsError: 1.5e-5, boundViolations: 0, identical: true, failure: null,
    atp: { job: 1, psHost: 'p4ips1', level0: ['p4it1'], level1: null, ps: null, ecnMarks: 0, ipCeMarks: 0, windowHalvings: 0, windowMin: 16 },
    ...overrides,
  };
}

function result(runs: Record<string, unknown>[], extra: Partial<TestbedProcessResult> = {}, loss = 0): TestbedProcessResult {
  const doc = { topology: 'leafspine,racks=2,hosts=1,spines=1 (INA ToRs: 1)', workers: 2, tensorBytes: 65536, loss, seed: '1/0', framesLost: 17, runs, hosts: { atp: ['p4ih1', 'p4ih2'] }, traffic: null, ecn: null, pids: [1], ok: true };
  return { code: 0, signal: null, stdout: `testbed noise\n${JSON.stringify(doc)}\n`, stderrTail: '', timedOut: false, ...extra };
}

describe('outcomeOfTestbedRun', () => {
  test("an exact ATP run: the row's time and retransmissions, where it aggregated", () => {
    expect(outcomeOfTestbedRun('atp', result([atpRow()]), 2)).toEqual({ timeMs: 663.6, retransmissions: 24, exact: true, runs: 'atp (level 0: p4it1)', failure: undefined });
  });

  test('ATP with no INA switch is PS only; with a level 1 both levels show', () => {
    expect(outcomeOfTestbedRun('atp', result([atpRow({ atp: { level0: [], level1: null } })]), 2).runs).toBe('atp (PS only)');
    expect(outcomeOfTestbedRun('atp', result([atpRow({ atp: { level0: ['p4it1', 'p4it2'], level1: 'p4is1' } })]), 2).runs).toBe('atp (level 0: p4it1, p4it2; level 1: p4is1)');
  });

  test('Rina names the INA racks of its ring, or says it was a plain ring; hierarchical and ring say they ran over TCP', () => {
    const row = (algorithm: string, inaRacks: string[] | null): Record<string, unknown> => ({ ...atpRow(), algorithm, atp: null, inaRacks });
    expect(outcomeOfTestbedRun('rina', result([row('rina', ['p4it1', 'p4it2'])]), 2)).toMatchObject({ runs: 'rina (2 INA racks: p4it1, p4it2)', exact: true, timeMs: 663.6 });
    expect(outcomeOfTestbedRun('rina', result([row('rina', ['p4it2'])]), 2).runs).toBe('rina (1 INA rack: p4it2)');
    expect(outcomeOfTestbedRun('rina', result([row('rina', [])]), 2).runs).toBe('rina = ring of 2 (UDP, no INA rack)');
    expect(outcomeOfTestbedRun('hierarchical', result([row('hierarchical', null)]), 2).runs).toBe('hierarchical (TCP, 2 workers)');
    expect(outcomeOfTestbedRun('ring', result([row('ring', null)]), 2).runs).toBe('ring of 2 (TCP)');
    expect(outcomeOfTestbedRun('rina', result([row('rina', 'p4it1' as unknown as string[])]), 2).failure).toMatch(/printed no results document/);
  });

  test('not identical, or a bound violated, is a run that is not exact', () => {
    expect(outcomeOfTestbedRun('atp', result([atpRow({ identical: false })]), 2).exact).toBe(false);
    expect(outcomeOfTestbedRun('atp', result([atpRow({ boundViolations: 3 })]), 2).exact).toBe(false);
  });

  test('with loss, the frames the testbed dropped', () => {
    expect(outcomeOfTestbedRun('atp', result([atpRow()], {}, 0.01), 2).framesLost).toBe(17);
  });

  test("the row's failure, a missing document, a malformed row, a timeout: failures with the reason", () => {
    expect(outcomeOfTestbedRun('atp', result([atpRow({ failure: 'worker 1 exited 1', timeMs: null, identical: null })]), 2)).toMatchObject({ failure: 'worker 1 exited 1', runs: 'atp (level 0: p4it1)', timeMs: undefined });
    const none = outcomeOfTestbedRun('ring', { code: 2, signal: null, stdout: '', stderrTail: 'testbed: --topo: bad', timedOut: false }, 2);
    expect(none.failure).toBe('the Mininet testbed printed no results document (exit 2):\ntestbed: --topo: bad');
    expect(outcomeOfTestbedRun('atp', result([atpRow({ timeMs: 'slow' })]), 2).failure).toMatch(/no results document/);
    expect(outcomeOfTestbedRun('ring', result([atpRow()]), 2).failure).toBe("the Mininet testbed's document has no ring run");
    expect(outcomeOfTestbedRun('atp', result([atpRow()], { timedOut: true }), 2).failure).toMatch(/ran past its deadline/);
    expect(outcomeOfTestbedRun('atp', result([atpRow()]), 4).failure).toBe("the Mininet testbed ran atp on 2 of the job's 4 workers");
  });
});
