// A switch running one of the programs on the IR oracle, configured the way
// docs/p4-programs.md tells a controller to, and the frames workers send.
import {
  buildUdpFrame, decodeSwitchMl, encodeSwitchMl, ipv4FromText, macFromText,
  type SwitchMlMessageType, type SwitchMlPacket, type UdpFrame,
} from '../../../src/wire/index.js';
import { compiled } from '../helpers.js';
import { SWITCH_IP, SWITCH_MAC } from './hosts.js';
import { IrOracle, type OraclePacket } from './ir-oracle.js';
import { decodePayload } from './payloads.js';

export { SWITCH_IP, SWITCH_MAC } from './hosts.js';

/** Worker w: its addresses and the switch port it is on (w + 1). */
export function worker(w: number): { mac: number; ip: number; udpPort: number; switchPort: number } {
  return { mac: macFromText('02:00:00:00:00:01') + w, ip: ipv4FromText('10.0.0.1') + w, udpPort: 40000 + w, switchPort: w + 1 };
}

/** The program compiled with `defines`, on a fresh oracle, with the switch address set. */
export function startSwitch(file: string, defines: readonly string[] = []): IrOracle {
  const oracle = new IrOracle(compiled(file, defines).ir);
  oracle.defaults.set('ingress.identity.switch_address', {
    action: 'ingress.identity.set_switch_address',
    args: [BigInt(SWITCH_MAC), BigInt(SWITCH_IP)],
  });
  return oracle;
}

export interface JobSpec {
  jobId: number;
  slotBase: number;
  poolSize: number;
  workers: readonly number[];
  group: number;
  /** Install accept_worker_from (check the IPv4 source and UDP source port) instead of accept_worker. */
  checkSource?: boolean;
}

/** What the controller installs per job (docs/p4-programs.md §3), with worker_id as egress_rid. */
export function installJob(oracle: IrOracle, job: JobSpec): void {
  oracle.groups.set(job.group, job.workers.map((w) => ({ port: worker(w).switchPort, rid: w })));
  for (const w of job.workers) {
    const a = worker(w);
    oracle.addEntry('egress.result_rewrite', {
      keys: [BigInt(job.jobId), BigInt(w)],
      action: 'egress.rewrite_result',
      args: [BigInt(a.mac), BigInt(a.ip), BigInt(a.udpPort)],
    });
    oracle.addEntry('ingress.switchml.workers', job.checkSource
      ? { keys: [BigInt(job.jobId), BigInt(w)], action: 'ingress.switchml.accept_worker_from', args: [1n << BigInt(w), BigInt(a.ip), BigInt(a.udpPort)] }
      : { keys: [BigInt(job.jobId), BigInt(w)], action: 'ingress.switchml.accept_worker', args: [1n << BigInt(w)] });
  }
  oracle.addEntry('ingress.switchml.jobs', {
    keys: [BigInt(job.jobId)],
    action: 'ingress.switchml.set_job',
    args: [BigInt(job.slotBase), BigInt(job.poolSize), BigInt(job.workers.length), BigInt(job.group)],
  });
}

export interface UpdateSpec {
  worker: number;
  tsi: number;
  jobId?: number;
  slot?: number;
  set?: 0 | 1;
  exponent?: number;
  epoch?: number;
  /** Default: elements values derived from worker and index. */
  values?: readonly number[];
  elements?: number;
  messageType?: SwitchMlMessageType;
  srcIp?: number;
  dstIp?: number;
  dstPort?: number;
}

/** An UPDATE frame from `spec.worker` to the switch. */
export function updateFrame(spec: UpdateSpec, elements: number): Buffer {
  const a = worker(spec.worker);
  const count = spec.elements ?? elements;
  const buf = Buffer.alloc(64 + 4 * count);
  const flow = {
    srcMac: a.mac, dstMac: SWITCH_MAC, srcIp: spec.srcIp ?? a.ip, dstIp: spec.dstIp ?? SWITCH_IP,
    srcPort: a.udpPort, dstPort: spec.dstPort ?? 0xbee3,
  };
  const length = buildUdpFrame(buf, 0, flow, (b, offset) => encodeSwitchMl(b, offset, {
    messageType: spec.messageType ?? 1, jobId: spec.jobId ?? 7, workerId: spec.worker, tsi: spec.tsi,
    slot: spec.slot ?? 0, set: spec.set ?? 0, elementCount: count, exponent: spec.exponent ?? 0, epoch: spec.epoch ?? 0,
    values: spec.values ?? Array.from({ length: count }, (_, i) => (spec.worker + 1) * (i + 1)),
  }) - offset);
  return Buffer.from(buf.subarray(0, length));
}

export interface DecodedResult { frame: UdpFrame; switchMl: SwitchMlPacket; values: number[] }

/** A packet the switch sent, decoded with every checksum verified. */
export function decodeResult(packet: OraclePacket): DecodedResult {
  const { frame, packet: switchMl, values } = decodePayload(packet.bytes, decodeSwitchMl);
  return { frame, switchMl, values };
}
