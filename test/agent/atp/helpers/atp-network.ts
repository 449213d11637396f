/**
 * An in-memory ATP fabric for the agents' tests: racks of workers under
 * top-of-rack switches (ToRs), one core switch above them (the PS's ToR, the
 * level-1 switch of docs/atp.md), and the jobs' parameter servers on the core.
 * Every switch is a ReferenceAtpSwitch; a switch without an entry for a job
 * forwards its packets by destination, as a legacy switch would. Every hop is
 * an ImpairedLink per direction with seeded loss, duplication and reordering.
 *
 * A frame on a link is the ATP payload after a 2-byte destination (the
 * endpoint's id): the IPv4 destination of a real packet. Workers always send
 * to their job's PS; the PS names the worker each ACK goes to, and a ToR
 * aggregating for the job multicasts it to the job's workers in its rack.
 */
import { ListeningTransport, BaseTransport } from '../../../../src/agent/transport/base-transport.js';
import { sendLength } from '../../../../src/agent/transport/datagram-transport.js';
import { socketAddress, type AddressedTransport, type SocketAddress } from '../../../../src/agent/transport/index.js';
import { layoutAtpJob, type AtpContributor, type AtpWorkerPlacement } from '../../../../src/agent/atp/atp-job-layout.js';
import { ImpairedLink, type LinkImpairments } from '../../../../src/util/impaired-link.js';
import { markAtpEcn, ReferenceAtpSwitch } from '../reference/reference-atp-switch.js';

export interface Impairment {
  readonly loss?: number;
  readonly duplicate?: number;
  readonly reorder?: number;
}

export interface AtpNetworkOptions {
  /** Top-of-rack switches (racks). */
  readonly racks: number;
  readonly seed?: number | string;
  /** Aggregators in every switch's pool (default 256). */
  readonly poolSize?: number;
  readonly elementsPerPacket?: number;
  /** Impairments of every link, both directions. */
  readonly impair?: Impairment;
  /** Egress ECN: called for each packet a switch sends on towards a PS; true marks it. */
  readonly ecn?: (switchName: string, payload: Buffer) => boolean;
  /** Sees every packet the core sends on to a PS (after marking), e.g. to inject stray packets mid-job. */
  readonly tap?: (payload: Buffer) => void;
}

export interface AtpJobSpec {
  readonly jobId: number;
  /** The job's racks: under which ToR, how many workers, and whether that ToR aggregates for the job. */
  readonly racks: readonly { readonly tor: number; readonly workers: number; readonly aggregating: boolean }[];
  /** The core aggregates for the job at level 1. */
  readonly coreAggregates: boolean;
}

export interface AtpNetJob {
  readonly jobId: number;
  readonly worldSize: number;
  /** Index = rank. */
  readonly workers: readonly NetWorkerTransport[];
  readonly placements: readonly AtpWorkerPlacement[];
  readonly workerAddresses: readonly SocketAddress[];
  readonly ps: NetPsTransport;
  readonly psAddress: SocketAddress;
  readonly contributors: readonly AtpContributor<SocketAddress>[];
}

interface Endpoint {
  readonly id: number;
  readonly address: SocketAddress;
  /** The ToR a worker hangs off; undefined for a PS (on the core). */
  readonly tor: number | undefined;
  /** node → endpoint. */
  readonly down: ImpairedLink;
}

const ATP_PORT = 0xbf00;
const keyOf = (a: SocketAddress): string => `${a.address}:${a.port}`;

/** A worker's NIC: everything it sends goes to its PS, through its ToR. */
export class NetWorkerTransport extends BaseTransport {
  constructor(
    name: string,
    private readonly up: ImpairedLink,
    private readonly psId: number,
  ) {
    super(name, 65_507);
  }

  send(payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    if (this.closed) {
      this.counters.sendDrops++;
      return false;
    }
    const frame = Buffer.alloc(n + 2);
    frame.writeUInt16BE(this.psId, 0);
    frame.set(payload.subarray(0, n), 2);
    if (!this.up.offer(frame)) {
      this.counters.sendDrops++;
      return false;
    }
    this.counters.datagramsOut++;
    this.counters.bytesOut += n;
    return true;
  }

