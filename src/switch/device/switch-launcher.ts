/**
 * Starting a whole switch from command-line-shaped options: ports (PORT@SPEC),
 * pcap recording, the CPU port, the P4Runtime server, and a program to run
 * from the start (our IR JSON plus its P4Info). Shared by `p4ina switch` and
 * tests that spawn nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { P4inaError } from '../../errors/p4ina-error.js';
import { readP4InfoFile } from '../../p4info/p4info-files.js';
import type * as p4i from '../../proto/p4i.js';
import { PcapRecorder } from '../ports/pcap-recorder.js';
import { PortSet } from '../ports/port-set.js';
import type { UdpWireIo } from '../ports/udp-wire-io.js';
import { checkQueueSettings, type QueueSetting } from '../queues/queue-setting.js';
import type { ServerLimits, StartOptions } from '../runtime/server.js';
import type { PipelineLimits } from '../state/pipeline-config.js';
import { readIr } from './pipeline-loader.js';
import { SwitchDevice } from './switch-device.js';

export interface LaunchOptions {
  readonly deviceId: number | bigint;
  /** `PORT@SPEC` strings (udp wires, interfaces). */
  readonly ports: readonly string[];
  readonly pcapDir?: string | undefined;
  readonly cpuPort?: number | undefined;
  /** A program to run from the start: the IR JSON written by `p4ina compile`. */
  readonly configFile?: string | undefined;
  /** Its P4Info; default: the compile output beside CONFIG (NAME.p4info.txtpb, .json or .bin for NAME.ir.json). */
  readonly p4infoFile?: string | undefined;
  readonly server: StartOptions;
  /** What one pipeline may declare and take (memory budget, array cells). */
  readonly pipelineLimits?: Partial<PipelineLimits>;
  /** The P4Runtime server's limits (entities per read, reads in flight, …). */
  readonly serverLimits?: Partial<ServerLimits>;
  /** Egress queues (`--port-rate`, `--queue-depth`): rates and capacities for every port or one. */
  readonly queues?: readonly QueueSetting[];
  /** The sockets of UDP wires (`--udp-io`); default: batched where the addon loads. */
  readonly udpIo?: UdpWireIo;
}

export interface LaunchedSwitch {
  readonly device: SwitchDevice;
  readonly grpcPort: number;
  readonly p4infoFile: string | undefined;
  stop(): Promise<void>;
}

/** Where a program's P4Info is when none is named: beside the IR, as `p4ina compile` writes it. */
export function p4infoBeside(configFile: string): string | undefined {
  const stem = configFile.replace(/\.ir\.json$/, '').replace(/\.json$/, '');
  return ['.p4info.txtpb', '.p4info.json', '.p4info.bin'].map((s) => stem + s).find((f) => existsSync(f));
}

/** Reads CONFIG and its P4Info; throws P4inaError (SWITCH_CONFIG) saying what to fix. */
export function readProgram(configFile: string, p4infoFile: string | undefined): { irText: string; p4info: p4i.P4Info__Output; p4infoFile: string } {
  let irText: string;
  try {
    irText = readFileSync(configFile, 'utf8');
  } catch (e) {
    throw new P4inaError('SWITCH_CONFIG', `cannot read CONFIG ${configFile}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  try {
    readIr(Buffer.from(irText));
  } catch (e) {
    throw new P4inaError('SWITCH_CONFIG', `${configFile}: ${(e as Error).message}`);
  }
  const file = p4infoFile ?? p4infoBeside(configFile);
  if (!file) throw new P4inaError('SWITCH_CONFIG', `no P4Info for ${configFile}: give --p4info FILE, or keep the NAME.p4info.txtpb that "p4ina compile" wrote beside NAME.ir.json`);
  return { irText, p4info: readP4InfoFile(file), p4infoFile: file };
}

export async function launchSwitch(options: LaunchOptions): Promise<LaunchedSwitch> {
  const program = options.configFile ? readProgram(options.configFile, options.p4infoFile) : undefined;
  if (options.queues) checkQueueSettings(options.queues);
  const ports = await PortSet.open(options.ports, options.udpIo !== undefined ? { udp: { udpIo: options.udpIo } } : {});
  let recorder: PcapRecorder | undefined;
  try {
    if (options.pcapDir !== undefined) {
      recorder = await PcapRecorder.create(options.pcapDir);
      await recorder.recordAll(ports);
    }
  } catch (e) {
    await ports.close();
    throw e;
  }
  const device = new SwitchDevice({
    deviceId: options.deviceId,
    ports,
    cpuPort: options.cpuPort,
    ...(options.pipelineLimits ? { pipelineLimits: options.pipelineLimits } : {}),
    ...(options.serverLimits ? { serverLimits: options.serverLimits } : {}),
    ...(options.queues ? { queues: options.queues } : {}),
  });
  const stop = async (): Promise<void> => {
    await device.stop();
    await recorder?.close();
  };
  try {
    if (program) device.loadPipeline(program.p4info, program.irText);
    const { port } = await device.start(options.server);
    return { device, grpcPort: port, p4infoFile: program?.p4infoFile, stop };
  } catch (e) {
    await stop();
    if (e instanceof P4inaError) throw e;
    throw new P4inaError('SWITCH_CONFIG', e instanceof Error ? e.message : String(e));
  }
}
