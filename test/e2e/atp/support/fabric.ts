/**
 * The ATP end-to-end tests' fabrics, described switch by switch (FabricSpec)
 * and run by the loopback fabric (src/fabric) in this process: each switch
 * what `p4ina switch` runs, its ports UDP wires on 127.0.0.1 (one per host,
 * one per switch-to-switch link), pushed its program and forwarding by the
 * real controller over gRPC. Jobs go through `fabric.controller()`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { parseTopology } from '../../../../src/controller/index.js';
import { ProgramCache } from '../../../../src/controller/install/index.js';
import { LoopbackFabric } from '../../../../src/fabric/index.js';
import { compilePipeline } from '../../../../src/p4c/index.js';
import { testUdpPorts } from '../../../helpers/test-ports.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const P4 = { atp: path.join(ROOT, 'p4', 'atp.p4'), forward: path.join(ROOT, 'p4', 'forward.p4') };
export const QUIET = pino({ level: process.env.E2E_TEST_LOG ?? 'silent' });

/** atp.p4 as these tests compile it: 16 values per packet, 256 aggregators. */
export const VALUES = 16;
export const POOL = 256;
export const programs = new ProgramCache({ defines: [`ATP_VALUES=${VALUES}`, `ATP_AGGREGATORS=${POOL}`], compiler: compilePipeline });

export interface FabricSwitch {
  readonly name: string;
  readonly program: 'atp' | 'forward';
  readonly ina: boolean;
  readonly role: 'tor' | 'spine';
}

export interface FabricHost {
  readonly name: string;
  /** Its ToR and the ToR's port. */
  readonly switch: string;
  readonly port: number;
}

export interface FabricSpec {
  readonly switches: readonly FabricSwitch[];
  readonly hosts: readonly FabricHost[];
  /** Switch-to-switch links: [switch, port] at each end. */
  readonly links: readonly (readonly [readonly [string, number], readonly [string, number]])[];
}

const switchAddress = (i: number) => ({ ip: `10.0.${200 + i}.254`, mac: `02:00:00:00:${(0xc0 + i).toString(16)}:fe` });

/** The spec as a topology document: host n of rack r is 10.0.r.n/24, switch i 10.0.(200+i).254. */
function specTopology(spec: FabricSpec): Record<string, unknown> {
  const rackIndex = new Map(spec.switches.filter((s) => s.role === 'tor').map((s, i) => [s.name, i + 1]));
  const hosts = spec.hosts.map((h) => {
    const rack = rackIndex.get(h.switch)!;
    const n = spec.hosts.filter((o) => o.switch === h.switch).indexOf(h) + 1;
    return [h.name, { ip: `10.0.${rack}.${n}/24`, mac: `02:00:00:00:0${rack}:0${n}` }] as const;
  });
  return {
    description: 'p4ina ATP end-to-end tests',
    hosts: Object.fromEntries(hosts),
    switches: Object.fromEntries(spec.switches.map((s, i) => [s.name, { target: 'emulator', program: { p4: P4[s.program] }, ina: s.ina, role: s.role, ...switchAddress(i) }])),
    links: [
      ...spec.hosts.map((h) => ({ nodes: [h.name, `${h.switch}-p${h.port}`] })),
      ...spec.links.map(([[a, pa], [b, pb]]) => ({ nodes: [`${a}-p${pa}`, `${b}-p${pb}`] })),
    ],
  };
}

export type Fabric = LoopbackFabric;

export const Fabric = {
  /** The spec's switches in this process, programmed, forwarding installed. */
  start(spec: FabricSpec): Promise<LoopbackFabric> {
    return LoopbackFabric.start(parseTopology(specTopology(spec)), { mode: 'in-process', programs, udpPorts: testUdpPorts, logger: QUIET });
  },
};
