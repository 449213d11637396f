// OmniReduce for the installer's tests: a program cache with a small
// omnireduce.p4 (blocks of 8 values, 64 slots), topologies around
// TestSwitches, OmniReduce switch job specs, and a dump of what an
// omnireduce.p4 switch holds for jobs (entries, groups and the non-zero
// cells of seen and remaining, which a reused slot must have cleared).
import path from 'node:path';
import { compilePipeline } from '../../../src/p4c/index.js';
import { defineJob, parseTopology, type JobSpec, type Topology } from '../../../src/controller/index.js';
import { ProgramCache, type SwitchSession } from '../../../src/controller/install/index.js';
import { register } from '../../../src/p4runtime/index.js';
import { DEFINES, dumpState, FORWARD_P4, ROOT, SWITCHML_P4, type TestSwitch } from './helpers.js';

export const OMNIREDUCE_P4 = path.join(ROOT, 'p4', 'omnireduce.p4');
export const OMNI_BLOCK = 8;
export const OMNI_SLOTS = 64;
/** switchml.p4's small settings too, so that one cache serves a switch running either. */
export const omniPrograms = new ProgramCache({ defines: [...DEFINES, `OMNIREDUCE_BLOCK=${OMNI_BLOCK}`, `OMNIREDUCE_SLOTS=${OMNI_SLOTS}`], compiler: compilePipeline });

/** The registers of a slot copy that a job reusing it needs at 0. */
export const OMNI_CELL_REGISTERS = ['seen', 'remaining'].map((r) => `ingress.omnireduce.round.${r}`);

const host = (rack: number, n: number) => ({ ip: `10.0.${rack}.${n}/24`, mac: `02:00:00:00:0${rack}:0${n}` });
export const mac = (rack: number, n: number): number => 0x020000000000 + rack * 0x100 + n;
export const ip = (rack: number, n: number): number => (10 << 24) + rack * 256 + n;

export type Program = 'omnireduce' | 'forward' | 'switchml';
const P4 = { omnireduce: OMNIREDUCE_P4, forward: FORWARD_P4, switchml: SWITCHML_P4 };
const sw = (s: TestSwitch, program: Program, extra: Record<string, unknown>) => ({ target: 'emulator', grpc: s.address, device_id: s.deviceId, program: { p4: P4[program] }, ...extra });

/** One INA ToR s1 (omnireduce.p4 unless told otherwise) with hosts h1..h4 on ports 1..4. */
export function omniSingleSwitch(s1: TestSwitch, program: Program = 'omnireduce'): Topology {
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(1, 3), h4: host(1, 4) },
    switches: { s1: sw(s1, program, { role: 'tor', rack: 'r1', ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe' }) },
    links: [1, 2, 3, 4].map((i) => ({ nodes: [`h${i}`, `s1-p${i}`] })),
  });
}

/** The spine's MAC: ToRs route, so a spine addresses its reply copies to them. */
export const TOR_MAC = (rack: number): number => 0x0200000000fe + rack * 0x100;

/** Racks r1 = s1 {h1, h2}, r2 = s2 {h3, h4}, ToRs running forward.p4 (they route), the spine s3 INA on omnireduce.p4 (its ports 1, 2 to the ToRs' port 3). */
export function omniLeafSpine(s: readonly TestSwitch[]): Topology {
  const tor = (i: number) => sw(s[i]!, 'forward', { role: 'tor', rack: `r${i + 1}`, ina: false, ip: `10.0.${i + 1}.254`, mac: `02:00:00:00:0${i + 1}:fe` });
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(2, 1), h4: host(2, 2) },
    switches: { s1: tor(0), s2: tor(1), s3: sw(s[2]!, 'omnireduce', { role: 'spine', ina: true, ip: '10.0.0.3', mac: '02:00:00:00:00:03' }) },
    links: [
      { nodes: ['h1', 's1-p1'] },
      { nodes: ['h2', 's1-p2'] },
      { nodes: ['h3', 's2-p1'] },
      { nodes: ['h4', 's2-p2'] },
      { nodes: ['s1-p3', 's3-p1'] },
      { nodes: ['s2-p3', 's3-p2'] },
    ],
  });
}

export const OMNI_PORT = 40_000;

/** An OmniReduce job aggregated by a switch, of `hosts` (rank = position), UDP port 40000 + rank unless `port` says otherwise. */
export function omniJob(id: number, hosts: readonly string[], poolSize: number, extra: { elementsPerPacket?: number; port?: (rank: number) => number } = {}): JobSpec {
  const port = extra.port ?? ((rank: number) => OMNI_PORT + rank);
  return defineJob({
    id,
    algorithm: 'omnireduce',
    workers: hosts.map((h, rank) => ({ rank, host: h, udpPort: port(rank) })),
    poolSize,
    elementsPerPacket: extra.elementsPerPacket ?? OMNI_BLOCK,
    omnireduce: { aggregator: 'switch' },
  });
}

/** Every entry and group (dumpState), and the non-zero cells of seen and remaining. */
export async function dumpOmni(session: SwitchSession): Promise<string[]> {
  const lines = await dumpState(session);
  for (const name of OMNI_CELL_REGISTERS) {
    if (!session.schema.registers.find(name)) continue;
    const set = (await session.readAll(register(name))).filter((c) => Number(c.value) !== 0);
    lines.push(`${name}: ${set.map((c) => `${c.index}=${String(c.value)}`).join(' ')}`);
  }
  return lines.sort();
}
