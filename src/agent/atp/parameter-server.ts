/**
 * The ATP parameter server (PS): it receives every piece the switches did
 * not finish (collided, overflowed, flushed, partial or complete aggregates,
 * or contributions that crossed no aggregating switch), completes each
 * sequence of each job in software, and sends the ACKs back through the
 * switches (the rules per job are in ps-job.ts). Purely reactive: it has no
 * timers, the workers' resends drive recovery.
 */
import { moduleLogger } from '../../log/logger.js';
import { decodeAtp } from '../../wire/index.js';
import type { AddressedTransport, CeMarkSource } from '../transport/index.js';
import { DEFAULT_COVER_SEARCH_BUDGET, resolveAtpPsJob, type AtpParameterServerOptions } from './ps-options.js';
import { AtpPsJobState } from './ps-job.js';
import { addPsCounters, AtpPsCounters, snapshotPsCounters, type AtpPsStats } from './ps-stats.js';

const log = moduleLogger('agent.atp.ps');

export class AtpParameterServer {
  private readonly jobs = new Map<number, AtpPsJobState>();
  private readonly transport: AddressedTransport;
  private readonly ceMarks: CeMarkSource | undefined;
  private readonly closeTransport: boolean;
  /** Datagrams of no configured job, or not ATP at all. */
  private unknown = 0;
  private closed = false;

  constructor(options: AtpParameterServerOptions) {
    if (typeof options.transport?.sendTo !== 'function') throw new TypeError('transport must be an AddressedTransport');
    this.transport = options.transport;
    this.closeTransport = options.closeTransport ?? false;
    const budget = options.coverSearchBudget ?? DEFAULT_COVER_SEARCH_BUDGET;
    if (!Number.isInteger(budget) || budget < 1) throw new RangeError(`coverSearchBudget must be a positive integer, not ${budget}`);
    for (const job of options.jobs) {
      const resolved = resolveAtpPsJob(job);
      if (this.jobs.has(resolved.jobId)) throw new RangeError(`job ${resolved.jobId} is configured twice`);
      this.jobs.set(resolved.jobId, new AtpPsJobState(resolved, this.transport, budget));
    }
    this.transport.onDatagram((buf, offset, length) => this.receive(buf, offset, length));
    this.ceMarks = options.ceMarks;
    this.ceMarks?.onCeMark((buf, offset, length) => this.ceMark(buf, offset, length));
  }

  /** The counters of one job. */
  jobStats(jobId: number): AtpPsStats | undefined {
    const job = this.jobs.get(jobId);
    return job && snapshotPsCounters(job.counters);
  }

  /** Every job's counters added up, with the datagrams of no configured job as stray drops. */
  get stats(): AtpPsStats {
    const total = new AtpPsCounters();
    for (const job of this.jobs.values()) addPsCounters(total, job.counters);
    total.datagrams += this.unknown;
    total.strayDrops += this.unknown;
    return snapshotPsCounters(total);
  }

  /** Sequences of all jobs with pieces but no result yet. */
  get pendingSequences(): number {
    let n = 0;
    for (const job of this.jobs.values()) n += job.pendingSequences;
    return n;
  }

  private receive(buf: Buffer, offset: number, length: number): void {
    if (this.closed) return;
    const p = decodeAtp(buf, offset, offset + length);
    const job = p.ok ? this.jobs.get(p.jobId) : undefined;
    if (!p.ok || job === undefined) {
      if (this.unknown++ < 10) log.debug({ reason: p.ok ? `job ${p.jobId} is not served here` : p.code }, 'ATP datagram dropped');
      return;
    }
    job.receive(p);
  }

  /** A datagram arrived CE-marked (before or after the datagram itself reached `receive`). */
  private ceMark(buf: Buffer, offset: number, length: number): void {
    if (this.closed) return;
    const p = decodeAtp(buf, offset, offset + length);
    if (p.ok) this.jobs.get(p.jobId)?.ceMark(p);
  }

  /** Detaches from the transport and, with `closeTransport`, closes it. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.transport.onDatagram(undefined);
    this.ceMarks?.onCeMark(undefined);
    if (this.closeTransport) await this.transport.close();
  }
}
