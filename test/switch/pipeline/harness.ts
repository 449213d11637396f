/**
 * Runs corpus programs on a SwitchDevice with capturing ports, programmed
 * through DeviceState.write (P4Runtime updates as a controller sends them).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileProgram } from '../../../src/p4c/index.js';
import { serializeIr } from '../../../src/p4c/ir/serialize.js';
import type { IrProgram } from '../../../src/p4c/ir/types.js';
import { P4Schema } from '../../../src/p4info/schema.js';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4i from '../../../src/proto/p4i.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { SwitchDevice } from '../../../src/switch/device/switch-device.js';
import { BasePort } from '../../../src/switch/ports/port.js';
import { PortSet } from '../../../src/switch/ports/port-set.js';
import { Code } from '../../../src/switch/state/status.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS = path.resolve(HERE, '../../p4c/corpus');

export interface CompiledCorpus {
  readonly ir: IrProgram;
  readonly irText: string;
  readonly p4info: p4i.P4Info__Output;
  readonly schema: P4Schema;
}

const cache = new Map<string, CompiledCorpus>();

/** Compiles test/p4c/corpus/NAME.p4 (or `text`, named NAME.p4) with our compiler. */
export function compileCorpus(name: string, text?: string): CompiledCorpus {
  let c = cache.get(name);
  if (c) return c;
  const result = compileProgram(path.join(CORPUS, `${name}.p4`), { includeDirs: [path.join(CORPUS, 'include')], ...(text === undefined ? {} : { text }) });
  if (!result.ir || !result.p4info) throw new Error(`${name}.p4 does not compile: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  const p4info = decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', encodeMessage('p4.config.v1.P4Info', result.p4info));
  c = { ir: result.ir, irText: serializeIr(result.ir), p4info, schema: new P4Schema(p4info) };
  cache.set(name, c);
  return c;
}

/** A port that records what the switch sends and lets the test inject frames. */
export class CapturePort extends BasePort {
  readonly sent: Buffer[] = [];

  constructor(number: number) {
    super(number, `cap${number}`, 'memory');
  }

  send(frame: Buffer): boolean {
    this.sent.push(Buffer.from(frame));
    return true;
  }

  inject(frame: Buffer): void {
    this.receive(frame);
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Rig {
  readonly device: SwitchDevice;
  readonly ports: Map<number, CapturePort>;
  readonly program: CompiledCorpus;
  /** Sends a frame into `port`. */
  send(port: number, frame: Buffer): void;
  /** Takes (and clears) what each port sent. */
  take(): Record<number, string[]>;
  write(updates: p4r.Update[]): void;
}

export function rig(name: string, portNumbers: readonly number[] = [0, 1, 2, 3, 4], options: { cpuPort?: number; text?: string } = {}): Rig {
  const program = compileCorpus(name, options.text);
  const ports = new Map(portNumbers.map((n) => [n, new CapturePort(n)]));
  const device = new SwitchDevice({ ports: new PortSet(ports.values()), cpuPort: options.cpuPort });
  device.loadPipeline(program.p4info, program.irText);
  return {
    device,
    ports,
    program,
    send: (port, frame) => ports.get(port)!.inject(frame),
    take: () => {
      const out: Record<number, string[]> = {};
      for (const [n, p] of ports) {
        if (p.sent.length > 0) out[n] = p.sent.map((f) => f.toString('hex'));
        p.sent.length = 0;
      }
      return out;
    },
    write: (updates) => {
      const decoded = updates.map((u) => decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', u)));
      const result = device.state.write(decoded, 'CONTINUE_ON_ERROR');
      const statuses = Array.isArray(result) ? result : [result];
      const bad = statuses.find((s) => s.code !== Code.OK);
      if (bad) throw new Error(`write refused: ${bad.message}`);
    },
  };
}

/** A table entry update from names and canonical-or-padded values. */
export function tableEntry(
  program: CompiledCorpus,
  table: string,
  match: Record<string, { exact?: Buffer; lpm?: [Buffer, number]; ternary?: [Buffer, Buffer]; range?: [Buffer, Buffer]; optional?: Buffer }>,
  action: string,
  params: Record<string, Buffer> = {},
  priority = 0,
): p4r.Update {
  const t = program.schema.tables.get(table);
  const a = program.schema.actions.get(action);
  return {
    type: 'INSERT',
    entity: {
      table_entry: {
        table_id: t.id,
        priority,
        match: Object.entries(match).map(([name, m]) => {
          const f = t.matchFields.get(name);
          if (m.exact) return { field_id: f.id, exact: { value: canon(m.exact) } };
          if (m.lpm) return { field_id: f.id, lpm: { value: canon(m.lpm[0]), prefix_len: m.lpm[1] } };
          if (m.ternary) return { field_id: f.id, ternary: { value: canon(m.ternary[0]), mask: canon(m.ternary[1]) } };
          if (m.range) return { field_id: f.id, range: { low: canon(m.range[0]), high: canon(m.range[1]) } };
          return { field_id: f.id, optional: { value: canon(m.optional!) } };
        }),
        action: { action: { action_id: a.id, params: Object.entries(params).map(([name, value]) => ({ param_id: a.params.get(name).id, value: canon(value) })) } },
      },
    },
  };
}

export function canon(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

export const hex = (s: string): Buffer => Buffer.from(s.replace(/[\s:]/g, ''), 'hex');
