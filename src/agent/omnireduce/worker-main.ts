/**
 * One OmniReduce worker as a program, for `p4ina agent omnireduce-worker`:
 * open the kernel's UDP on this worker's address (or a UDP wire to a switch
 * port, `--transport wire`), reduce a seeded, optionally block-sparse tensor
 * (`workerTensor`, the same inputs every algorithm's workers reduce)
 * `iterations` times through the aggregator shards, and report timings, the
 * bytes and blocks it sent, and a digest of the result (the same digest on
 * every worker shows that the results are identical without shipping them).
 * With `check` it rebuilds every rank's tensor and compares the result with
 * their float64 sum, within the SwitchML quantisation bound with the block as
 * the chunk (with --zero-threshold above 0 the sum is lossy by design, and
 * the check says so).
 *
 * Exit status: 0 done, 1 the run failed (with the typed error), 2 bad arguments.
 */
import { createHash } from 'node:crypto';
import { workerTensor } from '../baseline/sparse-tensor.js';
import { CONSOLE_IO, isProcessEntry, runAsProcess, type MainIo } from '../baseline/worker-process.js';
import { agentCommand, type AgentProgram } from '../baseline/agent-program.js';
import { openAtpWire } from '../atp/wire-args.js';
import { compareWithFloat64Sum, jobChunkExponents } from '../switchml/quantisation.js';
import { formatSocketAddress, KernelUdpAddressedTransport, snapshotTransportCounters, type TransportCounters } from '../transport/index.js';
import { REAL_CLOCK, REAL_TIMERS } from '../time.js';
import { OMNIREDUCE_LOOPBACK_TIMING, OMNIREDUCE_MININET_TIMING } from './omnireduce-options.js';
import { OmniReduceWorker, type OmniReduceStats } from './omnireduce-worker.js';
import type { SentBytes } from '../allreduce.js';
import { OMNIREDUCE_WORKER_USAGE, parseOmniReduceWorkerArgs, type OmniReduceWorkerMainOptions } from './worker-args.js';

/**
 * One call's stats. `bytesSent` is what the transport sent during the call,
 * as every algorithm's worker reports it (SentBytes: UDP payloads over the
 * kernel's UDP, whole frames on a wire), so that the demo compares like with
 * like; `payloadBytesSent` is the worker's own count of OmniReduce messages
 * (headers, values and exponents), retransmissions included.
 */
export type OmniReduceCallReport = Omit<OmniReduceStats, 'bytesSent'> & SentBytes & { readonly payloadBytesSent: number };

export interface OmniReduceWorkerReport {
  readonly algorithm: 'omnireduce';
  readonly rank: number;
  readonly worldSize: number;
  readonly length: number;
  readonly blockSize: number;
  readonly zeroThreshold: number;
  /** The input's zero blocks (`--sparsity`, `--pattern`), or null for the dense tensor. */
  readonly sparsity: { readonly sparsity: number; readonly pattern: string; readonly blockElements: number } | null;
  /** The shards as `ADDR:PORT@FIRST+COUNT`. */
  readonly aggregators: readonly string[];
  /** Per call: time, retransmissions, the bytes and blocks sent, rounds, replies from strangers dropped. */
  readonly iterations: readonly OmniReduceCallReport[];
  /** SHA-256 of the last result's bytes. */
  readonly resultSha256: string;
  readonly transport: TransportCounters;
  /** With `check`: the largest |result − float64 sum| and how many elements broke the bound. */
  readonly check?: { readonly maxAbsError: number; readonly boundViolations: number };
}

