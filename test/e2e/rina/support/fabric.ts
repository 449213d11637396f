/**
 * A fabric of real switches in this process for the Rina end-to-end tests
 * (as test/e2e/atp/support/fabric.ts does for ATP): each switch is what
 * `p4ina switch` runs (launchSwitch), its ports UDP wires on 127.0.0.1, one
 * per host and one per switch-to-switch link. INA ToRs run p4/rina_tor.p4,
 * the others p4/forward.p4. The switches start empty; the real controller
 * (Installer over gRPC) pushes the pipelines and installs forwarding; the
 * job's Rina entries are written by rina-job.ts. `topology` is what the
 * controller reads. With impairments, an ImpairedRelay (the demo's) sits in
 * the middle of every host's wire, both directions seeded.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { UdpWireTransport } from '../../../../src/agent/transport/index.js';
import { ImpairedRelay, type RelayImpairments } from '../../../../src/demo/impaired-relay.js';
import { parseTopology, type Topology } from '../../../../src/controller/index.js';
import { Installer, ProgramCache } from '../../../../src/controller/install/index.js';
import { compilePipeline } from '../../../../src/p4c/index.js';
import { launchSwitch, type LaunchedSwitch } from '../../../../src/switch/device/switch-launcher.js';
import { testUdpPorts } from '../../../helpers/test-ports.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const P4 = { rina: path.join(ROOT, 'p4', 'rina_tor.p4'), forward: path.join(ROOT, 'p4', 'forward.p4') };
export const QUIET = pino({ level: process.env.E2E_TEST_LOG ?? 'silent' });

/** rina_tor.p4 as these tests compile it: 16 values per packet, 256 slots. */
export const VALUES = 16;
export const SLOTS = 256;
const programs = new ProgramCache({ defines: [`RINA_ELEMENTS=${VALUES}`, `RINA_SLOTS=${SLOTS}`], compiler: compilePipeline });

export interface FabricSwitch {
  readonly name: string;
  readonly program: 'rina' | 'forward';
  readonly role: 'tor' | 'spine';
}

export interface FabricHost {
  readonly name: string;
  readonly switch: string;
  readonly port: number;
}

export interface FabricSpec {
  readonly switches: readonly FabricSwitch[];
  readonly hosts: readonly FabricHost[];
  readonly links: readonly (readonly [readonly [string, number], readonly [string, number]])[];
}

interface HostWire {
  readonly ip: string;
  readonly mac: string;
  readonly agentSocket: number;
  /** The socket the agent's wire talks to: the switch port's, or the relay's. */
  readonly peerSocket: number;
  readonly gatewayMac: string;
}

export interface FabricFaults {
  readonly seed: number | string;
  readonly impairments: RelayImpairments;
}

const switchAddress = (i: number) => ({ ip: `10.0.${200 + i}.254`, mac: `02:00:00:00:${(0xc0 + i).toString(16)}:fe` });

export class Fabric {
  private readonly installers: Installer[] = [];

  private constructor(
    readonly topology: Topology,
    private readonly wires: ReadonlyMap<string, HostWire>,
    private readonly launched: readonly LaunchedSwitch[],
    readonly relays: readonly ImpairedRelay[],
  ) {}

