/**
 * One end-to-end set-up: the wires, the real switch on them, the real
 * controller (Installer over gRPC) that pushed the pipeline and installed the
 * forwarding plan, and the job fleets a test opens. `close()` releases all of
 * it in reverse order, whatever state the test left it in; tests call it from
 * afterEach.
 */
import { pino } from 'pino';
import type { JobSpec } from '../../../../src/controller/index.js';
import { Installer, type InstallerOptions, type ProgramCache } from '../../../../src/controller/install/index.js';
import { e2eHosts, e2eJob, e2eTopology, type E2eHost } from './network.js';
import { SwitchUnderTest, type RestartableSwitch } from './switch-under-test.js';
import { WorkerFleet } from './worker-fleet.js';
import { Wires, type WireOptions } from './wires.js';

export const QUIET = pino({ level: process.env.E2E_TEST_LOG ?? 'silent' });

export class SwitchMlRig {
  private readonly fleets: WorkerFleet[] = [];
  private readonly installers: Installer[] = [];

  private constructor(
    readonly hosts: readonly E2eHost[],
    readonly wires: Wires,
    readonly device: RestartableSwitch,
    private readonly programs: ProgramCache,
  ) {}

  /**
   * Wires for `hostCount` hosts, the switch on them (in this process unless
   * `startSwitch` makes another), and a controller that installed forwarding.
   */
  static async start(
    hostCount: number,
    programs: ProgramCache,
    wireOptions: WireOptions = {},
    startSwitch: (wires: Wires) => Promise<RestartableSwitch> = (wires) => SwitchUnderTest.start(wires),
  ): Promise<{ rig: SwitchMlRig; installer: Installer }> {
    const hosts = e2eHosts(hostCount);
    const wires = await Wires.open(hosts, wireOptions);
    let sw: RestartableSwitch;
    try {
      sw = await startSwitch(wires);
    } catch (err) {
      await wires.close();
      throw err;
    }
    const rig = new SwitchMlRig(hosts, wires, sw, programs);
    try {
      const installer = await rig.connect();
      await installer.installForwarding();
      return { rig, installer };
    } catch (err) {
      await rig.close();
      throw err;
    }
  }

  /** A controller run: connects to the switch (pushing the pipeline if its cookie differs). */
  async connect(options: InstallerOptions = {}): Promise<Installer> {
    const installer = await Installer.connect(e2eTopology(this.hosts, this.device.grpcAddress), { programs: this.programs, logger: QUIET, rpcTimeoutMs: 30_000, ...options });
    this.installers.push(installer);
    return installer;
  }

  job(id: number, members: readonly E2eHost[], poolSize: number): JobSpec {
    return e2eJob(id, members, poolSize);
  }

  /** The members' workers, on their wires. */
  async fleet(spec: JobSpec, members: readonly E2eHost[]): Promise<WorkerFleet> {
    const fleet = await WorkerFleet.open(this.wires, spec.id, members, spec.poolSize);
    this.fleets.push(fleet);
    return fleet;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.fleets.splice(0).map((f) => f.close()));
    await Promise.allSettled(this.installers.splice(0).map((i) => i.close()));
    await this.device.stop().catch(() => undefined);
    await this.wires.close();
  }
}
