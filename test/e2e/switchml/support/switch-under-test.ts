/**
 * The real switch, in this process: SwitchDevice with UDP-wire ports and its
 * P4Runtime server on 127.0.0.1 (src/switch/device/switch-launcher.ts, what
 * `p4ina switch` runs), started empty so that the controller pushes the
 * pipeline. `restart()` stops it and starts a new, empty one on the same
 * UDP ports and the same gRPC port, as a restarted switch process would be.
 */
import { launchSwitch, type LaunchedSwitch } from '../../../../src/switch/device/switch-launcher.js';
import type { Wires } from './wires.js';

/** What the rig needs of a switch, in this process or a child process. */
export interface RestartableSwitch {
  readonly grpcAddress: string;
  /** Stops it and starts a new, empty one on the same UDP ports and gRPC port. */
  restart(): Promise<void>;
  /** Idempotent. */
  stop(): Promise<void>;
}

export class SwitchUnderTest implements RestartableSwitch {
  private constructor(
    private launched: LaunchedSwitch | undefined,
    private readonly portSpecs: readonly string[],
    readonly grpcPort: number,
  ) {}

  static async start(wires: Wires, grpcPort = 0): Promise<SwitchUnderTest> {
    const specs = wires.switchPortSpecs();
    const launched = await launchSwitch({ deviceId: 0, ports: specs, server: { address: `127.0.0.1:${grpcPort}` } });
    return new SwitchUnderTest(launched, specs, launched.grpcPort);
  }

  get grpcAddress(): string {
    return `127.0.0.1:${this.grpcPort}`;
  }

  get device(): LaunchedSwitch['device'] {
    if (!this.launched) throw new Error('the switch is stopped');
    return this.launched.device;
  }

  /** A new, empty switch on the same ports; its registers start at zero and it has no pipeline. */
  async restart(): Promise<void> {
    await this.stop();
    this.launched = await launchSwitch({ deviceId: 0, ports: this.portSpecs, server: { address: this.grpcAddress } });
  }

  /** Idempotent. */
  async stop(): Promise<void> {
    const launched = this.launched;
    this.launched = undefined;
    await launched?.stop();
  }
}
