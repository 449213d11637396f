/**
 * One ATP worker as a program, for `p4ina agent atp-worker` and the demo:
 * open a kernel UDP socket towards the PS (with `--ecn-ip`, and a raw IP
 * socket for CE marks), or a UDP wire to a switch port (`--transport wire`,
 * which reads CE marks itself), reduce a seeded tensor
 * `iterations` times, and report timings, counters and a digest of the result
 * (the same digest on every worker shows the results are identical without
 * shipping them). With `check` it rebuilds every worker's tensor from the
 * seed and compares the result with the float64 reference (atpErrorBound).
 * The tensors are every worker's (`workerTensor`), so the demo can
 * compare algorithms on the same inputs.
 *
 * Exit status: 0 done, 1 the run failed (with the typed error), 2 bad arguments.
 */
import { createHash } from 'node:crypto';
import { compareWithReference, float64Reference } from '../baseline/accuracy.js';
import { workerTensor } from '../baseline/sparse-tensor.js';
import type { SentBytes } from '../allreduce.js';
import { CONSOLE_IO, isProcessEntry, runAsProcess, type MainIo } from '../baseline/worker-process.js';
import { agentCommand, runAgentProgram, type AgentProgram } from '../baseline/agent-program.js';
import { KernelUdpTransport, snapshotTransportCounters, type Ipv4CeObserverCounters, type TransportCounters } from '../transport/index.js';
import { ATP_LOOPBACK_TIMING, ATP_MININET_TIMING } from './atp-options.js';
import { atpErrorBound } from './atp-scale.js';
import type { AtpStats } from './atp-stats.js';
import { AtpWorker } from './atp-worker.js';
import { openAtpWire } from './wire-args.js';
import { ATP_WORKER_USAGE, parseAtpWorkerArgs, type AtpWorkerMainOptions } from './worker-args.js';

export interface AtpWorkerReport {
  readonly algorithm: 'atp';
  readonly rank: number;
  readonly worldSize: number;
  readonly jobId: number;
  readonly length: number;
  readonly iterations: readonly (AtpStats & SentBytes)[];
  /** SHA-256 of the last result's bytes. */
  readonly resultSha256: string;
  readonly transport: TransportCounters;
  /** With --ecn-ip on the kernel's UDP: what the IPv4 CE observer saw. */
  readonly ceObserver?: Ipv4CeObserverCounters;
  /** With `check`: the largest |result − reference| and how many elements broke the bound. */
  readonly check?: { readonly maxAbsError: number; readonly boundViolations: number };
}

/** Runs the worker: transport, iterations, report; always closes what it opened. */
export async function runAtpWorker(options: AtpWorkerMainOptions, signal?: AbortSignal): Promise<AtpWorkerReport> {
  const timing = options.timing === 'mininet' ? ATP_MININET_TIMING : ATP_LOOPBACK_TIMING;
  const own = { address: options.localAddress, port: options.localPort };
  const ps = { address: options.psAddress, port: options.psPort };
  const transport = options.wire
    ? await openAtpWire(options.wire, own, ps)
    : await KernelUdpTransport.open({ localAddress: own.address, localPort: own.port, remoteAddress: ps.address, remotePort: ps.port, observeCe: options.ecnIp === true });
  let worker: AtpWorker | undefined;
  try {
    worker = new AtpWorker({
      transport,
      ceMarks: transport,
      jobId: options.jobId,
      rank: options.rank,
      worldSize: options.worldSize,
      poolSize: options.poolSize,
      poolBase: options.poolBase,
      bitmap0Bit: options.bitmap0Bit,
      bitmap1Bit: options.bitmap1Bit,
      fanIn0: options.fanIn0,
      fanIn1: options.fanIn1,
      elementsPerPacket: options.elementsPerPacket,
      maxWindow: options.maxWindow,
      initialWindow: options.initialWindow,
      valueRange: options.valueRange,
      firstSequence: options.firstSequence,
      timeoutMs: options.timeoutMs ?? timing.timeoutMs,
      backoff: timing.backoff,
      maxRetries: options.maxRetries ?? timing.maxRetries,
      closeTransport: true,
    });
    const tensor = workerTensor(options.length, options.seed, options.rank, options.worldSize, options.sparsity);
    const iterations: (AtpStats & SentBytes)[] = [];
    let result: Float32Array = new Float32Array(0);
    for (let i = 0; i < options.iterations; i++) {
      const sentBefore = transport.counters.bytesOut;
      const outcome = await worker.allreduce(tensor, { signal });
      iterations.push({ ...outcome.stats, bytesSent: transport.counters.bytesOut - sentBefore });
      result = outcome.result;
    }
    const report: AtpWorkerReport = {
      algorithm: 'atp',
      rank: options.rank,
      worldSize: options.worldSize,
      jobId: options.jobId,
      length: options.length,
      iterations,
      resultSha256: createHash('sha256').update(new Uint8Array(result.buffer, result.byteOffset, result.byteLength)).digest('hex'),
      transport: snapshotTransportCounters(transport.counters),
      ...(transport instanceof KernelUdpTransport && transport.ceCounters !== undefined ? { ceObserver: transport.ceCounters } : {}),
    };
    return options.check ? { ...report, check: checkResult(result, tensor, options, worker.scale.factor) } : report;
  } finally {
    await worker?.close();
    await transport.close();
  }
}

