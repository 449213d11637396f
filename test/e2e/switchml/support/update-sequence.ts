/**
 * A seeded sequence of SwitchML frames for comparing a switch with the
 * reference model packet by packet. It starts from what correct workers send
 * — per operation (epoch), packet j of every worker into slot j mod W, each
 * slot's set flipping on every use and carried across operations — and
 * disorders it the ways a network and faulty senders do: neighbours swapped,
 * earlier packets replayed (duplicates, retransmissions, late updates of an
 * old round or operation), and broken packets (another version, a result sent
 * by a worker, a wrong element count, values cut short, trailing bytes, an
 * unknown job, a slot past the pool, an unknown worker, another IPv4 source,
 * another UDP source port), replays sent as RECOVERY_UPDATEs and stray
 * updates of rounds no worker will finish (an unknown tsi and epoch), which
 * the program's takeover rules must handle alike.
 */
import { SeededRandom } from '../../../../src/util/seeded-random.js';
import { buildUdpFrame, encodeSwitchMl, ipv4FromText, macFromText, SWITCHML_PORTS, SwitchMlMessageType, udpFrameOverhead } from '../../../../src/wire/index.js';
import { ELEMENTS, SWITCH, type E2eHost } from './network.js';

export interface SequenceJob {
  readonly jobId: number;
  readonly members: readonly E2eHost[];
  readonly poolSize: number;
  /** Slots the workers use: min(pool size, chunks). */
  readonly window: number;
  /** Packets per worker per operation: chunks + window. */
  readonly packets: number;
}

export interface SequencedFrame {
  readonly port: number;
  readonly frame: Buffer;
  /** What this frame is, for failure messages. */
  readonly label: string;
}

interface UpdateFields {
  readonly jobId: number;
  readonly workerId: number;
  readonly tsi: number;
  readonly slot: number;
  readonly set: 0 | 1;
  readonly exponent: number;
  readonly epoch: number;
}

function frameOf(host: E2eHost, u: UpdateFields, random: SeededRandom): Buffer {
  const values = Array.from({ length: ELEMENTS }, () => random.nextUint32() | 0);
  const frame = Buffer.alloc(udpFrameOverhead() + 14 + 4 * ELEMENTS + 8);
  const flow = { srcMac: macFromText(host.mac), dstMac: SWITCH.macNumber, srcIp: ipv4FromText(host.ip), dstIp: SWITCH.ipNumber, srcPort: host.udpPort, dstPort: SWITCHML_PORTS.first + (u.workerId % 16) };
  const length = buildUdpFrame(frame, 0, flow, (buf, at) => encodeSwitchMl(buf, at, { ...u, messageType: SwitchMlMessageType.UPDATE, elementCount: ELEMENTS, values }) - at);
  return frame.subarray(0, length);
}

/** Rebuilds the frame with another UDP payload (lengths and checksums made right again). */
function withPayload(frame: Buffer, payload: Buffer, srcIp = frame.readUInt32BE(26), srcPort = frame.readUInt16BE(34)): Buffer {
  const at = udpFrameOverhead();
  const out = Buffer.alloc(at + payload.length);
  const flow = {
    dstMac: Number(frame.readUIntBE(0, 6)),
    srcMac: Number(frame.readUIntBE(6, 6)),
    srcIp,
    dstIp: frame.readUInt32BE(30),
    srcPort,
    dstPort: frame.readUInt16BE(36),
  };
  buildUdpFrame(out, 0, flow, payload);
  return out;
}

const BREAKAGES = [
  'version 2',
  'a RESULT from a worker',
  'elem_count 8',
  'values cut short',
  'trailing bytes',
  'unknown job',
  'slot past the pool',
  'unknown worker',
  'another IPv4 source',
  'another UDP source port',
  'a stray round',
] as const;

/** The frame as a RECOVERY_UPDATE. */
function asRecovery(frame: Buffer): Buffer {
  const payload = Buffer.from(frame.subarray(udpFrameOverhead()));
  payload[0] = (payload[0]! & 0xf0) | SwitchMlMessageType.RECOVERY_UPDATE;
  return withPayload(frame, payload);
}

