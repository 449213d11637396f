// p4/rina_tor.p4 on the emulator: a SwitchDevice with in-memory ports,
// programmed over P4Runtime by a client that writes entries by the names of
// docs/rina.md, as a controller would. A frame injected on a port is
// processed at once; `send` returns what left, by port.
import path from 'node:path';
import { pino } from 'pino';
import { compilePipeline } from '../../../../src/p4c/index.js';
import { parseP4Info } from '../../../../src/p4info/index.js';
import {
  P4RuntimeClient, action, canonicalP4InfoBytes, counter, defaultEntry, insert, modify, multicastGroup, register, table,
  type Update,
} from '../../../../src/p4runtime/index.js';
import { SwitchDevice } from '../../../../src/switch/device/switch-device.js';
import { PortSet } from '../../../../src/switch/ports/port-set.js';
import { ipv4ToText, macToText } from '../../../../src/wire/index.js';
import { CapturePort, type CapturedFrame } from '../../../e2e/switchml/support/capture-port.js';
import { P4_DIR } from '../../helpers.js';
import { NEXT, PRED, STRANGER, SWITCH_IP, SWITCH_MAC, worker, type Host } from './rina-network.js';

export const RINA_TOR_P4 = path.join(P4_DIR, 'rina_tor.p4');
const QUIET = pino({ level: 'silent' });

/** docs/rina.md, "Counters". */
export const Drop = {
  BAD_VERSION: 1, BAD_MESSAGE_TYPE: 2, BAD_PHASE: 3, BAD_ELEMENT_COUNT: 4, TRUNCATED: 5, BAD_LENGTH: 6, SLOT_OUT_OF_RANGE: 7,
  SLOT_BEYOND_REGISTERS: 8, BAD_STEP: 9, UNKNOWN_WORKER: 10, WRONG_SOURCE: 11, DUPLICATE: 12, STALE: 13, EARLY: 14,
} as const;
export const Outcome = {
  AGGREGATED: 1, EMITTED: 2, ANSWERED: 3, REEMITTED: 4, TO_AGENT: 5, RACK_MULTICAST: 6, TAKEOVER: 7, NO_JOB: 8, PASSING: 9, STASHED: 10,
} as const;
export const NEXT_MEMBER_RID = 32;

interface Pipeline { readonly p4info: ReturnType<typeof parseP4Info>; readonly deviceConfig: Buffer }
const pipelines = new Map<string, Pipeline>();

function pipeline(defines: readonly string[]): Pipeline {
  const key = defines.join(',');
  let hit = pipelines.get(key);
  if (!hit) {
    const result = compilePipeline(RINA_TOR_P4, { defines });
    if (!result.ok) throw new Error(result.message);
    hit = { p4info: parseP4Info(canonicalP4InfoBytes(result.p4info), 'binary', RINA_TOR_P4), deviceConfig: result.deviceConfig };
    pipelines.set(key, hit);
  }
  return hit;
}

export interface RinaJob {
  readonly jobId: number;
  readonly slotBase: number;
  readonly poolSize: number;
  /** Rack workers 0..rackWorkers−1 (worker 0 the agent), on ports 1.. . */
  readonly rackWorkers: number;
  readonly group: number;
  /** The rack's ring position and the ring's length. */
  readonly rank: number;
  readonly ringLength: number;
  /** The previous and next members (none for a ring of one). */
  readonly pred?: Host;
  readonly next?: Host;
}

const ALL_HOSTS: readonly Host[] = [...Array.from({ length: 8 }, (_, w) => worker(w)), PRED, NEXT, STRANGER];

export class RinaRig {
  private constructor(
    readonly device: SwitchDevice,
    readonly client: P4RuntimeClient,
    private readonly ports: Map<number, CapturePort>,
    private readonly captured: CapturedFrame[],
  ) {}

