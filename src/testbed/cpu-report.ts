/**
 * Where a testbed run's CPU went: each P4 switch process's user and system
 * time while the run's agents ran (the runner reads /proc/PID/stat around the
 * run: mininet/p4ina_mininet/cpu_use.py), and the workers' own CPU during
 * their calls (the `cpuMs` SwitchML and ATP workers report). On a machine
 * whose few cores the switch, the agents and Mininet share, this says
 * whether the switch had a core to itself.
 */
import { parseWorkerReport } from '../report/demo-results.js';
import { TESTBED_ERROR_CODES, TestbedError } from './testbed-error.js';

export interface SwitchCpuUse {
  readonly switch: string;
  readonly userMs: number;
  readonly systemMs: number;
}

/** A run's CPU: the switches' (empty when no switch process was measured) and the workers' summed, when they all report it. */
export interface RunCpu {
  readonly switches: readonly SwitchCpuUse[];
  readonly workersMs: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The run's `switchCpu` list (absent in documents from before it was measured: empty). */
export function parseSwitchCpu(value: unknown, run: number): SwitchCpuUse[] {
  if (value === undefined) return [];
  const bad = (): never => {
    throw new TestbedError(TESTBED_ERROR_CODES.badReport, `the testbed's results document has a malformed "switchCpu" in run ${run}: a list of {switch, userMs, systemMs} is expected`);
  };
  if (!Array.isArray(value)) return bad();
  return value.map((s: unknown) => (isRecord(s) && typeof s.switch === 'string' && isTime(s.userMs) && isTime(s.systemMs) ? { switch: s.switch, userMs: s.userMs, systemMs: s.systemMs } : bad()));
}

/** The sum of every worker's `cpuMs` in its last call; null when a report lacks it (ring, PS, …) or cannot be read. */
export function workersCpuMs(reports: readonly string[]): number | null {
  let sum = 0;
  for (const text of reports) {
    let cpuMs: number | undefined;
    try {
      cpuMs = parseWorkerReport(text).cpuMs;
    } catch {
      return null;
    }
    if (cpuMs === undefined) return null;
    sum += cpuMs;
  }
  return reports.length > 0 ? sum : null;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);

/** "; CPU: p4is1 2.10 s (user 1.80, system 0.30), workers 2.04 s", or '' when nothing was measured. */
export function describeRunCpu(cpu: RunCpu): string {
  const parts = cpu.switches.map((s) => `${s.switch} ${seconds(s.userMs + s.systemMs)} s (user ${seconds(s.userMs)}, system ${seconds(s.systemMs)})`);
  if (cpu.workersMs !== null) parts.push(`workers ${seconds(cpu.workersMs)} s`);
  return parts.length > 0 ? `; CPU: ${parts.join(', ')}` : '';
}
