/**
 * One SwitchML worker as a program, for `p4ina agent` and the demo: open the
 * transport the options name, reduce a seeded tensor `iterations` times, and
 * report timings, counters and a digest of the result (the same digest on
 * every worker shows that the results are identical without shipping them).
 * With `check`, it rebuilds every worker's tensor from the seed and compares
 * the result with the float64 reference against the quantisation bound.
 *
 * `runSwitchMlWorker(options)` returns the report; `switchMlWorkerMain` prints
 * it and returns an exit status (0 done, 1 failed, with the typed error's code
 * and message). The tensors are every worker's (`workerTensor`: seeded, dense or
 * block-sparse), so the demo can compare algorithms on the same inputs.
 *
 *   node dist/src/agent/switchml/worker-main.js --transport udp --local 10.0.0.1:40000 --switch 10.0.0.254:48864 …
 *
 * runs it as a process (see worker-args.ts for the options).
 */
import { createHash } from 'node:crypto';
import { workerTensor } from '../baseline/sparse-tensor.js';
import type { SentBytes } from '../allreduce.js';
import { CONSOLE_IO, isProcessEntry, runAsProcess, type MainIo } from '../baseline/worker-process.js';
import { agentCommand, runAgentProgram, type AgentProgram } from '../baseline/agent-program.js';
import { type DatagramTransport, KernelUdpTransport, snapshotTransportCounters, type TransportCounters, UdpWireTransport } from '../transport/index.js';
import { compareWithFloat64Sum, jobChunkExponents } from './quantisation.js';
import { SWITCHML_LOOPBACK_TIMING, SWITCHML_MININET_TIMING } from './switchml-options.js';
import type { SwitchMlStats } from './switchml-stats.js';
import { SwitchMlWorker } from './switchml-worker.js';
import { parseSwitchMlWorkerArgs, SWITCHML_WORKER_USAGE, type SwitchMlWorkerMainOptions, type SwitchMlTransportSpec } from './worker-args.js';

export interface SwitchMlWorkerReport {
  readonly algorithm: 'switchml';
  readonly rank: number;
  readonly worldSize: number;
  readonly jobId: number;
  readonly length: number;
  readonly iterations: readonly (SwitchMlStats & SentBytes)[];
  /** SHA-256 of the last result's bytes. */
  readonly resultSha256: string;
  readonly transport: TransportCounters;
  /** With `check`: the largest |result − reference| and how many elements broke the quantisation bound. */
  readonly check?: { readonly maxAbsError: number; readonly boundViolations: number };
}

/** Opens the transport the spec names. */
export async function openSwitchMlTransport(spec: SwitchMlTransportSpec): Promise<DatagramTransport> {
  if (spec.kind === 'udp') {
    return KernelUdpTransport.open({ localAddress: spec.localAddress, localPort: spec.localPort, remoteAddress: spec.switchAddress, remotePort: spec.switchPort });
  }
  return UdpWireTransport.open({
    localAddress: spec.localAddress,
    localPort: spec.localPort,
    peerAddress: spec.peerAddress,
    peerPort: spec.peerPort,
    host: spec.host,
    remote: spec.remote,
    udpChecksum: spec.udpChecksum,
  });
}

