/**
 * One Rina worker as a program, for `p4ina agent rina-worker`: open the
 * kernel's UDP on this worker's ring address, or a UDP wire to a switch port
 * (`--transport wire`), reduce a seeded tensor `iterations` times, keep
 * answering retransmissions until the ring is quiet (`--drain`: a peer may
 * still miss an ACK), and report timings, counters and a digest of the
 * result (the same digest on every worker shows that the results are
 * identical without shipping them). With `check` it rebuilds every worker's
 * tensor from the seed and compares the result with the float64 reference
 * (docs/rina.md §5). The tensors are every worker's (`workerTensor`), so
 * runs compare algorithms on the same inputs.
 *
 * Exit status: 0 done, 1 the run failed (with the typed error), 2 bad arguments.
 */
import { createHash } from 'node:crypto';
import { workerTensor } from '../baseline/sparse-tensor.js';
import type { SentBytes } from '../allreduce.js';
import { CONSOLE_IO, isProcessEntry, runAsProcess, type MainIo } from '../baseline/worker-process.js';
import { agentCommand, type AgentProgram } from '../baseline/agent-program.js';
import { openAtpWire } from '../atp/wire-args.js';
import { KernelUdpAddressedTransport, snapshotTransportCounters, type TransportCounters } from '../transport/index.js';
import { REAL_CLOCK } from '../time.js';
import { callLayouts } from './rina-call.js';
import { checkRinaResult, type RinaCheck } from './rina-check.js';
import { RINA_LOOPBACK_TIMING, RINA_MININET_TIMING } from './rina-options.js';
import type { RinaStats } from './rina-stats.js';
import { RinaWorker } from './rina-worker.js';
import { parseRinaWorkerArgs, RINA_WORKER_USAGE, type RinaWorkerMainOptions } from './worker-args.js';

export interface RinaWorkerReport {
  readonly algorithm: 'rina';
  readonly rank: number;
  readonly worldSize: number;
  readonly jobId: number;
  readonly role: string;
  readonly ringLength: number;
  readonly length: number;
  readonly iterations: readonly (RinaStats & SentBytes)[];
  /** Wall-clock time of all the calls, in ms. */
  readonly elapsedMs: number;
  /** Retransmissions over all the calls. */
  readonly retransmissions: number;
  /** SHA-256 of the last result's bytes. */
  readonly resultSha256: string;
  readonly transport: TransportCounters;
  /** With `check`: the largest |result − reference| and how many elements broke the bound. */
  readonly check?: RinaCheck;
}

/** Runs the worker: transport, iterations, drain, report; always closes what it opened. */
export async function runRinaWorker(options: RinaWorkerMainOptions, signal?: AbortSignal): Promise<RinaWorkerReport> {
  const timing = options.timing === 'mininet' ? RINA_MININET_TIMING : RINA_LOOPBACK_TIMING;
  const own = options.ring[options.place.position]!.workers[options.place.workerId]!;
  const transport = options.wire
    ? await openAtpWire(options.wire, own, own)
    : await KernelUdpAddressedTransport.open({ localAddress: own.address, localPort: own.port });
  let worker: RinaWorker | undefined;
  try {
    worker = new RinaWorker({
      transport, jobId: options.jobId, rank: options.rank, ring: options.ring, place: options.place, torAddress: options.torAddress, poolSize: options.poolSize,
      elementsPerPacket: options.elementsPerPacket, firstEpoch: options.firstEpoch, timeoutMs: options.timeoutMs ?? timing.timeoutMs,
      backoff: timing.backoff, maxRetries: options.maxRetries ?? timing.maxRetries, closeTransport: true,
    });
    const tensor = workerTensor(options.length, options.seed, options.rank, worker.worldSize, options.sparsity);
    const iterations: (RinaStats & SentBytes)[] = [];
    let result: Float32Array = new Float32Array(0);
    const started = REAL_CLOCK.now();
    for (let i = 0; i < options.iterations; i++) {
      const sentBefore = transport.counters.bytesOut;
      const outcome = await worker.allreduce(tensor, { signal });
      iterations.push({ ...outcome.stats, bytesSent: transport.counters.bytesOut - sentBefore });
      result = outcome.result;
    }
    const elapsedMs = REAL_CLOCK.now() - started;
    await worker.drain(options.drainMs ?? 2 * timing.backoff.maxTimeoutMs);
    const report: RinaWorkerReport = {
      algorithm: 'rina', rank: options.rank, worldSize: worker.worldSize, jobId: options.jobId, role: worker.options.role,
      ringLength: options.ring.length, length: options.length, iterations, elapsedMs,
      retransmissions: iterations.reduce((n, s) => n + s.retransmissions, 0),
      resultSha256: createHash('sha256').update(new Uint8Array(result.buffer, result.byteOffset, result.byteLength)).digest('hex'),
      transport: snapshotTransportCounters(transport.counters),
    };
    if (!options.check || options.length === 0) return report;
    const worldSize = worker.worldSize;
    const tensors = Array.from({ length: worldSize }, (_, rank) => (rank === options.rank ? tensor : workerTensor(options.length, options.seed, rank, worldSize, options.sparsity)));
    return { ...report, check: checkRinaResult(result, tensors, callLayouts(options.length, worker.options).data) };
  } finally {
    await worker?.close();
    await transport.close();
  }
}

/** One human-readable line. */
export function formatRinaWorkerReport(report: RinaWorkerReport): string {
  const last = report.iterations.at(-1);
  const ms = last?.elapsedMs ?? 0;
  const goodput = last && ms > 0 ? (last.bytes * 8) / (ms * 1e6) : 0;
  const check = report.check ? `, max error ${report.check.maxAbsError.toExponential(3)}, ${report.check.boundViolations} over the bound` : '';
  return (
    `rina worker ${report.rank}/${report.worldSize} (job ${report.jobId}, ${report.role} in a ring of ${report.ringLength}): ` +
    `${report.length} elements × ${report.iterations.length} call(s), last ${ms.toFixed(1)} ms (${goodput.toFixed(2)} Gbit/s), ` +
    `${report.retransmissions} retransmission(s), result sha256 ${report.resultSha256.slice(0, 16)}…${check}`
  );
}

const PROGRAM: AgentProgram<RinaWorkerMainOptions, Awaited<ReturnType<typeof runRinaWorker>>> = {
  usage: RINA_WORKER_USAGE,
  parse: parseRinaWorkerArgs,
  run: (options, _io, signal) => runRinaWorker(options, signal),
  format: formatRinaWorkerReport,
};

/** The whole command from argv: 2 for bad arguments, 1 when the run fails, else 0. */
export function rinaWorkerCommand(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return agentCommand(PROGRAM, argv, io, signal);
}

if (isProcessEntry(import.meta.url)) runAsProcess(rinaWorkerCommand);
