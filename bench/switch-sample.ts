/**
 * What the loopback benchmarks read from a running demo: the `p4ina switch`
 * child's per-port counters (asked for with SIGUSR1, printed on its stderr)
 * and CPU time (/proc), the machine's busy share (/proc/stat), and the CPU
 * time the SwitchML workers report for their call. Sampled at the demo's
 * onRun events, before and after an algorithm's workers run.
 */
import { readFileSync } from 'node:fs';
import { ChildGroup, type SpawnRequest, type TrackedChild } from '../src/demo/child-group.js';

const COUNTERS_LINE = 'p4ina switch: per-port counters ';
const COUNTERS_WAIT_MS = 5000;

interface PortCounters {
  readonly packetsIn: number;
  readonly packetsOut: number;
}

export interface SwitchSample {
  /** Frames into and out of all ports so far. */
  readonly packets: number;
  /** CPU seconds of the switch process (user + system). */
  readonly cpuSeconds: number;
  /** Machine-wide CPU jiffies: busy and total. */
  readonly machineBusy: number;
  readonly machineTotal: number;
}

/** Ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command (which may hold spaces) in parentheses: utime and stime are the 14th and 15th of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

function machineJiffies(): { busy: number; total: number } {
  const cpuLine = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpuLine.reduce((a, b) => a + b, 0);
  const idle = (cpuLine[3] ?? 0) + (cpuLine[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** Asks the switch for its per-port counters (SIGUSR1) and waits, bounded, for the line on its stderr. */
async function switchCounters(child: TrackedChild): Promise<PortCounters[]> {
  const seen = child.stderr().split(COUNTERS_LINE).length;
  child.process.kill('SIGUSR1');
  const deadline = Date.now() + COUNTERS_WAIT_MS;
  for (;;) {
    const parts = child.stderr().split(COUNTERS_LINE);
    if (parts.length > seen) {
      const json = parts.at(-1)!.split('\n')[0]!;
      return Object.values(JSON.parse(json) as Record<string, PortCounters>);
    }
    if (Date.now() > deadline) throw new Error('the switch did not print its counters after SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function sampleSwitch(child: TrackedChild): Promise<SwitchSample> {
  const ports = await switchCounters(child);
  const machine = machineJiffies();
  return {
    packets: ports.reduce((sum, p) => sum + p.packetsIn + p.packetsOut, 0),
    cpuSeconds: processCpuSeconds(child.pid),
    machineBusy: machine.busy,
    machineTotal: machine.total,
  };
}

/** A ChildGroup that keeps every child it started, so their reports can be read afterwards. */
export class WatchedGroup extends ChildGroup {
  readonly started: TrackedChild[] = [];
  override async spawn(request: SpawnRequest): Promise<TrackedChild> {
    const child = await super.spawn(request);
    this.started.push(child);
    return child;
  }
}

/** The CPU time each SwitchML worker reports for its (last) call, summed, in s. */
export function workersCallCpuSeconds(group: WatchedGroup): number {
  let ms = 0;
  for (const child of group.started) {
    if (!child.name.startsWith('switchml-')) continue;
    const line = child.stdout().trim().split('\n').at(-1) ?? '';
    const report = JSON.parse(line) as { iterations?: { cpuMs?: number }[] };
    const cpuMs = report.iterations?.at(-1)?.cpuMs;
    if (typeof cpuMs !== 'number') throw new Error(`${child.name} reported no cpuMs`);
    ms += cpuMs;
  }
  return ms / 1000;
}
