/**
 * The real switch as a child process: the built CLI's `p4ina switch` with the
 * wires' UDP ports, `--no-p4` (the controller pushes the pipeline), and its
 * P4Runtime server on 127.0.0.1. `restart()` stops the process (SIGTERM, then
 * SIGKILL) and starts a new one on the same UDP ports and gRPC port. A test
 * skips only when there is no build (CLI missing); a build whose switch does
 * not start fails it, with the switch's last stderr lines.
 */
import { ChildGroup, type TrackedChild } from '../../../../src/demo/child-group.js';
import { builtCliEntry } from '../../../../src/run/package-paths.js';
import type { RestartableSwitch } from './switch-under-test.js';
import type { Wires } from './wires.js';

/** The built entry; P4INA_TEST_CLI points at another build. */
export const CLI = process.env.P4INA_TEST_CLI ?? builtCliEntry();
const START_TIMEOUT_MS = 30_000;
const LISTENING = /listening on 127\.0\.0\.1:(\d{1,5})\b/;

async function spawnSwitch(group: ChildGroup, specs: readonly string[], grpcPort: number): Promise<{ child: TrackedChild; port: number }> {
  let announce: (port: number) => void = () => {};
  const announced = new Promise<number>((resolve) => (announce = resolve));
  const child = await group.spawn({
    name: 'switch',
    command: process.execPath,
    args: [CLI, 'switch', ...specs.flatMap((s) => ['-i', s]), '--no-p4', '--', '--grpc-server-addr', `127.0.0.1:${grpcPort}`],
    onStdoutLine: (line) => {
      const m = LISTENING.exec(line);
      if (m) announce(Number(m[1]));
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    announced,
    child.exited.then(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), START_TIMEOUT_MS))),
  ]).finally(() => clearTimeout(timer));
  if (outcome === undefined) {
    await group.stop([child]);
    throw new Error(`p4ina switch did not start: ${child.stderr().trim().split('\n').slice(-5).join(' | ')}`);
  }
  return { child, port: outcome };
}

export class SwitchProcess implements RestartableSwitch {
  private constructor(
    private readonly group: ChildGroup,
    private child: TrackedChild | undefined,
    private readonly specs: readonly string[],
    readonly grpcPort: number,
  ) {}

  static async start(wires: Wires): Promise<SwitchProcess> {
    const group = new ChildGroup();
    const specs = wires.switchPortSpecs();
    try {
      const { child, port } = await spawnSwitch(group, specs, 0);
      return new SwitchProcess(group, child, specs, port);
    } catch (err) {
      await group.close();
      throw err;
    }
  }

  get grpcAddress(): string {
    return `127.0.0.1:${this.grpcPort}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async restart(): Promise<void> {
    if (this.child) await this.group.stop([this.child]);
    this.child = undefined;
    this.child = (await spawnSwitch(this.group, this.specs, this.grpcPort)).child;
  }

  /** Stops the process for good. Idempotent. */
  async stop(): Promise<void> {
    this.child = undefined;
    await this.group.close();
  }
}
