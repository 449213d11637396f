// Rina for the installer's tests: a program cache with a small rina_tor.p4 (8
// values per packet, 64 slots), topologies around TestSwitches, Rina job
// specs, a dump of what a rina_tor.p4 switch holds for jobs (entries, groups
// and the non-zero cells of the registers a reused slot must have cleared),
// and the same dump's lines for the entities rinaSwitchEntries builds.
import path from 'node:path';
import { compilePipeline } from '../../../src/p4c/index.js';
import { defineJob, parseTopology, type JobSpec, type Topology } from '../../../src/controller/index.js';
import { ProgramCache, type RinaSwitchEntries, type SwitchSession } from '../../../src/controller/install/index.js';
import { register, type Action, type TableEntry } from '../../../src/p4runtime/index.js';
import { DEFINES, dumpState, FORWARD_P4, ROOT, SWITCHML_P4, type TestSwitch } from './helpers.js';

export const RINA_P4 = path.join(ROOT, 'p4', 'rina_tor.p4');
export const RINA_VALUES = 8;
export const RINA_SLOTS = 64;
/** switchml.p4's small settings too, so that one cache serves fabrics mixing both. */
export const rinaPrograms = new ProgramCache({ defines: [...DEFINES, `RINA_ELEMENTS=${RINA_VALUES}`, `RINA_SLOTS=${RINA_SLOTS}`], compiler: compilePipeline });

/** The registers of a slot copy that a job reusing it needs at 0. */
export const CELL_REGISTERS = ['seen', 'pred_seen', 'remaining', 'stash_full'].map((r) => `ingress.rina.round.${r}`);

const host = (rack: number, n: number) => ({ ip: `10.0.${rack}.${n}/24`, mac: `02:00:00:00:0${rack}:0${n}` });
export const mac = (rack: number, n: number): number => 0x020000000000 + rack * 0x100 + n;
export const ip = (rack: number, n: number): number => (10 << 24) + rack * 256 + n;
/** The spine's MAC: the next hop a ToR addresses the next ring member's copy to. */
export const SPINE_MAC = 0x020000000004;

export type Program = 'rina' | 'forward' | 'switchml';
const P4 = { rina: RINA_P4, forward: FORWARD_P4, switchml: SWITCHML_P4 };
const sw = (s: TestSwitch, program: Program, extra: Record<string, unknown>) => ({ target: 'emulator', grpc: s.address, device_id: s.deviceId, program: { p4: P4[program] }, ...extra });

/** One INA ToR s1 (rina_tor.p4 unless told otherwise) with hosts h1..h4 on ports 1..4. */
export function rinaSingleTor(s1: TestSwitch, program: Program = 'rina'): Topology {
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(1, 3), h4: host(1, 4) },
    switches: { s1: sw(s1, program, { role: 'tor', rack: 'r1', ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe' }) },
    links: [1, 2, 3, 4].map((i) => ({ nodes: [`h${i}`, `s1-p${i}`] })),
  });
}

/** Racks r1 = s1 {h1, h2}, r2 = s2 {h3} (legacy, forward.p4), r3 = s3 {h4, h5}; every ToR's port 3 to spine s4 (ports 1, 2, 3). */
export function rinaLeafSpine(s: readonly TestSwitch[], programs: readonly [Program, Program, Program] = ['rina', 'forward', 'rina']): Topology {
  const tor = (i: number) => sw(s[i]!, programs[i]!, { role: 'tor', rack: `r${i + 1}`, ina: programs[i] !== 'forward', ip: `10.0.${i + 1}.254`, mac: `02:00:00:00:0${i + 1}:fe` });
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(1, 2), h3: host(2, 1), h4: host(3, 1), h5: host(3, 2) },
    switches: { s1: tor(0), s2: tor(1), s3: tor(2), s4: sw(s[3]!, 'forward', { role: 'spine', ina: false, ip: '10.0.0.4', mac: '02:00:00:00:00:04' }) },
    links: [
      { nodes: ['h1', 's1-p1'] },
      { nodes: ['h2', 's1-p2'] },
      { nodes: ['h3', 's2-p1'] },
      { nodes: ['h4', 's3-p1'] },
      { nodes: ['h5', 's3-p2'] },
      { nodes: ['s1-p3', 's4-p1'] },
      { nodes: ['s2-p3', 's4-p2'] },
      { nodes: ['s3-p3', 's4-p3'] },
    ],
  });
}

export const RINA_PORT = 0xbf10;

/** A Rina job of `hosts` (rank = position), UDP port 0xBF10 + rank. */
export function rinaJob(id: number, hosts: readonly string[], poolSize: number): JobSpec {
  return defineJob({ id, algorithm: 'rina', workers: hosts.map((h, rank) => ({ rank, host: h, udpPort: RINA_PORT + rank })), poolSize, elementsPerPacket: RINA_VALUES });
}

function describeEntry(e: TableEntry): string {
  const a = e.action as Action | undefined;
  return `${e.table}${e.isDefault ? ' (default)' : ''} ${JSON.stringify(e.match)} -> ${a ? `${a.name}${JSON.stringify(a.params)}` : 'none'}`;
}

/** rinaSwitchEntries' entities as dumpRina's lines (sorted). */
export function entityLines(e: RinaSwitchEntries): string[] {
  const group = `group ${e.group.groupId}: ${e.group.replicas.map((r) => `${String(r.port)}/${r.instance ?? 0}`).join(' ')}`;
  return [group, ...[...e.rewrites, ...e.workers, e.job].map(describeEntry)].sort();
}

/** Every entry and group (dumpState), and the non-zero cells of the registers a reused slot needs cleared. */
export async function dumpRina(session: SwitchSession): Promise<string[]> {
  const lines = await dumpState(session);
  for (const name of CELL_REGISTERS) {
    if (!session.schema.registers.find(name)) continue;
    const set = (await session.readAll(register(name))).filter((c) => Number(c.value) !== 0);
    lines.push(`${name}: ${set.map((c) => `${c.index}=${String(c.value)}`).join(' ')}`);
  }
  return lines.sort();
}

/** Lines in `after` and not in `before`, and the other way round. */
export function diff(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  return { added: after.filter((l) => !before.includes(l)).sort(), removed: before.filter((l) => !after.includes(l)).sort() };
}
