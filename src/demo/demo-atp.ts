/**
 * ATP in the demo's network on paper: the parameter server (PS) as one more
 * host on the switch, the ATP job of the workers, and the agents' argv from
 * the controller's plan (atpAgentConfigs → atpWorkerArgs/atpPsArgs) plus
 * what only the demo knows: the UDP wire each agent talks through and the
 * tensor. Pure.
 *
 * Every worker receives ACKs on the same UDP port (their IPv4 addresses
 * differ): the ATP block has 16 ports and the demo runs up to 31 workers.
 * The value range is 256, the seeded tensors' own (|x| < 2^8): with ATP's
 * 213 about 1% of the values would go as float32 packets, and each such
 * packet costs its sequence a timeout (docs/atp.md, "Scale").
 */
import { ATP_DEFAULT_ELEMENTS } from '../agent/atp/atp-limits.js';
import { ATP_DEFAULT_POOL, atpPsArgs, atpWorkerArgs, type AtpPsConfig, type AtpWorkerConfig } from '../controller/index.js';
import { ATP_PORTS } from '../wire/index.js';
import { SWITCH_MAC, type DemoHost, type NetworkHost, type WirePorts } from './demo-network.js';

export const ATP_DEMO_JOB_ID = 1;
/** The seeded tensors' magnitude bound (seeded-tensor.ts: (−1, 1) × 2^k, k ≤ 8). */
export const ATP_DEMO_VALUE_RANGE = 256;
const ATP_WORKER_PORT = ATP_PORTS.first + 1;

/** The PS: the port after the workers'. */
export function atpPsHost(workers: number): NetworkHost {
  return { name: 'ps', ip: '10.0.0.200', mac: '02:00:00:00:00:c8', switchPort: workers + 1 };
}

/**
 * The ATP job (defineJob input) of all hosts, rank = position, with
 * `window` positions (each worker's most packets in flight); it hashes over
 * atp.p4's whole pool.
 */
export function atpJobInput(hosts: readonly DemoHost[], ps: NetworkHost, window: number) {
  return {
    id: ATP_DEMO_JOB_ID,
    name: 'demo-atp',
    algorithm: 'atp' as const,
    workers: hosts.map((h) => ({ rank: h.rank, host: h.name, udpPort: ATP_WORKER_PORT })),
    parameterServer: { host: ps.name, udpPort: ATP_PORTS.first },
    poolSize: ATP_DEFAULT_POOL,
    // atp.p4's ATP_VALUES as shipped, which the demo compiles it with.
    elementsPerPacket: ATP_DEFAULT_ELEMENTS,
    atp: { valueRange: ATP_DEMO_VALUE_RANGE, window },
  };
}

/** `--transport wire …` for an agent on `host`'s wire; its gateway is the switch (the ATP and OmniReduce agents share these options). */
export function wireArgs(host: NetworkHost, wire: WirePorts): string[] {
  return ['--transport', 'wire', '--wire-local', `127.0.0.1:${wire.agentSocket}`, '--peer', `127.0.0.1:${wire.agentPeer}`, '--mac', host.mac, '--gateway-mac', SWITCH_MAC];
}

/** Arguments of `p4ina agent atp-worker` for one worker. */
export function atpWorkerDemoArgs(config: AtpWorkerConfig, host: DemoHost, wire: WirePorts, run: { length: number; seed: number | string }): string[] {
  return ['atp-worker', ...atpWorkerArgs(config), ...wireArgs(host, wire), '--length', String(run.length), '--seed', String(run.seed), '--check', '--json'];
}

/** Arguments of `p4ina agent atp-ps`: it serves until the demo stops it, then prints its report. */
export function atpPsDemoArgs(config: AtpPsConfig, ps: NetworkHost, wire: WirePorts): string[] {
  return ['atp-ps', ...atpPsArgs(config), ...wireArgs(ps, wire), '--json'];
}