/** Runs the worker: transport, iterations, report; always closes what it opened. */
export async function runSwitchMlWorker(options: SwitchMlWorkerMainOptions, signal?: AbortSignal): Promise<SwitchMlWorkerReport> {
  const timing = options.timing === 'mininet' ? SWITCHML_MININET_TIMING : SWITCHML_LOOPBACK_TIMING;
  const transport = await openSwitchMlTransport(options.transport);
  let worker: SwitchMlWorker | undefined;
  try {
    worker = new SwitchMlWorker({
      transport,
      jobId: options.jobId,
      workerId: options.workerId,
      numWorkers: options.numWorkers,
      poolSize: options.poolSize,
      elementsPerPacket: options.elementsPerPacket,
      timeoutMs: options.timeoutMs ?? timing.timeoutMs,
      backoff: timing.backoff,
      maxRetries: options.maxRetries ?? timing.maxRetries,
      recoverAfter: timing.recoverAfter,
      epoch: options.epoch,
      closeTransport: true,
    });
    const tensor = workerTensor(options.length, options.seed, options.workerId, options.numWorkers, options.sparsity);
    const iterations: (SwitchMlStats & SentBytes)[] = [];
    let result: Float32Array = new Float32Array(0);
    for (let i = 0; i < options.iterations; i++) {
      const sentBefore = transport.counters.bytesOut;
      const outcome = await worker.allreduce(tensor, { signal });
      iterations.push({ ...outcome.stats, bytesSent: transport.counters.bytesOut - sentBefore });
      result = outcome.result;
    }
    const report: SwitchMlWorkerReport = {
      algorithm: 'switchml',
      rank: options.workerId,
      worldSize: options.numWorkers,
      jobId: options.jobId,
      length: options.length,
      iterations,
      resultSha256: createHash('sha256').update(new Uint8Array(result.buffer, result.byteOffset, result.byteLength)).digest('hex'),
      transport: snapshotTransportCounters(transport.counters),
    };
    return options.check ? { ...report, check: checkResult(result, tensor, options) } : report;
  } finally {
    await worker?.close();
    await transport.close(); // idempotent; covers a worker that failed to construct
  }
}

/** Rebuilds every worker's tensor and compares `result` with their float64 sum, element by element. */
function checkResult(result: Float32Array, own: Float32Array, options: SwitchMlWorkerMainOptions): { maxAbsError: number; boundViolations: number } {
  const tensors = Array.from({ length: options.numWorkers }, (_, rank) => (rank === options.workerId ? own : workerTensor(options.length, options.seed, rank, options.numWorkers, options.sparsity)));
  const perPacket = options.elementsPerPacket ?? 64;
  const { maxAbsError, violations } = compareWithFloat64Sum(result, tensors, jobChunkExponents(tensors, perPacket), perPacket);
  return { maxAbsError, boundViolations: violations };
}

/** One human-readable line. */
export function formatSwitchMlReport(report: SwitchMlWorkerReport): string {
  const last = report.iterations.at(-1);
  const ms = last?.elapsedMs ?? 0;
  const goodput = last && ms > 0 ? (last.bytes * 8) / (ms * 1e6) : 0;
  const retx = report.iterations.reduce((sum, s) => sum + s.retransmissions, 0);
  const spurious = report.iterations.reduce((sum, s) => sum + s.spuriousRetransmissions, 0);
  const timing = last ? `, RTO ${last.rtoMs.toFixed(1)} ms (SRTT ${last.srttMs.toFixed(1)} ms)` : '';
  const check = report.check ? `, max error ${report.check.maxAbsError.toExponential(3)}, ${report.check.boundViolations} over the bound` : '';
  return (
    `switchml worker ${report.rank}/${report.worldSize} (job ${report.jobId}): ${report.length} elements × ${report.iterations.length} call(s), ` +
    `last ${ms.toFixed(1)} ms (${goodput.toFixed(2)} Gbit/s), ${retx} retransmission(s) (${spurious} spurious)${timing}, result sha256 ${report.resultSha256.slice(0, 16)}…${check}`
  );
}

const PROGRAM: AgentProgram<SwitchMlWorkerMainOptions, Awaited<ReturnType<typeof runSwitchMlWorker>>> = {
  usage: SWITCHML_WORKER_USAGE,
  parse: parseSwitchMlWorkerArgs,
  run: (options, _io, signal) => runSwitchMlWorker(options, signal),
  format: formatSwitchMlReport,
};

/** Runs parsed options and prints the report; resolves to the exit status (0 done, 1 failed). */
export function switchMlWorkerMain(options: SwitchMlWorkerMainOptions, io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return runAgentProgram(PROGRAM, options, io, signal);
}

/** The whole command from argv: 2 for bad arguments, else as switchMlWorkerMain. */
export function switchMlWorkerCommand(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return agentCommand(PROGRAM, argv, io, signal);
}

if (isProcessEntry(import.meta.url)) runAsProcess(switchMlWorkerCommand);