  static async start(spec: FabricSpec, faults?: FabricFaults): Promise<Fabric> {
    const sockets = await testUdpPorts(2 * (spec.hosts.length + spec.links.length));
    const take = (): number => sockets.shift()!;
    const ports = new Map<string, string[]>(spec.switches.map((s) => [s.name, []]));
    const torIndex = new Map(spec.switches.filter((s) => s.role === 'tor').map((s, i) => [s.name, i + 1]));
    const wires = new Map<string, HostWire>();
    const hostJson: Record<string, unknown> = {};
    const links: { nodes: string[] }[] = [];
    const relays: ImpairedRelay[] = [];
    for (const h of spec.hosts) {
      const rack = torIndex.get(h.switch)!;
      const n = spec.hosts.filter((o) => o.switch === h.switch).indexOf(h) + 1;
      const ip = `10.0.${rack}.${n}`;
      const mac = `02:00:00:00:0${rack}:0${n}`;
      const agentSocket = take();
      const switchSocket = take();
      const relay = faults && (await ImpairedRelay.open({ wire: h.name, agentPort: agentSocket, switchPort: switchSocket, seed: faults.seed, up: faults.impairments, down: faults.impairments }));
      if (relay) relays.push(relay);
      ports.get(h.switch)!.push(`${h.port}@udp:127.0.0.1:${switchSocket}:127.0.0.1:${relay ? relay.switchFacingPort : agentSocket}`);
      wires.set(h.name, { ip, mac, agentSocket, peerSocket: relay ? relay.agentFacingPort : switchSocket, gatewayMac: switchAddress(spec.switches.findIndex((s) => s.name === h.switch)).mac });
      hostJson[h.name] = { ip: `${ip}/24`, mac };
      links.push({ nodes: [h.name, `${h.switch}-p${h.port}`] });
    }
    for (const [[a, pa], [b, pb]] of spec.links) {
      const sa = take();
      const sb = take();
      ports.get(a)!.push(`${pa}@udp:127.0.0.1:${sa}:127.0.0.1:${sb}`);
      ports.get(b)!.push(`${pb}@udp:127.0.0.1:${sb}:127.0.0.1:${sa}`);
      links.push({ nodes: [`${a}-p${pa}`, `${b}-p${pb}`] });
    }
    const launched: LaunchedSwitch[] = [];
    try {
      for (const [i, s] of spec.switches.entries()) launched.push(await launchSwitch({ deviceId: i, ports: ports.get(s.name)!, server: { address: '127.0.0.1:0' } }));
    } catch (err) {
      await Promise.allSettled([...launched.map((l) => l.stop()), ...relays.map((r) => r.close())]);
      throw err;
    }
    const topology = parseTopology({
      description: 'p4ina Rina end-to-end tests',
      hosts: hostJson,
      switches: Object.fromEntries(
        spec.switches.map((s, i) => [
          s.name,
          { target: 'emulator', grpc: `127.0.0.1:${launched[i]!.grpcPort}`, device_id: i, program: { p4: P4[s.program] }, ina: s.program === 'rina', role: s.role, ...switchAddress(i) },
        ]),
      ),
      links,
    });
    return new Fabric(topology, wires, launched, relays);
  }

  /** A controller run: connects to every switch, pushing pipelines, and installs forwarding. */
  async controller(): Promise<Installer> {
    const installer = await Installer.connect(this.topology, { programs, logger: QUIET, rpcTimeoutMs: 30_000 });
    this.installers.push(installer);
    await installer.installForwarding();
    return installer;
  }

  /** The host's end of its wire, as `--transport wire` opens it: frames from the host's MAC to its ToR's, with `udpPort` as its own. */
  openWire(host: string, udpPort: number): Promise<UdpWireTransport> {
    const w = this.wires.get(host);
    if (!w) throw new Error(`no host ${host} in the fabric`);
    return UdpWireTransport.open({
      localPort: w.agentSocket, peerPort: w.peerSocket,
      host: { mac: w.mac, ip: w.ip, udpPort }, remote: { mac: w.gatewayMac, ip: w.ip, udpPort },
    });
  }

  /** The flags of `p4ina agent rina-worker --transport wire` for the host's wire. */
  wireArgs(host: string): string[] {
    const w = this.wires.get(host);
    if (!w) throw new Error(`no host ${host} in the fabric`);
    return ['--transport', 'wire', '--peer', `127.0.0.1:${w.peerSocket}`, '--wire-local', `127.0.0.1:${w.agentSocket}`, '--mac', w.mac, '--gateway-mac', w.gatewayMac];
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.installers.splice(0).map((i) => i.close()));
    await Promise.allSettled(this.launched.map((l) => l.stop()));
    await Promise.allSettled(this.relays.map((r) => r.close()));
  }
}
