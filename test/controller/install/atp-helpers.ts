// ATP for the installer's tests: a program cache with a small atp.p4 (8
// values per packet, 64 aggregators), topologies around TestSwitches, ATP job
// specs, and a dump of what an atp.p4 switch holds for jobs (entries, groups,
// the settings default entry, and the owners in the pool).
import path from 'node:path';
import { compilePipeline } from '../../../src/p4c/index.js';
import { defineJob, parseTopology, type JobSpec, type Topology } from '../../../src/controller/index.js';
import { ProgramCache, type SwitchSession } from '../../../src/controller/install/index.js';
import { defaultEntry, register, type Action } from '../../../src/p4runtime/index.js';
import { DEFINES, dumpState, FORWARD_P4, ROOT, SWITCHML_P4, type TestSwitch } from './helpers.js';

export const ATP_P4 = path.join(ROOT, 'p4', 'atp.p4');
export const ATP_VALUES = 8;
export const ATP_POOL = 64;
/** switchml.p4's small settings too, so that one cache serves fabrics mixing both. */
export const atpPrograms = new ProgramCache({ defines: [...DEFINES, `ATP_VALUES=${ATP_VALUES}`, `ATP_AGGREGATORS=${ATP_POOL}`], compiler: compilePipeline });

/** A wall clock for generations: 1,234,567 ms, so the first generation is 1234567 mod 65536 = 54919. */
export const CLOCK_MS = 1_234_567;
export const FIRST_GENERATION = 54_919;
export const fixedClock = (ms = CLOCK_MS) => ({ now: () => ms });

const host = (rack: number, n: number) => ({ ip: `10.0.${rack}.${n}/24`, mac: `02:00:00:00:0${rack}:0${n}` });
export const mac = (rack: number, n: number): number => 0x020000000000 + rack * 0x100 + n;
export const ip = (rack: number, n: number): number => (10 << 24) + rack * 256 + n;

type Program = 'atp' | 'forward' | 'switchml';
const P4 = { atp: ATP_P4, forward: FORWARD_P4, switchml: SWITCHML_P4 };
const sw = (s: TestSwitch, program: Program, extra: Record<string, unknown>) => ({ target: 'emulator', grpc: s.address, device_id: s.deviceId, program: { p4: P4[program] }, ...extra });

/** One atp.p4 switch s1 (INA unless told otherwise), hosts h1..h5 on ports 1..5 (h5 is the parameter server's host). */
export function atpSingleSwitch(s1: TestSwitch, options: { ina?: boolean; program?: Program } = {}): Topology {
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(1, 3), h4: host(1, 4), h5: host(1, 5) },
    switches: { s1: sw(s1, options.program ?? 'atp', { ina: options.ina ?? true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe' }) },
    links: [1, 2, 3, 4, 5].map((i) => ({ nodes: [`h${i}`, `s1-p${i}`] })),
  });
}

export interface LeafSpineSpec {
  /** s1 (h1, h2), s2 (h3, h4), s3 (the PS's rack: h5), spine s4. */
  readonly programs: readonly [Program, Program, Program, Program];
  readonly ina: readonly [boolean, boolean, boolean, boolean];
}

/** Racks r1 = s1 {h1, h2}, r2 = s2 {h3, h4}, r3 = s3 {h5}; every ToR's port 3 to spine s4 (ports 1, 2, 3). */
export function atpLeafSpine(s: readonly TestSwitch[], spec: LeafSpineSpec): Topology {
  const address = (i: number) => ({ ip: `10.0.${i + 1}.254`, mac: `02:00:00:00:0${i + 1}:fe` });
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(2, 1), h4: host(2, 2), h5: host(3, 1) },
    switches: {
      s1: sw(s[0]!, spec.programs[0], { role: 'tor', rack: 'r1', ina: spec.ina[0], ...address(0) }),
      s2: sw(s[1]!, spec.programs[1], { role: 'tor', rack: 'r2', ina: spec.ina[1], ...address(1) }),
      s3: sw(s[2]!, spec.programs[2], { role: 'tor', rack: 'r3', ina: spec.ina[2], ...address(2) }),
      s4: sw(s[3]!, spec.programs[3], { role: 'spine', ina: spec.ina[3], ip: '10.0.0.4', mac: '02:00:00:00:00:04' }),
    },
    links: [
      { nodes: ['h1', 's1-p1'] },
      { nodes: ['h2', 's1-p2'] },
      { nodes: ['h3', 's2-p1'] },
      { nodes: ['h4', 's2-p2'] },
      { nodes: ['h5', 's3-p1'] },
      { nodes: ['s1-p3', 's4-p1'] },
      { nodes: ['s2-p3', 's4-p2'] },
      { nodes: ['s3-p3', 's4-p3'] },
    ],
  });
}

/** An ATP job of `hosts` (rank = position; UDP port `firstPort` + rank, 0xBF01 by default), the PS on h5 at 0xBF00. */
export function atpJob(id: number, hosts: readonly string[], atp: Parameters<typeof defineJob>[0]['atp'] = {}, firstPort = 0xbf01): JobSpec {
  return defineJob({
    id,
    algorithm: 'atp',
    workers: hosts.map((h, rank) => ({ rank, host: h, udpPort: firstPort + rank })),
    parameterServer: { host: 'h5', udpPort: 0xbf00 },
    poolSize: ATP_POOL,
    elementsPerPacket: ATP_VALUES,
    atp,
  });
}

/** Every entry and group (dumpState), the atp_settings default entry, and the non-zero owners of the pool. */
export async function dumpAtp(session: SwitchSession): Promise<string[]> {
  const lines = await dumpState(session);
  if (!session.schema.tables.find('ingress.atp_settings')) return lines;
  for (const e of await session.readAll(defaultEntry('ingress.atp_settings'))) {
    const a = e.action as Action | undefined;
    lines.push(`atp_settings (default) -> ${a ? `${a.name}${JSON.stringify(a.params)}` : 'none'}`);
  }
  const owners = (await session.readAll(register('ingress.atp.owner'))).filter((c) => Number(c.value) !== 0);
  lines.push(`owners: ${owners.map((c) => `${c.index}=${String(c.value)}`).sort().join(' ')}`);
  return lines.sort();
}
