// Switches for the installer's tests: real P4RuntimeServers over fresh
// DeviceStates on 127.0.0.1 (port 0 unless a restart asks for the old port),
// topologies written for the tests around their addresses, one program
// cache for every test (small SwitchML settings, so compiling and reading
// registers back stay cheap), and a readable dump of a switch's state.
import { afterEach } from 'vitest';
import { compilePipeline } from '../../../src/p4c/index.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { defineJob, parseTopology, type JobSpec, type Topology } from '../../../src/controller/index.js';
import { Installer, ProgramCache, type SwitchSession } from '../../../src/controller/install/index.js';
import { allTables, defaultEntry, multicastGroup, register, type Action, type TableEntry } from '../../../src/p4runtime/index.js';
import { P4RuntimeServer } from '../../../src/switch/runtime/server.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SWITCHML_P4 = path.join(ROOT, 'p4', 'switchml.p4');
export const FORWARD_P4 = path.join(ROOT, 'p4', 'forward.p4');
/** 64 slots of 8 elements: the P4Info then says 64 slots and the installer's capacity follows. */
export const DEFINES = ['SWITCHML_SLOTS=64', 'SWITCHML_ELEMENTS=8'];
export const SLOTS = 64;
export const programs = new ProgramCache({ defines: DEFINES, compiler: compilePipeline });

const quiet = pino({ level: process.env.INSTALL_TEST_LOG ?? 'silent' });

export class TestSwitch {
  private constructor(
    readonly server: P4RuntimeServer,
    readonly state: DeviceState,
    readonly port: number,
    readonly deviceId: number,
  ) {}

  static async start(deviceId: number, port = 0): Promise<TestSwitch> {
    const state = new DeviceState({ logger: quiet });
    const server = new P4RuntimeServer({ deviceId, state, logger: quiet });
    const started = await server.start({ address: `127.0.0.1:${port}` });
    return new TestSwitch(server, state, started.port, deviceId);
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Stops this switch and starts an empty one on the same port (a switch restart). */
  async restart(): Promise<TestSwitch> {
    await this.stop();
    return TestSwitch.start(this.deviceId, this.port);
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}

/** Stops every switch, even if some fail to. */
export async function stopAll(switches: readonly (TestSwitch | undefined)[]): Promise<void> {
  await Promise.allSettled(switches.map((s) => s?.stop()));
}

const host = (n: number, rack: number) => ({ ip: `10.0.${rack}.${n}/24`, mac: `02:00:00:00:0${rack}:0${n}` });

/** One INA switch s1 with hosts h1..h4 on ports 1..4. */
/**
 * The switches and installers of a describe block's tests, closed after each
 * test: push the switches a test starts, connect installers through `connect`.
 */
export function closedAfterEach(): { readonly switches: TestSwitch[]; connect: (...args: Parameters<typeof Installer.connect>) => Promise<Installer> } {
  const switches: TestSwitch[] = [];
  const installers: Installer[] = [];
  afterEach(async () => {
    await Promise.allSettled(installers.splice(0).map((i) => i.close()));
    await stopAll(switches.splice(0));
  });
  const connect = async (...args: Parameters<typeof Installer.connect>): Promise<Installer> => {
    const i = await Installer.connect(...args);
    installers.push(i);
    return i;
  };
  return { switches, connect };
}

export function singleSwitch(s1: TestSwitch): Topology {
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(2, 1), h3: host(3, 1), h4: host(4, 1) },
    switches: {
      s1: { target: 'emulator', grpc: s1.address, device_id: s1.deviceId, program: { p4: SWITCHML_P4 }, ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe' },
    },
    links: [1, 2, 3, 4].map((i) => ({ nodes: [`h${i}`, `s1-p${i}`] })),
  });
}

/** Leaf-spine: INA ToR s1 (h1, h2), legacy ToR s2 (h3, h4), spine s3 running forward.p4. */
export function leafSpine(s1: TestSwitch, s2: TestSwitch, s3: TestSwitch): Topology {
  const sw = (s: TestSwitch, p4: string, extra: Record<string, unknown>) => ({ target: 'emulator', grpc: s.address, device_id: s.deviceId, program: { p4 }, ...extra });
  return parseTopology({
    hosts: { h1: host(1, 1), h2: host(2, 1), h3: host(1, 2), h4: host(2, 2) },
    switches: {
      s1: sw(s1, SWITCHML_P4, { role: 'tor', rack: 'r1', ina: true, ip: '10.0.1.254', mac: '02:00:00:00:01:fe' }),
      s2: sw(s2, FORWARD_P4, { role: 'tor', rack: 'r2', ina: false, ip: '10.0.2.254', mac: '02:00:00:00:02:fe' }),
      s3: sw(s3, FORWARD_P4, { role: 'spine', ina: false, ip: '10.0.0.3', mac: '02:00:00:00:00:03' }),
    },
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

/** A SwitchML job of the given hosts (ranks in order), UDP ports 0xBEE0 + rank unless `port` says otherwise. */
export function switchmlJob(id: number, hosts: readonly string[], poolSize: number, port = (rank: number) => 0xbee0 + rank): JobSpec {
  return defineJob({ id, algorithm: 'switchml', workers: hosts.map((h, rank) => ({ rank, host: h, udpPort: port(rank) })), poolSize, elementsPerPacket: 8 });
}

function describeEntry(e: TableEntry): string {
  const a = e.action as Action | undefined;
  return `${e.table}${e.isDefault ? ' (default)' : ''} ${JSON.stringify(e.match)} -> ${a ? `${a.name}${JSON.stringify(a.params)}` : 'none'}`;
}

/** Every table entry, multicast group and the switch address, as sorted lines; registers seen/remaining when asked. */
export async function dumpState(session: SwitchSession, options: { registers?: boolean } = {}): Promise<string[]> {
  const lines: string[] = [];
  for (const e of await session.readAll(allTables())) lines.push(describeEntry(e));
  for (const e of await session.readAll(defaultEntry('ingress.identity.switch_address'))) lines.push(describeEntry(e));
  for (const g of await session.readAll(multicastGroup())) lines.push(`group ${g.groupId}: ${g.replicas.map((r) => `${String(r.port)}/${r.instance ?? 0}`).join(' ')}`);
  if (options.registers && session.schema.registers.find('ingress.switchml.seen')) {
    for (const name of ['ingress.switchml.seen', 'ingress.switchml.remaining']) {
      const cells = await session.readAll(register(name));
      lines.push(`${name}: ${cells.map((c) => String(c.value)).join(',')}`);
    }
  }
  return lines.sort();
}