function broken(frame: Buffer, kind: (typeof BREAKAGES)[number], job: SequenceJob, random: SeededRandom): Buffer {
  const at = udpFrameOverhead();
  const payload = Buffer.from(frame.subarray(at));
  switch (kind) {
    case 'version 2':
      payload[0] = 0x21;
      return withPayload(frame, payload);
    case 'a RESULT from a worker':
      payload[0] = 0x12;
      return withPayload(frame, payload);
    case 'elem_count 8':
      payload.writeUInt16BE(8, 10);
      return withPayload(frame, payload);
    case 'values cut short':
      return withPayload(frame, payload.subarray(0, payload.length - 8));
    case 'trailing bytes':
      return withPayload(frame, Buffer.concat([payload, Buffer.alloc(4, 0x5a)]));
    case 'unknown job':
      payload.writeUInt16BE(job.jobId + 1000, 2);
      return withPayload(frame, payload);
    case 'slot past the pool':
      payload.writeUInt16BE((payload.readUInt16BE(8) & 0x8000) | job.poolSize, 8);
      return withPayload(frame, payload);
    case 'unknown worker':
      payload[1] = job.members.length + 3;
      return withPayload(frame, payload);
    case 'another IPv4 source':
      return withPayload(frame, payload, (frame.readUInt32BE(26) + 100) >>> 0);
    case 'another UDP source port':
      return withPayload(frame, payload, undefined, (frame.readUInt16BE(34) + 1) & 0xffff);
    case 'a stray round':
      // From the worker's own address: the source check cannot tell it apart.
      payload.writeUInt32BE(random.nextUint32(), 4);
      payload[13] = random.nextInt(256);
      return withPayload(frame, payload);
  }
}

export interface SequenceOptions {
  /** Operations of every job. */
  readonly operations: number;
  readonly seed: string;
  /** The first operation's epoch (mod 256), to cross the wrap from 255 to 0. */
  readonly firstEpoch?: number;
  /**
   * Added to every tsi: real workers start at 0, but the program compares tsi
   * as an unsigned 32-bit number, which values past 2^31 check.
   */
  readonly tsiBase?: number;
}

/** The operations of every job, interleaved and disordered. */
export function updateSequence(jobs: readonly SequenceJob[], options: SequenceOptions): SequencedFrame[] {
  const { operations, seed } = options;
  const tsiBase = options.tsiBase ?? 0;
  const random = new SeededRandom(seed);
  const ideal: SequencedFrame[] = [];
  const nextSet = jobs.map((j) => new Uint8Array(j.poolSize));
  for (let op = 0; op < operations; op++) {
    const epoch = ((options.firstEpoch ?? 0) + op) & 0xff;
    const longest = Math.max(...jobs.map((j) => j.packets));
    for (let tsi = 0; tsi < longest; tsi++) {
      for (const [k, job] of jobs.entries()) {
        if (tsi >= job.packets) continue;
        const slot = tsi % job.window;
        const set = nextSet[k]![slot]! as 0 | 1;
        nextSet[k]![slot] = set ^ 1;
        const order = job.members.map((_, i) => i);
        for (let i = order.length - 1; i > 0; i--) {
          const j = random.nextInt(i + 1);
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        for (const workerId of order) {
          const host = job.members[workerId]!;
          const exponent = random.nextInt(256) - 128;
          ideal.push({ port: host.switchPort, frame: frameOf(host, { jobId: job.jobId, workerId, tsi: tsiBase + tsi, slot, set, exponent, epoch }, random), label: `job ${job.jobId} epoch ${epoch} tsi ${tsi} worker ${workerId}` });
        }
      }
    }
  }
  const out: SequencedFrame[] = [];
  let breakages = 0;
  for (let i = 0; i < ideal.length; i++) {
    // A neighbour overtakes this packet now and then.
    if (i + 1 < ideal.length && random.chance(0.1)) [ideal[i], ideal[i + 1]] = [ideal[i + 1]!, ideal[i]!];
    out.push(ideal[i]!);
    if (out.length > 1 && random.chance(0.25)) {
      // Half of the replays are recent (duplicates of a round still filling), half from anywhere before.
      const from = random.chance(0.5) ? Math.max(0, out.length - 3) : 0;
      const earlier = out[from + random.nextInt(out.length - from)]!;
      // Some replays come as RECOVERY_UPDATEs, as a worker sends its late retransmissions.
      if (random.chance(0.35)) out.push({ port: earlier.port, frame: asRecovery(earlier.frame), label: `recovery replay of ${earlier.label}` });
      else out.push({ ...earlier, label: `replay of ${earlier.label}` });
    }
    if (random.chance(0.08)) {
      // Every kind in turn, so that a short sequence has them all.
      const kind = BREAKAGES[breakages++ % BREAKAGES.length]!;
      const job = jobs.find((j) => ideal[i]!.label.startsWith(`job ${j.jobId} `))!;
      out.push({ port: ideal[i]!.port, frame: broken(ideal[i]!.frame, kind, job, random), label: `${kind}: ${ideal[i]!.label}` });
    }
  }
  return out;
}
