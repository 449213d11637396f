/**
 * The switch's pipeline in this process, for benchmarks that time it without
 * sockets: a program compiled from the repository, a SwitchDevice on ports
 * that only count what it sends, P4Runtime updates written straight into its
 * state, and a rate measured in this process's CPU time.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileProgram } from '../src/p4c/index.js';
import { serializeIr } from '../src/p4c/ir/serialize.js';
import { decodeMessage, encodeMessage } from '../src/proto/codec.js';
import type * as p4i from '../src/proto/p4i.js';
import type * as p4r from '../src/proto/p4r.js';
import { SwitchDevice } from '../src/switch/device/switch-device.js';
import { BasePort } from '../src/switch/ports/port.js';
import { PortSet } from '../src/switch/ports/port-set.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
/** A repository file, whether this runs from dist/bench or from another build directory. */
export function repoFile(relative: string): string {
  const beside = here(`../../${relative}`);
  return existsSync(beside) ? beside : path.resolve(process.cwd(), relative);
}

export interface Program {
  p4info: p4i.P4Info__Output;
  irText: string;
}

export function compile(relative: string, includeDirs: readonly string[] = [], defines: readonly string[] = []): Program {
  const result = compileProgram(repoFile(relative), { includeDirs: includeDirs.map(repoFile), defines: [...defines] });
  if (!result.ir || !result.p4info) throw new Error(`${relative} does not compile: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  const p4info = decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', encodeMessage('p4.config.v1.P4Info', result.p4info));
  return { p4info, irText: serializeIr(result.ir) };
}

/** A port that only counts what the switch sends. */
export class CountingPort extends BasePort {
  sent = 0;
  constructor(number: number) {
    super(number, `count${number}`, 'memory');
  }
  send(): boolean {
    this.sent++;
    return true;
  }
  inject(frame: Buffer): void {
    this.receive(frame);
  }
  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

export interface InProcessSwitch {
  device: SwitchDevice;
  ports: CountingPort[];
}

export function inProcessSwitch(program: Program, portCount = 4): InProcessSwitch {
  const ports = Array.from({ length: portCount }, (_, n) => new CountingPort(n));
  const device = new SwitchDevice({ ports: new PortSet(ports) });
  device.loadPipeline(program.p4info, program.irText);
  return { device, ports };
}

/**
 * Runs `once(i)` for `seconds` of this process's CPU time (checked every 1,000 calls); returns
 * calls per CPU second. CPU time rather than wall time, so that other work on a shared machine
 * taking the core away does not count against us (GC on helper threads does count).
 */
export function rate(seconds: number, once: (i: number) => void): number {
  const limit = seconds * 1e6;
  const t0 = process.cpuUsage();
  let done = 0;
  for (;;) {
    for (let k = 0; k < 1000; k++) once(done + k);
    done += 1000;
    const used = process.cpuUsage(t0);
    const micros = used.user + used.system;
    if (micros >= limit) return Math.round(done / (micros / 1e6));
  }
}

export function writeDecoded(device: SwitchDevice, updates: readonly p4r.Update[]): void {
  const decoded = updates.map((u) => decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', u)));
  const result = device.state.write(decoded, 'CONTINUE_ON_ERROR');
  const bad = (Array.isArray(result) ? result : [result]).find((s) => s.code !== 0);
  if (bad) throw new Error(`write refused: ${bad.message}`);
}
