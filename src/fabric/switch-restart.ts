/**
 * One switch of the fabric restarted as a crashed switch comes back under a
 * supervisor: its process killed (SIGKILL, no goodbye to anyone), then
 * started again with the same wires, device id and P4Runtime port. It comes
 * back as any switch starts, with nothing: no pipeline, no table entries, no
 * multicast groups, every register zero. Reprogramming it is a controller's
 * work, as after a real restart: a new controller run pushes its pipeline,
 * and Installer.reconcile puts forwarding and the jobs back.
 */
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import type { RunningSwitch, SwitchLaunch, SwitchLauncher } from './switch-launch.js';

function portOf(grpc: string): number {
  const port = Number(grpc.slice(grpc.lastIndexOf(':') + 1));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`restartSwitch: "${grpc}" has no port`);
  return port;
}

/**
 * Kills `current` and starts it again from `spec` on its P4Runtime port.
 * Rejects with FabricError (FABRIC_SWITCH_FAILED: it did not start again,
 * e.g. another process took one of its ports meanwhile; FABRIC_INTERRUPTED).
 */
export async function restartSwitch(launcher: SwitchLauncher, current: RunningSwitch, spec: SwitchLaunch, signal: AbortSignal | undefined): Promise<RunningSwitch> {
  const grpcPort = portOf(current.grpc);
  await launcher.kill(spec.name);
  const again = await launcher.launch({ ...spec, grpcPort }, signal);
  if (again.grpc !== current.grpc) {
    // A controller's topology names the old address; a switch elsewhere would be a different switch to it.
    await launcher.kill(spec.name);
    throw new FabricError(FABRIC_ERROR_CODES.switchFailed, `switch ${spec.name} came back at ${again.grpc} instead of ${current.grpc}`);
  }
  return again;
}
