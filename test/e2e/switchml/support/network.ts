/**
 * The end-to-end tests' network on paper: one INA switch s1 running
 * p4/switchml.p4 and hosts h1..hN, host i on switch port i through a UDP
 * wire (the demo's addressing: src/demo/demo-network.ts), the topology the
 * controller reads, and SwitchML job specs over any subset of the hosts.
 */
import { compilePipeline } from '../../../../src/p4c/index.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineJob, parseTopology, type JobSpec, type Topology } from '../../../../src/controller/index.js';
import { ProgramCache } from '../../../../src/controller/install/index.js';
import { demoHosts, SWITCH_IP, SWITCH_MAC, SWITCH_NAME, type DemoHost } from '../../../../src/demo/demo-network.js';
import { ipv4FromText, macFromText, SWITCHML_DEFAULT_ELEMENTS } from '../../../../src/wire/index.js';

export type { DemoHost as E2eHost } from '../../../../src/demo/demo-network.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const SWITCHML_P4 = path.join(ROOT, 'p4', 'switchml.p4');
/** The program as shipped: 64 values per packet, 4096 slots. */
export const ELEMENTS = SWITCHML_DEFAULT_ELEMENTS;
export const SWITCH = { name: SWITCH_NAME, ip: SWITCH_IP, mac: SWITCH_MAC, ipNumber: ipv4FromText(SWITCH_IP), macNumber: macFromText(SWITCH_MAC) } as const;

/** One compiled switchml.p4 per test file (compiling takes a while; each switch still loads it anew). */
export function programCache(defines: readonly string[] = []): ProgramCache {
  return new ProgramCache({ defines, compiler: compilePipeline });
}

export function e2eHosts(count: number): DemoHost[] {
  return demoHosts(count);
}

/** The controller's topology: s1 at `grpcAddress`, compiled from p4/switchml.p4, one link per host. */
export function e2eTopology(hosts: readonly DemoHost[], grpcAddress: string): Topology {
  return parseTopology({
    description: 'p4ina end-to-end tests: one emulated switch, one UDP wire per host',
    hosts: Object.fromEntries(hosts.map((h) => [h.name, { ip: `${h.ip}/24`, mac: h.mac }])),
    switches: {
      [SWITCH.name]: { target: 'emulator', grpc: grpcAddress, device_id: 0, program: { p4: SWITCHML_P4 }, ina: true, ip: SWITCH.ip, mac: SWITCH.mac },
    },
    links: hosts.map((h) => ({ nodes: [h.name, `${SWITCH.name}-p${h.switchPort}`] })),
  });
}

/** A SwitchML job of `members` (rank = position, which is also the worker id). */
export function e2eJob(id: number, members: readonly DemoHost[], poolSize: number): JobSpec {
  return defineJob({
    id,
    name: `e2e-${id}`,
    algorithm: 'switchml',
    workers: members.map((h, rank) => ({ rank, host: h.name, udpPort: h.udpPort })),
    poolSize,
    elementsPerPacket: ELEMENTS,
  });
}
