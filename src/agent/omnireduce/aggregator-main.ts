/**
 * An OmniReduce host aggregator shard as a program (`p4ina agent
 * omnireduce-aggregator`): bind the kernel's UDP (or open a UDP wire to a
 * switch port, `--transport wire`), serve one job's slots until interrupted,
 * then print what it did. The first line says where it listens (useful with
 * port 0). It keeps no per-call state beyond the slots, so the same process
 * serves any number of calls in a row.
 *
 *   p4ina agent omnireduce-aggregator --listen 10.0.0.9:48880 --workers 10.0.0.1:48880,10.0.0.2:48880 --slots 64
 *
 * Exit status: 0 done, 1 the run failed, 2 bad arguments.
 */
import { CONSOLE_IO, isProcessEntry, runAsProcess, type MainIo } from '../baseline/worker-process.js';
import { agentCommand, type AgentProgram } from '../baseline/agent-program.js';
import { openAtpWire } from '../atp/wire-args.js';
import { formatSocketAddress, KernelUdpAddressedTransport, snapshotTransportCounters, socketAddress, type TransportCounters } from '../transport/index.js';
import { OMNIREDUCE_AGGREGATOR_USAGE, parseOmniReduceAggregatorArgs, type OmniReduceAggregatorMainOptions } from './aggregator-args.js';
import { OmniReduceAggregator, type OmniReduceAggregatorCounters } from './omnireduce-aggregator.js';

export interface OmniReduceAggregatorReport {
  readonly algorithm: 'omnireduce';
  readonly role: 'aggregator';
  readonly listen: string;
  readonly workers: readonly string[];
  readonly firstSlot: number;
  readonly slotCount: number;
  readonly blockSize: number;
  readonly counters: OmniReduceAggregatorCounters;
  readonly transport: TransportCounters;
  /** Per slot still collecting a round when it stopped, the ranks it waited for (empty after a clean job). */
  readonly waiting: ReturnType<OmniReduceAggregator['waiting']>;
}

/** Serves until `signal` aborts; `onListening` gets the address workers reach it at. */
export async function runOmniReduceAggregator(options: OmniReduceAggregatorMainOptions, signal: AbortSignal | undefined, onListening: (address: string) => void = () => {}): Promise<OmniReduceAggregatorReport> {
  const own = { address: options.listenAddress, port: options.listenPort };
  // On a wire every reply names its worker with sendTo; the aggregator's own address stands in for send()'s destination, which it never uses.
  const transport = options.wire ? await openAtpWire(options.wire, own, own) : await KernelUdpAddressedTransport.open({ localAddress: own.address, localPort: own.port });
  let aggregator: OmniReduceAggregator | undefined;
  try {
    aggregator = new OmniReduceAggregator({ transport, workers: options.workers, firstSlot: options.firstSlot, slotCount: options.slotCount, blockSize: options.blockSize });
    // On a wire, where the aggregator is in the frames (its socket is only the wire's end).
    const listen = options.wire ? formatSocketAddress(socketAddress(own.address, own.port, '--listen')) : formatSocketAddress(transport.local);
    onListening(listen);
    await new Promise<void>((resolve) => {
      if (signal === undefined) return;
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    aggregator.detach();
    return {
      algorithm: 'omnireduce',
      role: 'aggregator',
      listen,
      workers: options.workers.map(formatSocketAddress),
      firstSlot: options.firstSlot,
      slotCount: options.slotCount,
      blockSize: options.blockSize,
      counters: { ...aggregator.counters },
      transport: snapshotTransportCounters(transport.counters),
      waiting: aggregator.waiting(),
    };
  } finally {
    aggregator?.detach();
    await transport.close();
  }
}

/** A few human-readable lines. */
export function formatOmniReduceAggregatorReport(r: OmniReduceAggregatorReport): string {
  const c = r.counters;
  const lines = [
    `omnireduce aggregator (${r.listen}, slots ${r.firstSlot}..${r.firstSlot + r.slotCount - 1}, ${r.workers.length} worker(s), block ${r.blockSize}): ` +
      `${c.rounds} round(s) from ${c.messagesIn} message(s), ${c.added} taken, ${c.duplicates} duplicate(s), ${c.resent} retransmission(s) answered, ` +
      `${c.stale} stale, ${c.invalid} invalid; ${c.repliesSent} replies, ${c.bytesSent} bytes sent`,
  ];
  for (const w of r.waiting) lines.push(`  slot ${w.slot} stopped in block tsi ${w.tsi}, waiting for rank(s) ${w.ranks.join(', ')}`);
  return lines.join('\n');
}

const PROGRAM: AgentProgram<OmniReduceAggregatorMainOptions, OmniReduceAggregatorReport> = {
  usage: OMNIREDUCE_AGGREGATOR_USAGE,
  parse: parseOmniReduceAggregatorArgs,
  run: (options, io, signal) =>
    runOmniReduceAggregator(options, signal, (address) => io.out(options.json ? JSON.stringify({ listening: address }) : `omnireduce aggregator listening on ${address}`)),
  format: formatOmniReduceAggregatorReport,
};

/** The whole command from argv: 2 for bad arguments, 1 when the run fails, else 0. */
export function omniReduceAggregatorCommand(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return agentCommand(PROGRAM, argv, io, signal);
}

if (isProcessEntry(import.meta.url)) runAsProcess(omniReduceAggregatorCommand);
