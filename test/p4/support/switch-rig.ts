// One of p4/'s programs on the emulator: a SwitchDevice with in-memory ports,
// programmed over P4Runtime by a client, as a controller would. A frame
// injected on a port is processed at once; `send` returns what left, by port
// (ports with a queue release theirs as the test's virtual clock advances:
// `take` collects them). The per-program rigs (atp/, rina/) add the entries
// of their own jobs and name their own counters.
import { pino } from 'pino';
import { compilePipeline } from '../../../src/p4c/index.js';
import { parseP4Info } from '../../../src/p4info/index.js';
import {
  P4RuntimeClient, action, canonicalP4InfoBytes, counter, defaultEntry, insert, modify, register, table,
  type Update,
} from '../../../src/p4runtime/index.js';
import { SwitchDevice } from '../../../src/switch/device/switch-device.js';
import { PortSet } from '../../../src/switch/ports/port-set.js';
import type { QueueClock } from '../../../src/switch/queues/queue-clock.js';
import type { QueueSetting } from '../../../src/switch/queues/queue-setting.js';
import { ipv4ToText, macToText } from '../../../src/wire/index.js';
import { CapturePort, type CapturedFrame } from '../../e2e/switchml/support/capture-port.js';
import { SWITCH_IP, SWITCH_MAC, type Host } from './hosts.js';

const QUIET = pino({ level: 'silent' });

interface Pipeline { readonly p4info: ReturnType<typeof parseP4Info>; readonly deviceConfig: Buffer }
const pipelines = new Map<string, Pipeline>();

/** `program` compiled with `defines`, once per pair. */
function pipeline(program: string, defines: readonly string[]): Pipeline {
  const key = `${program}|${defines.join(',')}`;
  let hit = pipelines.get(key);
  if (!hit) {
    const result = compilePipeline(program, { defines });
    if (!result.ok) throw new Error(result.message);
    hit = { p4info: parseP4Info(canonicalP4InfoBytes(result.p4info), 'binary', program), deviceConfig: result.deviceConfig };
    pipelines.set(key, hit);
  }
  return hit;
}

export interface RigOptions {
  /** The clock of the switch's timestamps and egress queues (real time by default). */
  readonly clock?: QueueClock;
  /** Egress queues, as `p4ina switch --port-rate/--queue-depth` set them. */
  readonly queues?: readonly QueueSetting[];
}

export interface RigSetup extends RigOptions {
  /** The P4 source file. */
  readonly program: string;
  readonly defines: readonly string[];
  readonly ports: readonly number[];
  /** Hosts that get an L2 entry towards their switch port. */
  readonly hosts: readonly Host[];
}

interface RigParts {
  readonly device: SwitchDevice;
  readonly client: P4RuntimeClient;
  readonly ports: ReadonlyMap<number, CapturePort>;
  readonly captured: CapturedFrame[];
}

export class SwitchRig {
  readonly device: SwitchDevice;
  readonly client: P4RuntimeClient;
  private readonly ports: ReadonlyMap<number, CapturePort>;
  private readonly captured: CapturedFrame[];

  protected constructor(parts: RigParts) {
    this.device = parts.device;
    this.client = parts.client;
    this.ports = parts.ports;
    this.captured = parts.captured;
  }

  /** The program on a started switch with `ports`, the switch address and an L2 entry for each host; stopped again if any step fails. */
  protected static async boot(setup: RigSetup): Promise<RigParts> {
    const captured: CapturedFrame[] = [];
    const ports = new Map(setup.ports.map((n) => [n, new CapturePort(n, captured)]));
    const device = new SwitchDevice({
      ports: new PortSet(ports.values()), logger: QUIET,
      ...(setup.clock ? { queueClock: setup.clock } : {}), ...(setup.queues ? { queues: setup.queues } : {}),
    });
    const { port } = await device.start({ address: '127.0.0.1:0' });
    const client = new P4RuntimeClient({ address: `127.0.0.1:${port}`, deviceId: 0, electionId: 1n, reconnect: false });
    const parts = { device, client, ports, captured };
    try {
      await client.connect();
      const p = pipeline(setup.program, setup.defines);
      await client.setPipeline({ p4info: p.p4info, deviceConfig: p.deviceConfig });
      await client.write([
        modify(defaultEntry('ingress.identity.switch_address', action('ingress.identity.set_switch_address', { mac: macToText(SWITCH_MAC), ip: ipv4ToText(SWITCH_IP) }))),
        ...setup.hosts.map((h) => insert(table('ingress.forwarding.l2_forward', { dst_mac: macToText(h.mac) }, action('ingress.forwarding.forward', { port: h.switchPort })))),
      ]);
    } catch (err) {
      await new SwitchRig(parts).close();
      throw err;
    }
    return parts;
  }

  /** The frame enters on `port`; returns every frame the switch sent for it, in order. */
  send(port: number, frame: Buffer): CapturedFrame[] {
    this.captured.length = 0;
    this.ports.get(port)!.inject(Buffer.from(frame));
    return this.captured.splice(0);
  }

  /** Every frame sent since the last `send` or `take` (from queues, as the clock advanced). */
  take(): CapturedFrame[] {
    return this.captured.splice(0);
  }

  async write(updates: readonly Update[]): Promise<void> {
    await this.client.write([...updates]);
  }

  /** Every cell of a packet counter. */
  async counter(name: string): Promise<number[]> {
    const cells = await this.client.readAll(counter(name));
    const out: number[] = [];
    for (const c of cells) out[c.index ?? 0] = Number(c.data?.packetCount ?? 0);
    return Array.from(out, (v) => v ?? 0);
  }

  /** The counter's cells by the names of `codes` (name → cell index), zeros left out. */
  protected async namedCounts<K extends string>(name: string, codes: Readonly<Record<K, number>>): Promise<Partial<Record<K, number>>> {
    const cells = await this.counter(name);
    const out: Partial<Record<K, number>> = {};
    for (const [code, index] of Object.entries(codes) as [K, number][]) if (cells[index]) out[code] = cells[index];
    return out;
  }

  /** One register cell (bit<W> registers decode as numbers up to 53 bits); NaN when the read returns none. */
  protected async registerCell(name: string, index: number): Promise<number> {
    const [entry] = await this.client.readAll(register(name, { index }));
    return Number(entry?.value ?? Number.NaN);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.device.stop();
  }
}
