/** Frames of queue_probe.p4 and the switch that runs it on a virtual clock, with ports that note when each frame left. */
import { readFileSync } from 'node:fs';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { SwitchDevice } from '../../../src/switch/device/switch-device.js';
import { BasePort } from '../../../src/switch/ports/port.js';
import { PortSet } from '../../../src/switch/ports/port-set.js';
import { Code } from '../../../src/switch/state/status.js';
import type { QueueSetting } from '../../../src/switch/queues/queue-setting.js';
import { compileCorpus, type CompiledCorpus } from '../pipeline/harness.js';
import { VirtualClock } from './virtual-clock.js';

export const probeProgram = (): CompiledCorpus => compileCorpus('queue_probe', readFileSync(new URL('./queue_probe.p4', import.meta.url), 'utf8'));

/** out_port 0xff: multicast group 1. */
export const MULTICAST = 0xff;

/** A probe frame to `outPort`, optionally cloned to a session at ingress or at egress. */
export function probeFrame(outPort: number, seq: number, clone: { i2e?: number; e2e?: number } = {}): Buffer {
  const f = Buffer.alloc(14 + 38);
  Buffer.from('000000000002000000000001', 'hex').copy(f, 0);
  f.writeUInt16BE(0x88b5, 12);
  f[14] = outPort;
  f[15] = seq;
  f[49] = clone.i2e ?? 0;
  f[50] = clone.e2e ?? 0;
  return f;
}

export interface Probe {
  seq: number;
  egressPort: number;
  egressRid: number;
  enqQdepth: number;
  deqQdepth: number;
  enqTimestamp: number;
  deqTimedelta: number;
  ingressTs: number;
  egressTs: number;
  mark: number;
  instanceType: number;
}

export function readProbe(f: Buffer): Probe {
  return {
    seq: f[15]!,
    egressPort: f.readUInt16BE(16),
    egressRid: f.readUInt16BE(18),
    enqQdepth: f.readUInt32BE(20),
    deqQdepth: f.readUInt32BE(24),
    enqTimestamp: f.readUInt32BE(28),
    deqTimedelta: f.readUInt32BE(32),
    ingressTs: f.readUIntBE(36, 6),
    egressTs: f.readUIntBE(42, 6),
    mark: f[48]!,
    instanceType: f[51]!,
  };
}

/** A port that keeps each frame the switch sends with the virtual time it left at. */
export class TimedPort extends BasePort {
  readonly sent: { at: number; probe: Probe }[] = [];

  constructor(
    number: number,
    private readonly clock: VirtualClock,
  ) {
    super(number, `timed${number}`, 'memory');
  }

  send(frame: Buffer): boolean {
    this.sent.push({ at: this.clock.nowMicros(), probe: readProbe(frame) });
    return true;
  }

  inject(frame: Buffer): void {
    this.receive(frame);
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

export interface ProbeSwitch {
  readonly clock: VirtualClock;
  readonly device: SwitchDevice;
  readonly ports: Map<number, TimedPort>;
  send(port: number, frame: Buffer): void;
}

export function probeSwitch(queues: readonly QueueSetting[], start: number, portNumbers: readonly number[] = [0, 1, 2, 3]): ProbeSwitch {
  const clock = new VirtualClock(start);
  const ports = new Map(portNumbers.map((n) => [n, new TimedPort(n, clock)]));
  const device = new SwitchDevice({ ports: new PortSet(ports.values()), queues, queueClock: clock });
  const program = probeProgram();
  device.loadPipeline(program.p4info, program.irText);
  return { clock, device, ports, send: (port, frame) => ports.get(port)!.inject(frame) };
}

/** Applies P4Runtime updates as a controller's Write would; throws if one is refused. */
export function writeUpdates(device: SwitchDevice, updates: readonly p4r.Update[]): void {
  const decoded = updates.map((u) => decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', u)));
  const result = device.state.write(decoded, 'CONTINUE_ON_ERROR');
  const bad = (Array.isArray(result) ? result : [result]).find((s) => s.code !== Code.OK);
  if (bad) throw new Error(`write refused: ${bad.message}`);
}