/** Runs the worker: transport, iterations, report; always closes what it opened. Aborting `signal` fails the running call. */
export async function runOmniReduceWorker(options: OmniReduceWorkerMainOptions, signal?: AbortSignal): Promise<OmniReduceWorkerReport> {
  const timing = options.timing === 'mininet' ? OMNIREDUCE_MININET_TIMING : OMNIREDUCE_LOOPBACK_TIMING;
  const own = { address: options.localAddress, port: options.localPort };
  const first = options.aggregators[0]!.address;
  const transport = options.wire ? await openAtpWire(options.wire, own, first) : await KernelUdpAddressedTransport.open({ localAddress: own.address, localPort: own.port });
  let worker: OmniReduceWorker | undefined;
  const stop = (): void => void worker?.close();
  try {
    worker = new OmniReduceWorker({
      transport, rank: options.rank, worldSize: options.worldSize, aggregators: options.aggregators, blockSize: options.blockSize, zeroThreshold: options.zeroThreshold,
      clock: REAL_CLOCK, timers: REAL_TIMERS, timeoutMs: options.timeoutMs ?? timing.timeoutMs, backoff: timing.backoff, maxRetries: options.maxRetries ?? timing.maxRetries,
    });
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
    const tensor = workerTensor(options.length, options.seed, options.rank, options.worldSize, options.sparsity);
    const iterations: OmniReduceCallReport[] = [];
    let result: Float32Array = new Float32Array(0);
    for (let i = 0; i < options.iterations; i++) {
      const sentBefore = transport.counters.bytesOut;
      const outcome = await worker.allreduce(tensor);
      const { bytesSent, ...stats } = outcome.stats;
      iterations.push({ ...stats, bytesSent: transport.counters.bytesOut - sentBefore, payloadBytesSent: bytesSent });
      result = outcome.result;
    }
    const report: OmniReduceWorkerReport = {
      algorithm: 'omnireduce', rank: options.rank, worldSize: options.worldSize, length: options.length, blockSize: options.blockSize, zeroThreshold: options.zeroThreshold,
      sparsity: options.sparsity ?? null,
      aggregators: options.aggregators.map((a) => `${formatSocketAddress(a.address)}@${a.firstSlot}+${a.slotCount}`),
      iterations,
      resultSha256: createHash('sha256').update(new Uint8Array(result.buffer, result.byteOffset, result.byteLength)).digest('hex'),
      transport: snapshotTransportCounters(transport.counters),
    };
    return options.check ? { ...report, check: checkResult(result, tensor, options) } : report;
  } finally {
    signal?.removeEventListener('abort', stop);
    await worker?.close();
    await transport.close();
  }
}

/** Rebuilds every rank's tensor and compares `result` with their float64 sum, element by element, a block being a chunk. */
function checkResult(result: Float32Array, own: Float32Array, options: OmniReduceWorkerMainOptions): { maxAbsError: number; boundViolations: number } {
  const tensors = Array.from({ length: options.worldSize }, (_, rank) => (rank === options.rank ? own : workerTensor(options.length, options.seed, rank, options.worldSize, options.sparsity)));
  const { maxAbsError, violations } = compareWithFloat64Sum(result, tensors, jobChunkExponents(tensors, options.blockSize), options.blockSize);
  return { maxAbsError, boundViolations: violations };
}

/** One human-readable line. */
export function formatOmniReduceWorkerReport(report: OmniReduceWorkerReport): string {
  const last = report.iterations.at(-1);
  const ms = last?.elapsedMs ?? 0;
  const goodput = last && ms > 0 ? (last.bytes * 8) / (ms * 1e6) : 0;
  const retx = report.iterations.reduce((sum, s) => sum + s.retransmissions, 0);
  const strangers = report.iterations.reduce((sum, s) => sum + s.strangers, 0);
  const sent = last ? `, sent ${last.blocksSent}/${last.blocks} block(s) in ${last.payloadBytesSent} bytes of messages` : '';
  const check = report.check ? `, max error ${report.check.maxAbsError.toExponential(3)}, ${report.check.boundViolations} over the bound` : '';
  return (
    `omnireduce worker ${report.rank}/${report.worldSize}: ${report.length} elements × ${report.iterations.length} call(s), ` +
    `last ${ms.toFixed(1)} ms (${goodput.toFixed(2)} Gbit/s)${sent}, ${retx} retransmission(s)${strangers ? `, ${strangers} reply(ies) from strangers dropped` : ''}, result sha256 ${report.resultSha256.slice(0, 16)}…${check}`
  );
}

const PROGRAM: AgentProgram<OmniReduceWorkerMainOptions, Awaited<ReturnType<typeof runOmniReduceWorker>>> = {
  usage: OMNIREDUCE_WORKER_USAGE,
  parse: parseOmniReduceWorkerArgs,
  run: (options, _io, signal) => runOmniReduceWorker(options, signal),
  format: formatOmniReduceWorkerReport,
};

/** The whole command from argv: 2 for bad arguments, 1 when the run fails, else 0. */
export function omniReduceWorkerCommand(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return agentCommand(PROGRAM, argv, io, signal);
}

if (isProcessEntry(import.meta.url)) runAsProcess(omniReduceWorkerCommand);
