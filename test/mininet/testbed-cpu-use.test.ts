// The testbed's per-run switch CPU (mininet/p4ina_mininet/cpu_use.py), run
// with Debian's python3 (no root, no Mininet): /proc/PID/stat read as the
// kernel counts it, checked against the process's own CPU clock
// (time.process_time), including a command name with spaces and
// parentheses; and the before/after difference the runner attaches to a run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './helpers.js';

const PYTHON = '/usr/bin/python3';
const runnable = existsSync(PYTHON) && existsSync('/proc/self/stat');
if (!runnable) console.warn(`test/mininet/testbed-cpu-use: skipped: needs ${PYTHON} and /proc`);

// A child that names itself awkwardly, burns 300 ms of its own CPU, says how much its clock counted, then waits
// for its stdin to close; the parent reads /proc while the child waits, compares, and closes the pipe.
const SCRIPT = `
import json, subprocess, sys, time
sys.path.append(${JSON.stringify(path.join(ROOT, 'mininet'))})
from p4ina_mininet.cpu_use import process_cpu_ms, switch_cpu_since, switch_cpu_snapshot

CHILD = '''
import sys, time
with open('/proc/self/comm', 'w') as f:
    f.write('a) b (c')
while time.process_time() < 0.3:
    pass
print(time.process_time(), flush=True)
sys.stdin.read()
'''

class FakeSwitch:
    def __init__(self, name, pid):
        self.name, self._pid = name, pid
    def pid_started(self):
        return self._pid

class Bridge:
    name = 'br0'

child = subprocess.Popen([sys.executable, '-c', CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
try:
    own = float(child.stdout.readline())
    user, system = process_cpu_ms(child.pid)
    before = switch_cpu_snapshot([FakeSwitch('s1', child.pid), FakeSwitch('s2', None), Bridge()])
    spent = switch_cpu_since(before)
finally:
    child.stdin.close()
    child.wait()
print(json.dumps({'ownMs': own * 1000, 'userMs': user, 'systemMs': system, 'snapshot': sorted(before), 'spent': spent,
                  'gone': process_cpu_ms(child.pid), 'afterExit': switch_cpu_since(before)}))
`;

describe.runIf(runnable)('testbed switch CPU from /proc (python3, no root)', () => {
  test('user + system time as the kernel counts it, whatever the command name; what a switch used since a snapshot', () => {
    const run = spawnSync(PYTHON, ['-B', '-c', SCRIPT], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const r = JSON.parse(run.stdout) as { ownMs: number; userMs: number; systemMs: number; snapshot: string[]; spent: unknown[]; gone: unknown; afterExit: unknown[] };
    // /proc counts in clock ticks (10 ms here): the two clocks of one process agree to a few ticks.
    expect(Math.abs(r.userMs + r.systemMs - r.ownMs)).toBeLessThanOrEqual(30);
    expect(r.userMs).toBeGreaterThan(0);
    // Only a switch with a running process is measured (s2 never started one, a bridge has none).
    expect(r.snapshot).toEqual(['s1']);
    expect(r.spent).toEqual([{ switch: 's1', userMs: expect.any(Number), systemMs: expect.any(Number) }]);
    const [s1] = r.spent as { userMs: number; systemMs: number }[];
    expect(s1!.userMs + s1!.systemMs).toBeLessThan(100); // the child only waited between the two reads
    expect(s1!.userMs).toBeGreaterThanOrEqual(0);
    // A process that ended has no counts, and a switch that ended is left out rather than guessed.
    expect(r.gone).toBeNull();
    expect(r.afterExit).toEqual([]);
  });
});
