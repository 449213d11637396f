/**
 * An in-memory network for SwitchML tests: every worker is joined to the
 * reference switch by a memory transport pair with seeded impairments. The
 * switch end of each pair plays the switch port: its packets go through the
 * model, RESULTs are copied to every worker of the job (multicast) and
 * RETRANSMITTED_RESULTs go back out of the port they came in on.
 *
 * Uplinks (worker → switch) may lose, duplicate and reorder packets, but keep
 * one slot's packets in order (the assumption SwitchML's switch logic makes;
 * see reference-switch.ts). Downlinks impair freely.
 */
import { createMemoryTransportPair, type LinkImpairments, type MemoryTransport } from '../../../../src/agent/transport/index.js';
import { ReferenceSwitchMl, type SwitchMlVerdict } from '../reference/reference-switch.js';
import { decodeSwitchMl, SWITCHML_HEADER_LENGTH } from '../../../../src/wire/index.js';

export interface Impairment {
  readonly loss?: number;
  readonly duplicate?: number;
  readonly reorder?: number;
}

export interface MemoryNetworkOptions {
  readonly seed?: number | string;
  readonly elementsPerPacket?: number;
  readonly capacity?: number;
  /** Impairments of every uplink and every downlink. */
  readonly up?: Impairment;
  readonly down?: Impairment;
  /** Return false to drop a packet the switch sends to a worker (before the downlink's own impairments). */
  readonly downFilter?: (jobId: number, workerId: number, packet: Buffer) => boolean;
}

export interface NetworkJob {
  readonly jobId: number;
  readonly slotBase: number;
  readonly poolSize: number;
  readonly workerIds: readonly number[];
}

/** The slot of an update, read from its pool index: the uplinks' order key. */
function slotKey(frame: Buffer): number | undefined {
  return frame.length >= SWITCHML_HEADER_LENGTH ? frame.readUInt16BE(8) & 0x7fff : undefined;
}

export class MemorySwitchMlNetwork {
  readonly model: ReferenceSwitchMl;
  /** Every verdict of the model, in order (for assertions). */
  readonly verdicts: SwitchMlVerdict[] = [];
  private readonly switchEnds = new Map<number, Map<number, MemoryTransport>>();
  private readonly workerEnds: MemoryTransport[] = [];

  constructor(private readonly options: MemoryNetworkOptions = {}) {
    this.model = new ReferenceSwitchMl({ capacity: options.capacity ?? 1024, elementsPerPacket: options.elementsPerPacket ?? 64 });
  }

  /** Installs the job in the model and returns one transport per worker, in `workerIds` order. */
  addJob(job: NetworkJob): MemoryTransport[] {
    this.model.addJob(job);
    const ends = new Map<number, MemoryTransport>();
    this.switchEnds.set(job.jobId, ends);
    return job.workerIds.map((workerId) => {
      const [worker, port] = createMemoryTransportPair({
        names: [`job${job.jobId}-worker${workerId}`, `switch-port-${job.jobId}-${workerId}`],
        aToB: this.impairments(this.options.up, slotKey),
        bToA: this.impairments(this.options.down),
      });
      port.onDatagram((buf, offset, length) => this.ingress(port, buf, offset, length));
      ends.set(workerId, port);
      this.workerEnds.push(worker);
      return worker;
    });
  }

  private impairments(impairment: Impairment | undefined, orderKey?: (frame: Buffer) => number | undefined): LinkImpairments | undefined {
    if (!impairment) return undefined;
    return { seed: this.options.seed ?? 1, ...impairment, orderKey };
  }

  private ingress(port: MemoryTransport, buf: Buffer, offset: number, length: number): void {
    const verdict = this.model.process(buf, offset, length);
    this.verdicts.push(verdict);
    if (verdict.action === 'multicast') {
      const ends = this.switchEnds.get(verdict.jobId)!;
      for (const workerId of verdict.workerIds) this.egress(ends.get(workerId)!, verdict.jobId, workerId, verdict.packet);
    } else if (verdict.action === 'unicast') {
      this.egress(port, verdict.jobId, verdict.workerId, verdict.packet);
    }
  }

  private egress(port: MemoryTransport, jobId: number, workerId: number, packet: Buffer): void {
    if (this.options.downFilter && !this.options.downFilter(jobId, workerId, packet)) return;
    port.send(packet);
  }

  /** What the impairments did, summed over all links. */
  impairmentTotals(): { lost: number; duplicated: number; reordered: number } {
    const totals = { lost: 0, duplicated: 0, reordered: 0 };
    const all = [...this.workerEnds, ...[...this.switchEnds.values()].flatMap((m) => [...m.values()])];
    for (const t of all) {
      totals.lost += t.linkStats.lost;
      totals.duplicated += t.linkStats.duplicated;
      totals.reordered += t.linkStats.reordered;
    }
    return totals;
  }

  async close(): Promise<void> {
    const all = [...this.workerEnds, ...[...this.switchEnds.values()].flatMap((m) => [...m.values()])];
    await Promise.all(all.map((t) => t.close()));
  }
}

/** The message type and tsi of a SwitchML packet, for filters. */
export function peek(packet: Buffer): { messageType: number; tsi: number; slot: number } | undefined {
  const p = decodeSwitchMl(packet);
  return p.ok ? { messageType: p.messageType, tsi: p.tsi, slot: p.slot } : undefined;
}
