/**
 * The demo's network on paper: one INA switch s1 and hosts h1..hN, host i on
 * switch port i through a UDP wire, the SwitchML job of those hosts, and the
 * baselines' arguments (ATP's parameter server and job: demo-atp.ts).
 * Pure: the addresses in frames (10.0.0.0/24, 02:00:… MACs) are virtual —
 * they exist only inside the Ethernet frames the agents build — while the
 * wires themselves are sockets on 127.0.0.1 at the ports given.
 */
import { SWITCHML_DEFAULT_ELEMENTS, SWITCHML_PORTS } from '../wire/index.js';
import type { UdpIo } from '../agent/transport/index.js';

export const DEMO_JOB_ID = 1;
export const SWITCH_NAME = 's1';
export const SWITCH_IP = '10.0.0.254';
export const SWITCH_MAC = '02:00:00:00:00:fe';
/** Host i receives SwitchML results on 40000 + rank (any port works: the switch learns it from the job). */
const WORKER_UDP_BASE = 40000;

/** A host on the switch: a worker, or ATP's parameter server. */
export interface NetworkHost {
  readonly name: string;
  readonly ip: string;
  readonly mac: string;
  /** The switch port the host's wire plugs into. */
  readonly switchPort: number;
}

export interface DemoHost extends NetworkHost {
  readonly rank: number;
  /** Where SwitchML results come back. */
  readonly udpPort: number;
}

/** Where each end of one host's wire is on 127.0.0.1. */
export interface WirePorts {
  /** The switch port's socket. */
  readonly switchSocket: number;
  /** The agent's socket. */
  readonly agentSocket: number;
  /** Whom the switch port sends to: the agent, or a relay in between. */
  readonly switchPeer: number;
  /** Whom the agent sends to: the switch port, or a relay in between. */
  readonly agentPeer: number;
}

export function demoHosts(workers: number): DemoHost[] {
  return Array.from({ length: workers }, (_, rank) => ({
    rank,
    name: `h${rank + 1}`,
    ip: `10.0.0.${rank + 1}`,
    mac: `02:00:00:00:00:${(rank + 1).toString(16).padStart(2, '0')}`,
    udpPort: WORKER_UDP_BASE + rank,
    switchPort: rank + 1,
  }));
}

/** The topology document (docs/topology.md) for the controller. */
export function demoTopology(hosts: readonly NetworkHost[], grpcAddress: string, program: { p4info: string; config: string }): Record<string, unknown> {
  return {
    description: 'p4ina demo: one emulated switch on loopback, one UDP wire per host',
    hosts: Object.fromEntries(hosts.map((h) => [h.name, { ip: `${h.ip}/24`, mac: h.mac }])),
    switches: {
      [SWITCH_NAME]: { target: 'emulator', grpc: grpcAddress, device_id: 0, program, ina: true, ip: SWITCH_IP, mac: SWITCH_MAC },
    },
    links: hosts.map((h) => ({ nodes: [h.name, `${SWITCH_NAME}-p${h.switchPort}`] })),
  };
}

/** The SwitchML job (defineJob input) of all hosts, rank = position, with switchml.p4's values per packet (SwitchML's 64 by default). */
export function demoJobInput(hosts: readonly DemoHost[], poolSize: number, elementsPerPacket = SWITCHML_DEFAULT_ELEMENTS) {
  return {
    id: DEMO_JOB_ID,
    name: 'demo',
    algorithm: 'switchml' as const,
    workers: hosts.map((h) => ({ rank: h.rank, host: h.name, udpPort: h.udpPort })),
    poolSize,
    elementsPerPacket,
  };
}

/** `-i` arguments of `p4ina switch` for the wires. */
export function switchInterfaceArgs(hosts: readonly NetworkHost[], wires: readonly WirePorts[]): string[] {
  return hosts.flatMap((h, i) => ['-i', `${h.switchPort}@udp:127.0.0.1:${wires[i]!.switchSocket}:127.0.0.1:${wires[i]!.switchPeer}`]);
}

/**
 * Arguments of `p4ina agent switchml` for one host; `elements` values per
 * packet, as the switch's program was compiled; `udpIo` the worker's UDP
 * sockets (`p4ina demo --udp-io`; undefined: the agent's default).
 */
export function switchMlAgentArgs(
  host: DemoHost,
  wire: WirePorts,
  run: { workers: number; poolSize: number; elements: number; length: number; seed: number | string; udpIo?: UdpIo | undefined },
): string[] {
  return [
    'switchml',
    '--transport', 'wire',
    '--local', `127.0.0.1:${wire.agentSocket}`,
    '--peer', `127.0.0.1:${wire.agentPeer}`,
    '--mac', host.mac,
    '--ip', host.ip,
    '--udp-port', String(host.udpPort),
    '--switch-mac', SWITCH_MAC,
    '--switch-ip', SWITCH_IP,
    '--switch-udp-port', String(SWITCHML_PORTS.first),
    '--job', String(DEMO_JOB_ID),
    '--worker', String(host.rank),
    '--workers', String(run.workers),
    '--pool', String(run.poolSize),
    '--elements', String(run.elements),
    '--length', String(run.length),
    '--seed', String(run.seed),
    ...(run.udpIo !== undefined ? ['--udp-io', run.udpIo] : []),
    '--check',
    '--json',
  ];
}

/** Arguments of `p4ina agent ring` for one rank, given every rank's TCP port. */
export function ringAgentArgs(rank: number, tcpPorts: readonly number[], run: { length: number; seed: number | string }): string[] {
  return [
    'ring',
    '--rank', String(rank),
    '--world', String(tcpPorts.length),
    '--peers', tcpPorts.map((p) => `127.0.0.1:${p}`).join(','),
    '--length', String(run.length),
    '--seed', String(run.seed),
    '--check',
    '--json',
  ];
}

/** Arguments of `p4ina agent ps-server` for the parameter-server baseline: one round, then it exits; port 0, it says which. */
export function psServerArgs(workers: number): string[] {
  return ['ps-server', '--world', String(workers), '--listen', '127.0.0.1:0', '--rounds', '1', '--json'];
}

/** Arguments of `p4ina agent ps-worker` for one rank, given the server's "127.0.0.1:PORT". */
export function psWorkerArgs(rank: number, workers: number, server: string, run: { length: number; seed: number | string }): string[] {
  return ['ps-worker', '--rank', String(rank), '--world', String(workers), '--server', server, '--length', String(run.length), '--seed', String(run.seed), '--check', '--json'];
}