  /** rina_tor.p4 compiled with `defines`, ports 1..11, the switch address and L2 entries for every host. */
  static async start(defines: readonly string[]): Promise<RinaRig> {
    const captured: CapturedFrame[] = [];
    const ports = new Map(Array.from({ length: 11 }, (_, i) => i + 1).map((n) => [n, new CapturePort(n, captured)]));
    const device = new SwitchDevice({ ports: new PortSet(ports.values()), logger: QUIET });
    const { port } = await device.start({ address: '127.0.0.1:0' });
    const client = new P4RuntimeClient({ address: `127.0.0.1:${port}`, deviceId: 0, electionId: 1n, reconnect: false });
    const rig = new RinaRig(device, client, ports, captured);
    try {
      await client.connect();
      const p = pipeline(defines);
      await client.setPipeline({ p4info: p.p4info, deviceConfig: p.deviceConfig });
      await client.write([
        modify(defaultEntry('ingress.identity.switch_address', action('ingress.identity.set_switch_address', { mac: macToText(SWITCH_MAC), ip: ipv4ToText(SWITCH_IP) }))),
        ...ALL_HOSTS.map((h) => insert(table('ingress.forwarding.l2_forward', { dst_mac: macToText(h.mac) }, action('ingress.forwarding.forward', { port: h.switchPort })))),
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

  async write(updates: readonly Update[]): Promise<void> {
    await this.client.write([...updates]);
  }

  /** docs/rina.md's order: the group, the rewrites, the rack's workers, then the job's entry. */
  async addJob(job: RinaJob): Promise<void> {
    const workers = Array.from({ length: job.rackWorkers }, (_, w) => worker(w));
    const rewrite = (rid: number, h: Host): Update =>
      insert(table('egress.rina_rewrite', { job_id: job.jobId, egress_rid: rid }, action('egress.rina_rewrite_to', { dst_mac: macToText(h.mac), dst_ip: ipv4ToText(h.ip), dst_port: h.udpPort })));
    const replicas = workers.map((w, i) => ({ port: w.switchPort, instance: i }));
    if (job.next) replicas.push({ port: job.next.switchPort, instance: NEXT_MEMBER_RID });
    const agent = workers[0]!;
    await this.write([
      insert(multicastGroup(job.group, replicas)),
      ...workers.map((w, i) => rewrite(i, w)),
      ...(job.next ? [rewrite(NEXT_MEMBER_RID, job.next)] : []),
      ...workers.map((w, i) => insert(table('ingress.rina.rina_workers', { job_id: job.jobId, worker_id: i }, action('ingress.rina.rack_worker', { bitmap_bit: 2 ** i, src_addr: ipv4ToText(w.ip), src_port: w.udpPort })))),
      insert(table('ingress.rina.rina_jobs', { job_id: job.jobId }, action('ingress.rina.set_rina_job', {
        slot_base: job.slotBase, pool_size: job.poolSize, rack_mask: 2 ** job.rackWorkers - 1, rack_workers: job.rackWorkers,
        mcast_group: job.group, rank: job.rank, last_step: job.ringLength - 1,
        agent_ip: ipv4ToText(agent.ip), agent_port: agent.udpPort,
        pred_ip: ipv4ToText(job.pred?.ip ?? 0), pred_port: job.pred?.udpPort ?? 0,
      }))),
    ]);
  }

  /** Every cell of a packet counter. */
  async counter(name: string): Promise<number[]> {
    const cells = await this.client.readAll(counter(name));
    const out: number[] = [];
    for (const c of cells) out[c.index ?? 0] = Number(c.data?.packetCount ?? 0);
    return Array.from(out, (v) => v ?? 0);
  }

  async drops(): Promise<Partial<Record<keyof typeof Drop, number>>> {
    return named(await this.counter('ingress.rina.rina_drops'), Drop);
  }

  async outcomes(): Promise<Partial<Record<keyof typeof Outcome, number>>> {
    return named(await this.counter('ingress.rina.rina_outcomes'), Outcome);
  }

  /** One register cell of the slot copies. */
  async cell(name: string, index: number): Promise<number> {
    const [entry] = await this.client.readAll(register(`ingress.rina.round.${name}`, { index }));
    return Number(entry?.value ?? Number.NaN);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.device.stop();
  }
}

function named<K extends string>(cells: readonly number[], codes: Readonly<Record<K, number>>): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const [name, index] of Object.entries(codes) as [K, number][]) if (cells[index]) out[name] = cells[index];
  return out;
}

/** How much each count grew from `before` to `after`, zeros left out. */
export function grew<K extends string>(before: Partial<Record<K, number>>, after: Partial<Record<K, number>>): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const k of Object.keys(after) as K[]) {
    const d = (after[k] ?? 0) - (before[k] ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}
