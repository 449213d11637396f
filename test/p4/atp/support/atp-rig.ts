// p4/atp.p4 on the emulator: a SwitchDevice with in-memory ports, programmed
// over P4Runtime by a client that writes entries by the names of
// docs/p4-programs.md, as a controller would. A frame injected on a port is
// processed at once; `send` returns what left, by port (ports with a queue
// release theirs as the test's virtual clock advances: `take` collects them).
// The switch's timestamps come from that clock when the test passes one.
import { pino } from 'pino';
import { compilePipeline } from '../../../../src/p4c/index.js';
import { parseP4Info } from '../../../../src/p4info/index.js';
import {
  P4RuntimeClient, action, canonicalP4InfoBytes, counter, defaultEntry, insert, modify, multicastGroup, register, table,
  type Update,
} from '../../../../src/p4runtime/index.js';
import { SwitchDevice } from '../../../../src/switch/device/switch-device.js';
import type { QueueClock } from '../../../../src/switch/queues/queue-clock.js';
import type { QueueSetting } from '../../../../src/switch/queues/queue-setting.js';
import { PortSet } from '../../../../src/switch/ports/port-set.js';
import { ipv4ToText, macToText } from '../../../../src/wire/index.js';
import { CapturePort, type CapturedFrame } from '../../../e2e/switchml/support/capture-port.js';
import { ATP_P4 } from '../../helpers.js';
import { PS, SWITCH_IP, SWITCH_MAC, UPLINK, worker, type Host } from './atp-network.js';

const QUIET = pino({ level: 'silent' });

export const OUTCOMES = 'ingress.atp.atp_outcomes';
/** docs/p4-programs.md, "atp_outcomes". */
export const Outcome = {
  AGGREGATED: 1, COMPLETED: 2, DUPLICATE: 3, COLLISION: 4, FLUSHED: 5, RESEND_ALONE: 6, OVERFLOW: 7, BAD_LENGTH: 8,
  MALFORMED: 9, RECLAIMED: 10, ACK_FREED: 11, ACK_NOT_OWNER: 12, ACK_MULTICAST: 13, OTHER_LEVEL: 14, NO_JOB: 15,
} as const;

interface Pipeline { readonly p4info: ReturnType<typeof parseP4Info>; readonly deviceConfig: Buffer }
const pipelines = new Map<string, Pipeline>();

function pipeline(defines: readonly string[]): Pipeline {
  const key = defines.join(',');
  let hit = pipelines.get(key);
  if (!hit) {
    const result = compilePipeline(ATP_P4, { defines });
    if (!result.ok) throw new Error(result.message);
    hit = { p4info: parseP4Info(canonicalP4InfoBytes(result.p4info), 'binary', ATP_P4), deviceConfig: result.deviceConfig };
    pipelines.set(key, hit);
  }
  return hit;
}

export interface Level0Job {
  readonly jobId: number;
  readonly generation?: number;
  readonly group: number;
  /** The rack's workers; replica instance = position in this list. */
  readonly workers: readonly Host[];
}

export interface RigOptions {
  /** The clock of the switch's timestamps and egress queues (real time by default). */
  readonly clock?: QueueClock;
  /** Egress queues, as `p4ina switch --port-rate/--queue-depth` set them. */
  readonly queues?: readonly QueueSetting[];
}

const ALL_HOSTS: readonly Host[] = [...Array.from({ length: 8 }, (_, w) => worker(w)), PS];

export class AtpRig {
  private constructor(
    readonly device: SwitchDevice,
    readonly client: P4RuntimeClient,
    private readonly ports: Map<number, CapturePort>,
    private readonly captured: CapturedFrame[],
  ) {}

