/**
 * `p4ina agent`: one host agent from the command line, delegating to the
 * agents' own CLI-ready entries so that the flags documented there are the
 * flags here. Exit codes: 0 done (or --help), 1 the run failed, 2 bad usage.
 */
import { runInterruptible } from './interruptible.js';
import { takeUdpIoArg, UDP_AGENT_KINDS, UDP_IO_USAGE } from './agent-udp-io.js';
import { setDefaultUdpIo } from '../agent/transport/index.js';
import { atpPsCommand } from '../agent/atp/ps-main.js';
import { atpWorkerCommand } from '../agent/atp/worker-main.js';
import { hierarchicalWorkerMain } from '../agent/baseline/hierarchical-worker-main.js';
import { psMain } from '../agent/baseline/ps-main.js';
import { ringWorkerMain } from '../agent/baseline/ring-worker-main.js';
import { omniReduceAggregatorCommand } from '../agent/omnireduce/aggregator-main.js';
import { omniReduceWorkerCommand } from '../agent/omnireduce/worker-main.js';
import { rinaWorkerCommand } from '../agent/rina/worker-main.js';
import { CONSOLE_IO, type MainIo } from '../agent/baseline/worker-process.js';
import { switchMlWorkerCommand } from '../agent/switchml/worker-main.js';

const USAGE = `usage: p4ina agent <kind> [options]

Runs one host agent (one worker of an AllReduce job, or a parameter server).

kinds:
  switchml     a SwitchML worker: aggregates through a P4 switch over UDP or a UDP wire
  atp-worker   an ATP worker: aggregates through shared switch aggregators, the PS finishing the rest (UDP or a UDP wire)
  atp-ps       the ATP parameter server of one job (UDP or a UDP wire)
  ring         a ring AllReduce worker over TCP (the baseline)
  ps-server    the parameter server of the PS baseline (TCP)
  ps-worker    a worker of the PS baseline (TCP)
  hierarchical-worker
               a hierarchical AllReduce worker over TCP (reduce in the rack, ring among rack leaders, broadcast)
  rina-worker  a Rina worker: ring AllReduce in which INA racks are single members (UDP or a UDP wire)
  omnireduce-worker
               an OmniReduce worker: sends only its non-zero blocks to host aggregators (UDP or a UDP wire)
  omnireduce-aggregator
               an OmniReduce host aggregator owning a range of slots of one job (UDP or a UDP wire)

${UDP_IO_USAGE}

Run "p4ina agent <kind> --help" for the kind's options.
`;

type AgentMain = (argv: readonly string[], io: MainIo, signal: AbortSignal) => Promise<number>;

/** Each kind's entry; the parameter server's two roles share one entry that takes --role. */
export const AGENT_KINDS: Readonly<Record<string, AgentMain>> = {
  switchml: (argv, io, signal) => switchMlWorkerCommand(argv, io, signal),
  'atp-worker': (argv, io, signal) => atpWorkerCommand(argv, io, signal),
  'atp-ps': (argv, io, signal) => atpPsCommand(argv, io, signal),
  ring: (argv, io, signal) => ringWorkerMain(argv, io, signal),
  'ps-server': (argv, io, signal) => psMain(['--role', 'server', ...withoutRole(argv)], io, signal),
  'ps-worker': (argv, io, signal) => psMain(['--role', 'worker', ...withoutRole(argv)], io, signal),
  'hierarchical-worker': (argv, io, signal) => hierarchicalWorkerMain(argv, io, signal),
  'rina-worker': (argv, io, signal) => rinaWorkerCommand(argv, io, signal),
  'omnireduce-worker': (argv, io, signal) => omniReduceWorkerCommand(argv, io, signal),
  'omnireduce-aggregator': (argv, io, signal) => omniReduceAggregatorCommand(argv, io, signal),
};

/** The kind already fixes the role; a --role given anyway would contradict or repeat it. */
function withoutRole(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--role') i++;
    else if (!arg.startsWith('--role=')) out.push(arg);
  }
  return out;
}

/** Runs `p4ina agent …` with the given io; SIGINT/SIGTERM abort the agent cleanly. */
export async function runAgent(argv: readonly string[], io: MainIo = CONSOLE_IO): Promise<number> {
  const [kind, ...rest] = argv;
  if (kind === undefined || kind === '--help' || kind === '-h' || kind === 'help') {
    (kind === undefined ? io.err : io.out)(USAGE.trimEnd());
    return kind === undefined ? 2 : 0;
  }
  const main = Object.hasOwn(AGENT_KINDS, kind) ? AGENT_KINDS[kind] : undefined;
  if (!main) {
    io.err(`p4ina agent: unknown kind "${kind}"; choose one of ${Object.keys(AGENT_KINDS).join(', ')}`);
    io.err(USAGE.trimEnd());
    return 2;
  }
  let argvOfKind = rest;
  if (UDP_AGENT_KINDS.has(kind)) {
    const taken = takeUdpIoArg(rest);
    if ('error' in taken) {
      io.err(`p4ina agent ${kind}: ${taken.error}`);
      return 2;
    }
    argvOfKind = taken.argv;
    setDefaultUdpIo(taken.udpIo);
  }
  return runInterruptible((signal) => main(argvOfKind, io, signal), new Error('interrupted by a signal'));
}

export function run(argv: string[]): Promise<number> {
  return runAgent(argv);
}