/** Rebuilds every worker's tensor and compares `result` with their float64 sum, element by element. */
function checkResult(result: Float32Array, own: Float32Array, options: AtpWorkerMainOptions, factor: number): { maxAbsError: number; boundViolations: number } {
  const tensors = Array.from({ length: options.worldSize }, (_, rank) => (rank === options.rank ? own : workerTensor(options.length, options.seed, rank, options.worldSize, options.sparsity)));
  const ref = float64Reference(tensors);
  const { maxAbsError, violations } = compareWithReference(result, ref, (i) => atpErrorBound(options.worldSize, factor, ref.sum[i]!, ref.absSum[i]!));
  return { maxAbsError, boundViolations: violations };
}

/** One human-readable line. */
export function formatAtpWorkerReport(report: AtpWorkerReport): string {
  const last = report.iterations.at(-1);
  const ms = last?.elapsedMs ?? 0;
  const goodput = last && ms > 0 ? (last.bytes * 8) / (ms * 1e6) : 0;
  const resends = report.iterations.reduce((sum, s) => sum + s.retransmissions, 0);
  const marks = report.iterations.reduce((sum, s) => sum + s.ecnMarks + s.ipCeMarks + s.duplicateEcnMarks, 0);
  const floats = report.iterations.reduce((sum, s) => sum + s.overflowPackets, 0);
  const window = last ? `, window ${last.window} (${last.windowMin}..${last.windowMax}), RTO ${last.rtoMs.toFixed(1)} ms` : '';
  const check = report.check ? `, max error ${report.check.maxAbsError.toExponential(3)}, ${report.check.boundViolations} over the bound` : '';
  return (
    `atp worker ${report.rank}/${report.worldSize} (job ${report.jobId}): ${report.length} elements × ${report.iterations.length} call(s), ` +
    `last ${ms.toFixed(1)} ms (${goodput.toFixed(2)} Gbit/s), ${resends} resend(s), ${floats} float packet(s), ${marks} ECN mark(s)${window}, result sha256 ${report.resultSha256.slice(0, 16)}…${check}`
  );
}

const PROGRAM: AgentProgram<AtpWorkerMainOptions, Awaited<ReturnType<typeof runAtpWorker>>> = {
  usage: ATP_WORKER_USAGE,
  parse: parseAtpWorkerArgs,
  run: (options, _io, signal) => runAtpWorker(options, signal),
  format: formatAtpWorkerReport,
};

/** Runs parsed options and prints the report; resolves to the exit status (0 done, 1 failed). */
export function atpWorkerMain(options: AtpWorkerMainOptions, io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return runAgentProgram(PROGRAM, options, io, signal);
}

/** The whole command from argv: 2 for bad arguments, else as atpWorkerMain. */
export function atpWorkerCommand(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return agentCommand(PROGRAM, argv, io, signal);
}

if (isProcessEntry(import.meta.url)) runAsProcess(atpWorkerCommand);
