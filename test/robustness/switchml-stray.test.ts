// Issue #11 item 4: a stray SwitchML packet must not wedge a job. Real workers
// through the real switch (p4/switchml.p4 on the emulator, programmed by the
// controller), with frames injected on the wires:
// - a stray UPDATE of a (tsi, epoch) no worker sends, put into the job's first
//   slot copy before the workers start, from the member's own address (what
//   the source check cannot stop) or from elsewhere: the job completes exactly,
//   and the switch's counters and the workers' stats say how (takeover,
//   RECOVERY_UPDATEs, or a drop), not a timeout;
// - forged packets of every SwitchML kind during a running job: an UPDATE
//   and a RECOVERY_UPDATE from a non-member, a RESULT and a RETRANSMITTED_RESULT
//   sent to the switch, a wrong job id, a wrong worker id, a slot past the
//   pool, an out-of-window tsi and an old epoch, and spoofed stray rounds and
//   recovery replays from a member's own address: exact, bit-identical
//   results, and every drop counted by its reason.
import { afterEach, describe, expect, test } from 'vitest';
import type { SwitchMlStats } from '../../src/agent/switchml/switchml-stats.js';
import {
  buildUdpFrame,
  decodeSwitchMl,
  encodeSwitchMl,
  ipv4FromText,
  macFromText,
  parseUdpFrame,
  SWITCHML_PORTS,
  switchMlLength,
  SwitchMlMessageType,
  type SwitchMlPacket,
  udpFrameOverhead,
} from '../../src/wire/index.js';
import { expectExact, seededTensors } from '../e2e/switchml/support/exact-results.js';
import { ELEMENTS, programCache, SWITCH, type E2eHost } from '../e2e/switchml/support/network.js';
import { SwitchMlRig } from '../e2e/switchml/support/rig.js';
import { readSwitchMlCounters } from '../e2e/switchml/support/switch-readback.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

interface Forged {
  readonly messageType: SwitchMlMessageType;
  readonly jobId: number;
  readonly workerId: number;
  readonly tsi: number;
  readonly slot: number;
  readonly set: 0 | 1;
  readonly epoch: number;
  readonly fill?: number;
}

/** A SwitchML frame as if `from` sent it (its MAC, IP and UDP port unless overridden). */
function frameFrom(from: { mac: string; ip: string; udpPort: number }, f: Forged): Buffer {
  const frame = Buffer.alloc(udpFrameOverhead() + switchMlLength(ELEMENTS));
  const flow = { srcMac: macFromText(from.mac), dstMac: SWITCH.macNumber, srcIp: ipv4FromText(from.ip), dstIp: SWITCH.ipNumber, srcPort: from.udpPort, dstPort: SWITCHML_PORTS.first };
  const values = new Array<number>(ELEMENTS).fill(f.fill ?? 0x01010101);
  const length = buildUdpFrame(frame, 0, flow, (buf, at) => encodeSwitchMl(buf, at, { ...f, elementCount: ELEMENTS, exponent: 7, values }) - at);
  return frame.subarray(0, length);
}

function switchMlOf(frame: Buffer): SwitchMlPacket | undefined {
  const udp = parseUdpFrame(frame, 0, frame.length, { verifyChecksums: false });
  if (!udp.ok) return undefined;
  const p = decodeSwitchMl(frame, udp.payloadOffset, udp.payloadOffset + udp.payloadLength);
  return p.ok ? p : undefined;
}

const sum = (stats: readonly SwitchMlStats[], key: 'recoveryUpdates' | 'retransmissions' | 'timeouts') => stats.reduce((n, s) => n + s[key], 0);

const UPDATE = SwitchMlMessageType.UPDATE;