  readonly receive = (frame: Buffer): void => this.deliver(frame, 2, frame.length - 2);

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

/** A PS's NIC on the core. */
export class NetPsTransport extends ListeningTransport implements AddressedTransport {
  constructor(
    name: string,
    private readonly up: ImpairedLink,
    private readonly idOf: (to: SocketAddress) => number | undefined,
  ) {
    super(name, 65_507);
  }

  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    const id = this.idOf(to);
    if (this.closed || id === undefined) {
      this.counters.sendDrops++;
      return false;
    }
    const frame = Buffer.alloc(n + 2);
    frame.writeUInt16BE(id, 0);
    frame.set(payload.subarray(0, n), 2);
    if (!this.up.offer(frame)) {
      this.counters.sendDrops++;
      return false;
    }
    this.counters.datagramsOut++;
    this.counters.bytesOut += n;
    return true;
  }

  readonly receive = (frame: Buffer): void => this.deliver(frame, 2, frame.length - 2);

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

export class AtpMemoryNetwork {
  readonly tors: ReferenceAtpSwitch[];
  readonly core: ReferenceAtpSwitch;
  /** Frames dropped for an unknown destination. */
  unroutable = 0;
  private readonly links: ImpairedLink[] = [];
  private readonly endpoints: Endpoint[] = [];
  private readonly byKey = new Map<string, Endpoint>();
  /** ToR → core and core → ToR, per rack. */
  private readonly torUp: ImpairedLink[] = [];
  private readonly torDown: ImpairedLink[] = [];
  /** Per ToR and job, the endpoints an ACK is multicast to. */
  private readonly groups = new Map<string, number[]>();
  private readonly poolSize: number;
  private readonly elementsPerPacket: number;

  constructor(private readonly options: AtpNetworkOptions) {
    this.poolSize = options.poolSize ?? 256;
    this.elementsPerPacket = options.elementsPerPacket ?? 64;
    this.tors = Array.from({ length: options.racks }, (_, r) => new ReferenceAtpSwitch(`tor${r}`, this.poolSize, this.elementsPerPacket));
    this.core = new ReferenceAtpSwitch('core', this.poolSize, this.elementsPerPacket);
    for (let r = 0; r < options.racks; r++) {
      this.torUp.push(this.link(`tor${r}>core`, (f) => this.coreIngress(f)));
      this.torDown.push(this.link(`core>tor${r}`, (f) => this.torIngress(r, f)));
    }
  }

  /** Adds a job: its workers under their ToRs, its PS on the core, the switches' entries. */
  addJob(spec: AtpJobSpec): AtpNetJob {
    const job = spec.jobId;
    const psAddress = socketAddress(`10.${job % 250}.250.1`, ATP_PORT, 'ps');
    const psEnd = this.endpoint(psAddress, undefined, `ps${job}`);
    const racks = spec.racks.map((rack, i) => ({
      aggregating: rack.aggregating,
      workers: Array.from({ length: rack.workers }, (_, w) => socketAddress(`10.${job % 250}.${i}.${w + 1}`, ATP_PORT, 'worker')),
    }));
    const layout = layoutAtpJob(racks);
    const workers: NetWorkerTransport[] = [];
    spec.racks.forEach((rack, i) => {
      const ids: number[] = [];
      for (const address of racks[i]!.workers) {
        const name = `job${job}-rack${i}-${address.address}`;
        const up = this.link(`${name}>tor${rack.tor}`, (f) => this.torIngress(rack.tor, f));
        const transport = new NetWorkerTransport(name, up, psEnd.id);
        const end = this.endpointWith(address, rack.tor, this.link(`tor${rack.tor}>${name}`, transport.receive));
        ids.push(end.id);
        workers.push(transport);
      }
      if (rack.aggregating) {
        this.tors[rack.tor]!.addJob(job, { level: 0 });
        this.groups.set(`${rack.tor}:${job}`, ids);
      }
    });
    if (spec.coreAggregates) this.core.addJob(job, { level: 1 });
    const psUp = this.link(`ps${job}>core`, (f) => this.coreIngress(f));
    const ps = new NetPsTransport(`ps${job}`, psUp, (to) => this.byKey.get(keyOf(to))?.id);
    this.psReceivers.set(psEnd.id, ps.receive);
    return {
      jobId: job,
      worldSize: layout.worldSize,
      workers,
      placements: layout.workers,
      workerAddresses: racks.flatMap((r) => r.workers),
      ps,
      psAddress,
      contributors: layout.contributors,
    };
  }