  /** atp.p4 compiled with `defines`, on a switch with ports 1..8 and the uplink, the switch address and L2 entries for every host. */
  static async start(defines: readonly string[], hosts: readonly Host[] = ALL_HOSTS, options: RigOptions = {}): Promise<AtpRig> {
    const captured: CapturedFrame[] = [];
    const ports = new Map([1, 2, 3, 4, 5, 6, 7, 8, UPLINK].map((n) => [n, new CapturePort(n, captured)]));
    const device = new SwitchDevice({
      ports: new PortSet(ports.values()), logger: QUIET,
      ...(options.clock ? { queueClock: options.clock } : {}), ...(options.queues ? { queues: options.queues } : {}),
    });
    const { port } = await device.start({ address: '127.0.0.1:0' });
    const client = new P4RuntimeClient({ address: `127.0.0.1:${port}`, deviceId: 0, electionId: 1n, reconnect: false });
    const rig = new AtpRig(device, client, ports, captured);
    try {
      await client.connect();
      const p = pipeline(defines);
      await client.setPipeline({ p4info: p.p4info, deviceConfig: p.deviceConfig });
      await client.write([
        modify(defaultEntry('ingress.identity.switch_address', action('ingress.identity.set_switch_address', { mac: macToText(SWITCH_MAC), ip: ipv4ToText(SWITCH_IP) }))),
        ...hosts.map((h) => insert(table('ingress.forwarding.l2_forward', { dst_mac: macToText(h.mac) }, action('ingress.forwarding.forward', { port: h.switchPort })))),
      ]);
    } catch (err) {
      await rig.close();
      throw err;
    }
    return rig;
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

  /** ECN threshold (packets) and reclaim time (µs, 0 = never), as the controller sets them. */
  async settings(ecnThreshold: number, reclaimAfterUs: number): Promise<void> {
    await this.write([modify(defaultEntry('ingress.atp_settings', action('ingress.set_atp_settings', { ecn_threshold: ecnThreshold, reclaim_after_us: reclaimAfterUs })))]);
  }

  /** docs/p4-programs.md's order: the multicast group, the ACK addresses, then the job's entry. */
  async addLevel0Job(job: Level0Job): Promise<void> {
    await this.write([
      insert(multicastGroup(job.group, job.workers.map((w, i) => ({ port: w.switchPort, instance: i })))),
      ...job.workers.map((w, i) => insert(table('egress.ack_rewrite', { job_id: job.jobId, egress_rid: i },
        action('egress.rewrite_ack', { dst_mac: macToText(w.mac), dst_ip: ipv4ToText(w.ip), dst_port: w.udpPort })))),
      insert(table('ingress.atp.atp_jobs', { job_id: job.jobId }, action('ingress.atp.aggregate_at_level0', { generation: job.generation ?? 1, mcast_group: job.group }))),
    ]);
  }

  async addLevel1Job(jobId: number, generation = 1): Promise<void> {
    await this.write([insert(table('ingress.atp.atp_jobs', { job_id: jobId }, action('ingress.atp.aggregate_at_level1', { generation })))]);
  }

  /** Every cell of a packet counter. */
  async counter(name: string): Promise<number[]> {
    const cells = await this.client.readAll(counter(name));
    const out: number[] = [];
    for (const c of cells) out[c.index ?? 0] = Number(c.data?.packetCount ?? 0);
    return Array.from(out, (v) => v ?? 0);
  }

  /** The outcome counts by name, zeros left out. */
  async outcomes(): Promise<Partial<Record<keyof typeof Outcome, number>>> {
    const cells = await this.counter(OUTCOMES);
    const out: Partial<Record<keyof typeof Outcome, number>> = {};
    for (const [name, index] of Object.entries(Outcome)) if (cells[index]) out[name as keyof typeof Outcome] = cells[index];
    return out;
  }

  /** One register cell (bit<W> registers decode as numbers up to 53 bits). */
  async cell(name: string, index: number): Promise<number> {
    const [entry] = await this.client.readAll(register(`ingress.atp.${name}`, { index }));
    return Number(entry?.value ?? Number.NaN);
  }

  /** The aggregator at `index` as the registers hold it. */
  async aggregator(index: number, values = 0): Promise<{ owner: number; generation: number; bitmap: number; count: number; ecn: number; values: number[] }> {
    const sums: number[] = [];
    for (let i = 0; i < values; i++) sums.push((await this.cell('values', index * values + i)) | 0);
    return {
      owner: await this.cell('owner', index), generation: await this.cell('owner_generation', index), bitmap: await this.cell('bitmap', index),
      count: await this.cell('count', index), ecn: await this.cell('ecn', index), values: sums,
    };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.device.stop();
  }
}