describe('a stray update before the job starts', () => {
  // Job 31: h1..h3, pool 4; the first operation is epoch 0 and puts packet 0 into slot 0, set 0.
  async function strayRun(options: { checkSource: boolean; stray: (members: readonly E2eHost[], outsider: E2eHost) => Buffer }) {
    const { rig, installer: first } = await SwitchMlRig.start(4, programs, { relay: true });
    rigs.push(rig);
    // A controller run with the test's source-check setting (one controller at a time).
    await first.close();
    const installer = await rig.connect({ checkSource: options.checkSource });
    const members = rig.hosts.slice(0, 3);
    const outsider = rig.hosts[3]!;
    const spec = rig.job(31, members, 4);
    await installer.setupJob(spec);
    const session = installer.sessions.get('s1')!;
    rig.wires.relayOf(members[0]!).inject(options.stray(members, outsider), 'up');
    // The stray is in (or dropped) before any worker sends.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const c = await readSwitchMlCounters(session);
      if (c.aggregated + c.wrongSource + c.unknownWorker > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const fleet = await rig.fleet(spec, members);
    const tensors = seededTensors(3, 30 * 64 + 11, 'stray');
    const outcome = await fleet.allreduce(tensors);
    expectExact(outcome.results, tensors);
    return { outcome, counters: await readSwitchMlCounters(session) };
  }

  test('a newer stray round from a member address, source checks off (the issue): RECOVERY_UPDATEs take the copy over', async () => {
    const { outcome, counters } = await strayRun({
      checkSource: false,
      // Same epoch, a tsi far ahead: the job's own round 0 looks older than it and is dropped as stale.
      stray: (members) => frameFrom(members[0]!, { messageType: UPDATE, jobId: 31, workerId: 0, tsi: 0x7fff0000, slot: 0, set: 0, epoch: 0 }),
    });
    // The stray opened a round (aggregated), the job's updates to it were stale until a worker's
    // RECOVERY_UPDATE took the copy over: once, and after a handful of retransmissions, not ~30.
    expect(counters.takeovers).toBe(1);
    expect(counters.stale).toBeGreaterThan(0);
    expect(sum(outcome.stats, 'recoveryUpdates')).toBeGreaterThanOrEqual(1);
    for (const s of outcome.stats) expect(s.retransmissions, 'retransmissions of one worker').toBeLessThan(15);
  }, 120_000);

  test('a stray round of another epoch, from a member address with its own port: the first real update takes over', async () => {
    const { outcome, counters } = await strayRun({
      checkSource: true,
      // Epoch 200 is behind the job's epoch 0 (mod 256): the job's round is newer and wins at once.
      stray: (members) => frameFrom(members[1]!, { messageType: UPDATE, jobId: 31, workerId: 1, tsi: 12345, slot: 0, set: 0, epoch: 200 }),
    });
    expect(counters.takeovers).toBe(1);
    expect(sum(outcome.stats, 'recoveryUpdates')).toBe(0);
  }, 120_000);

  test('a stray from anywhere else: dropped and counted, nothing to recover', async () => {
    const { outcome, counters } = await strayRun({
      checkSource: true,
      // The member's IP but another UDP port: the source check drops it.
      stray: (members) => frameFrom({ ...members[0]!, udpPort: members[0]!.udpPort + 1000 }, { messageType: UPDATE, jobId: 31, workerId: 0, tsi: 0x7fff0000, slot: 0, set: 0, epoch: 0 }),
    });
    expect(counters.wrongSource).toBe(1);
    expect(counters.takeovers).toBe(0);
    expect(sum(outcome.stats, 'recoveryUpdates')).toBe(0);
  }, 120_000);
});

describe('forged packets during a running job', () => {
  test('every kind: the job completes exactly, each drop counted by its reason', async () => {
    const JOB = 32;
    const TRIGGER_TSI = 9;
    let trigger: (() => void) | undefined;
    const fromMembers: Buffer[] = [];
    const { rig, installer } = await SwitchMlRig.start(4, programs, {
      intercept: (host, frame, direction) => {
        if (direction !== 'up' || host.name === 'h4') return true;
        const p = switchMlOf(frame);
        if (p && p.messageType === UPDATE) {
          if (fromMembers.length < 40) fromMembers.push(Buffer.from(frame));
          if (p.tsi === TRIGGER_TSI && trigger) {
            const t = trigger;
            trigger = undefined;
            setImmediate(t);
          }
        }
        return true;
      },
    });
    rigs.push(rig);
    const members = rig.hosts.slice(0, 3) as [E2eHost, E2eHost, E2eHost];
    const attacker = rig.hosts[3]!;
    const spec = rig.job(JOB, members, 4);
    await installer.setupJob(spec);
    const session = installer.sessions.get('s1')!;

    const base = { jobId: JOB, workerId: 0, tsi: TRIGGER_TSI + 4, slot: 1, set: 0 as const, epoch: 0 };
    // From the attacker's own host (port 4): each is dropped before it touches a register.
    const dropped: [string, Buffer][] = [
      ['UPDATE from a non-member', frameFrom(attacker, { ...base, messageType: UPDATE })],
      ['RECOVERY_UPDATE from a non-member', frameFrom(attacker, { ...base, messageType: SwitchMlMessageType.RECOVERY_UPDATE })],
      ['RESULT sent to the switch', frameFrom(attacker, { ...base, messageType: SwitchMlMessageType.RESULT })],
      ['RETRANSMITTED_RESULT sent to the switch', frameFrom(attacker, { ...base, messageType: SwitchMlMessageType.RETRANSMITTED_RESULT })],
      ['wrong job id', frameFrom(attacker, { ...base, messageType: UPDATE, jobId: JOB + 1 })],
      ['wrong worker id', frameFrom(attacker, { ...base, messageType: UPDATE, workerId: 9 })],
      ['slot past the pool', frameFrom(attacker, { ...base, messageType: UPDATE, slot: 4 })],
      ['out-of-window tsi, non-member', frameFrom(attacker, { ...base, messageType: UPDATE, tsi: 0x40000000 })],
      ['old epoch, non-member', frameFrom(attacker, { ...base, messageType: UPDATE, epoch: 255 })],
      ['a member worker id from the member IP but another port', frameFrom({ ...members[1], udpPort: members[1].udpPort + 7 }, { ...base, messageType: UPDATE, workerId: 1 })],
    ];
    // Spoofed from members' own addresses (what a source check cannot stop): stray rounds that
    // would wedge the slots they land in, and a member's old update replayed as a RECOVERY_UPDATE.
    const spoofed = (): Buffer[] => {
      const recoveryReplay = Buffer.from(fromMembers[1]!);
      const at = udpFrameOverhead();
      recoveryReplay[at] = (recoveryReplay[at]! & 0xf0) | SwitchMlMessageType.RECOVERY_UPDATE;
      const replay = frameFrom(members[0], { messageType: UPDATE, jobId: JOB, workerId: 0, tsi: 1, slot: 1, set: 0, epoch: 0 });
      const recovered = parseUdpFrame(recoveryReplay, 0, recoveryReplay.length, { verifyChecksums: false });
      // Rebuild with a valid checksum (the relay's frame had one over the old type byte).
      const payload = Buffer.from(recoveryReplay.subarray(recovered.ok ? recovered.payloadOffset : at));
      const src = rig.hosts.find((h) => ipv4FromText(h.ip) === recoveryReplay.readUInt32BE(26) && h.udpPort === recoveryReplay.readUInt16BE(34)) ?? members[1];
      const rebuilt = Buffer.alloc(udpFrameOverhead() + payload.length);
      buildUdpFrame(rebuilt, 0, { srcMac: macFromText(src.mac), dstMac: SWITCH.macNumber, srcIp: ipv4FromText(src.ip), dstIp: SWITCH.ipNumber, srcPort: src.udpPort, dstPort: SWITCHML_PORTS.first }, payload);
      return [
        ...[0, 1].map((set) => frameFrom(members[2], { messageType: UPDATE, jobId: JOB, workerId: 2, tsi: 0x7ffffff0, slot: 2, set: set as 0 | 1, epoch: 0 })),
        ...[0, 1].map((set) => frameFrom(members[1], { messageType: UPDATE, jobId: JOB, workerId: 1, tsi: 5, slot: 3, set: set as 0 | 1, epoch: 77 })),
        rebuilt,
        replay,
      ];
    };
    let injected = 0;
    trigger = () => {
      for (const [, frame] of dropped) rig.wires.relayOf(attacker).inject(frame, 'up');
      for (const frame of spoofed()) rig.wires.relayOf(members[0]).inject(frame, 'up');
      injected++;
    };

    const fleet = await rig.fleet(spec, members);
    const tensors = seededTensors(3, 60 * 64 + 5, 'forged');
    const outcome = await fleet.allreduce(tensors);
    expect(injected, 'the forged packets went in while the job ran').toBe(1);
    expectExact(outcome.results, tensors);

    const c = await readSwitchMlCounters(session);
    // Real workers never cause these: every one is a forged packet's.
    expect({ wrongSource: c.wrongSource, notUpdate: c.notUpdate, unknownJob: c.unknownJob, unknownWorker: c.unknownWorker, slotOutOfRange: c.slotOutOfRange }).toEqual({
      wrongSource: 5,
      notUpdate: 2,
      unknownJob: 1,
      unknownWorker: 1,
      slotOutOfRange: 1,
    });
    // The spoofed stray rounds were taken over, not waited out.
    expect(c.takeovers).toBeGreaterThanOrEqual(1);
    for (const s of outcome.stats) expect(s.timeouts, 'timeouts of one worker').toBeLessThan(40);
    // A second operation on the same slots runs clean: no copy was left wedged.
    const again = seededTensors(3, 60 * 64 + 5, 'forged-2');
    expectExact((await fleet.allreduce(again)).results, again);
  }, 180_000);
});