  /** Delivers `payload` to an endpoint as if it came from the network (stray and forged packets). */
  inject(to: SocketAddress, payload: Buffer): void {
    const end = this.byKey.get(keyOf(to));
    if (end === undefined) throw new Error(`no endpoint ${keyOf(to)}`);
    const frame = Buffer.alloc(payload.length + 2);
    frame.writeUInt16BE(end.id, 0);
    payload.copy(frame, 2);
    end.down.offer(frame);
  }

  /** Hands `payload` to a ToR as if a worker of its rack had sent it to `to` (stale or forged switch state). */
  injectAtTor(tor: number, to: SocketAddress, payload: Buffer): void {
    const end = this.byKey.get(keyOf(to));
    if (end === undefined) throw new Error(`no endpoint ${keyOf(to)}`);
    const frame = Buffer.alloc(payload.length + 2);
    frame.writeUInt16BE(end.id, 0);
    payload.copy(frame, 2);
    this.torIngress(tor, frame);
  }

  /** True when nothing is in flight on any link. */
  get idle(): boolean {
    return this.links.every((l) => l.idle);
  }

  /** Turns the event loop until nothing is in flight (at most `maxTurns` turns); false if it never settles. */
  async settle(maxTurns = 100_000): Promise<boolean> {
    for (let turn = 0; turn < maxTurns; turn++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.idle) return true;
    }
    return this.idle;
  }

  /** What the impairments did, over every link. */
  impairmentTotals(): { lost: number; duplicated: number; reordered: number } {
    const t = { lost: 0, duplicated: 0, reordered: 0 };
    for (const l of this.links) {
      t.lost += l.stats.lost;
      t.duplicated += l.stats.duplicated;
      t.reordered += l.stats.reordered;
    }
    return t;
  }

  private readonly psReceivers = new Map<number, (frame: Buffer) => void>();

  private link(label: string, deliver: (frame: Buffer) => void): ImpairedLink {
    const imp = this.options.impair;
    const impairments: LinkImpairments | undefined = imp ? { seed: this.options.seed ?? 1, ...imp } : undefined;
    const l = new ImpairedLink(impairments, 1_000_000, label, deliver);
    this.links.push(l);
    return l;
  }

  private endpoint(address: SocketAddress, tor: number | undefined, name: string): Endpoint {
    // A PS's down link delivers to its transport, made later: look it up at delivery time.
    const id = this.endpoints.length;
    return this.endpointWith(address, tor, this.link(`core>${name}`, (f) => this.psReceivers.get(id)?.(f)));
  }

  private endpointWith(address: SocketAddress, tor: number | undefined, down: ImpairedLink): Endpoint {
    if (this.byKey.has(keyOf(address))) throw new Error(`address ${keyOf(address)} is taken`);
    const end: Endpoint = { id: this.endpoints.length, address, tor, down };
    this.endpoints.push(end);
    this.byKey.set(keyOf(address), end);
    return end;
  }

  private torIngress(r: number, frame: Buffer): void {
    const payload = frame.subarray(2);
    const verdict = this.tors[r]!.process(payload);
    if (verdict.action === 'consume' || verdict.action === 'drop') return;
    if (verdict.action === 'multicast') {
      const group = this.groups.get(`${r}:${verdict.jobId}`) ?? [];
      for (const id of group) {
        const copy = Buffer.from(frame);
        copy.writeUInt16BE(id, 0);
        this.endpoints[id]!.down.offer(copy);
      }
      return;
    }
    const dst = this.endpoints[frame.readUInt16BE(0)];
    if (dst === undefined) {
      this.unroutable++;
      return;
    }
    if (dst.tor === r) {
      dst.down.offer(frame);
      return;
    }
    if (this.options.ecn?.(`tor${r}`, payload)) markAtpEcn(payload);
    this.torUp[r]!.offer(frame);
  }

  private coreIngress(frame: Buffer): void {
    const payload = frame.subarray(2);
    const verdict = this.core.process(payload);
    if (verdict.action === 'consume' || verdict.action === 'drop') return;
    // The core has level-1 entries only: an ACK is forwarded, never multicast.
    const dst = this.endpoints[frame.readUInt16BE(0)];
    if (dst === undefined) {
      this.unroutable++;
      return;
    }
    if (dst.tor === undefined) {
      if (this.options.ecn?.('core', payload)) markAtpEcn(payload);
      this.options.tap?.(payload);
      dst.down.offer(frame);
      return;
    }
    this.torDown[dst.tor]!.offer(frame);
  }
}
