import { describe, expect, test } from 'vitest';
import { ReferenceSwitchMl, type SwitchMlVerdict } from './reference/reference-switch.js';
import { ReferenceSwitchFrames } from './reference/reference-switch-frames.js';
import {
  buildUdpFrame,
  decodeSwitchMl,
  encodeSwitchMl,
  EXPONENT_NONE,
  parseUdpFrame,
  switchMlLength,
  SwitchMlMessageType,
  type ShadowSet,
} from '../../../src/wire/index.js';

const E = 4;

interface Update {
  job?: number;
  worker: number;
  slot?: number;
  set?: ShadowSet;
  tsi?: number;
  exponent?: number;
  epoch?: number;
  values?: number[];
  type?: SwitchMlMessageType;
  elements?: number;
}

function update(u: Update): Buffer {
  const elements = u.elements ?? E;
  const buf = Buffer.alloc(switchMlLength(elements));
  encodeSwitchMl(buf, 0, {
    messageType: u.type ?? SwitchMlMessageType.UPDATE,
    jobId: u.job ?? 1,
    workerId: u.worker,
    tsi: u.tsi ?? 0,
    slot: u.slot ?? 0,
    set: u.set ?? 0,
    elementCount: elements,
    exponent: u.exponent ?? 0,
    epoch: u.epoch ?? 0,
    values: u.values ?? [u.worker + 1, 10 * (u.worker + 1), -1, 0],
  });
  return buf;
}

function model(workerIds = [0, 1, 2], poolSize = 4, slotBase = 2): ReferenceSwitchMl {
  const sw = new ReferenceSwitchMl({ capacity: 16, elementsPerPacket: E });
  sw.addJob({ jobId: 1, slotBase, poolSize, workerIds });
  return sw;
}

function packetOf(verdict: SwitchMlVerdict): ReturnType<typeof decodeSwitchMl> & { ok: true } {
  if (verdict.action !== 'multicast' && verdict.action !== 'unicast') throw new Error(`expected a packet, got ${JSON.stringify(verdict)}`);
  const p = decodeSwitchMl(verdict.packet);
  if (!p.ok) throw new Error(p.message);
  return p;
}

describe('reference SwitchML switch: aggregation', () => {
  test('the first packet writes, the next add, the last makes a RESULT multicast to every worker', () => {
    const sw = model();
    expect(sw.process(update({ worker: 0, values: [1, 2, 3, 4], exponent: -3, tsi: 9, epoch: 5 }))).toEqual({ action: 'aggregated', jobId: 1, workerId: 0 });
    expect(sw.readSlot(1, 0, 0)).toEqual({ bitmap: 0b001, remaining: 2, roundTsi: 9, roundEpoch: 5, exponent: -3, values: Int32Array.of(1, 2, 3, 4) });
    expect(sw.process(update({ worker: 2, values: [10, 20, 30, 40], exponent: 7, tsi: 9, epoch: 5 })).action).toBe('aggregated');
    expect(sw.readSlot(1, 0, 0)).toMatchObject({ bitmap: 0b101, remaining: 1, exponent: 7 });
    const last = sw.process(update({ worker: 1, values: [100, -200, 300, 0x7fffffff], exponent: 2, tsi: 9, epoch: 5 }));
    expect(last).toMatchObject({ action: 'multicast', jobId: 1, workerIds: [0, 1, 2] });
    const r = packetOf(last);
    expect(r).toMatchObject({ messageType: SwitchMlMessageType.RESULT, jobId: 1, workerId: 1, tsi: 9, slot: 0, set: 0, elementCount: E, exponent: 7, epoch: 5 });
    // int32 addition wraps as bit<32> does: 44 + 0x7fffffff.
    expect([...r.values.toInt32Array()]).toEqual([111, -178, 333, (44 + 0x7fffffff) | 0]);
    expect(sw.readSlot(1, 0, 0)).toMatchObject({ bitmap: 0b111, remaining: 0 });
    expect(sw.counters).toMatchObject({ aggregated: 2, results: 1 });
  });

  test('one worker: its packet is first and last at once', () => {
    const sw = model([3]);
    const v = sw.process(update({ worker: 3, values: [5, 6, 7, 8], exponent: EXPONENT_NONE }));
    expect(v).toMatchObject({ action: 'multicast', workerIds: [3] });
    expect(packetOf(v)).toMatchObject({ exponent: EXPONENT_NONE, messageType: SwitchMlMessageType.RESULT });
    expect([...packetOf(v).values.toInt32Array()]).toEqual([5, 6, 7, 8]);
  });

  test('a new round in a complete copy overwrites the old sums instead of adding to them', () => {
    const sw = model([0, 1]);
    for (const [tsi, set] of ([0, 1, 0] as ShadowSet[]).entries()) {
      sw.process(update({ worker: 0, set, tsi, values: [set + 1, 0, 0, 0] }));
      const v = sw.process(update({ worker: 1, set, tsi, values: [set + 1, 0, 0, 0] }));
      expect(packetOf(v).values.get(0)).toBe(2 * (set + 1));
    }
    expect(sw.counters.results).toBe(3);
  });

  test('a new round sets seen to its own bit and leaves the other copy of the slot alone', () => {
    const sw = model([0, 1]);
    sw.process(update({ worker: 0, set: 0, tsi: 0 }));
    sw.process(update({ worker: 1, set: 0, tsi: 0 }));
    expect(sw.readSlot(1, 0, 0).bitmap).toBe(0b11);
    sw.process(update({ worker: 1, set: 1, tsi: 4 }));
    expect(sw.readSlot(1, 0, 0)).toMatchObject({ bitmap: 0b11, remaining: 0, roundTsi: 0 });
    expect(sw.readSlot(1, 0, 1)).toMatchObject({ bitmap: 0b10, remaining: 1, roundTsi: 4 });
    sw.process(update({ worker: 0, set: 1, tsi: 4 }));
    sw.process(update({ worker: 0, set: 0, tsi: 8 }));
    expect(sw.readSlot(1, 0, 0)).toMatchObject({ bitmap: 0b01, remaining: 1, roundTsi: 8 });
  });
});

describe('reference SwitchML switch: retransmissions', () => {
  test('a retransmission to a complete copy gets the stored result back by unicast, with its own tsi and epoch', () => {
    const sw = model([0, 1]);
    sw.process(update({ worker: 0, values: [1, 1, 1, 1], exponent: 4, tsi: 12, epoch: 3 }));
    sw.process(update({ worker: 1, values: [2, 2, 2, 2], exponent: -1, tsi: 12, epoch: 3 }));
    const again = sw.process(update({ worker: 0, values: [99, 99, 99, 99], exponent: 100, tsi: 12, epoch: 3 }));
    expect(again).toMatchObject({ action: 'unicast', jobId: 1, workerId: 0 });
    const r = packetOf(again);
    expect(r).toMatchObject({ messageType: SwitchMlMessageType.RETRANSMITTED_RESULT, tsi: 12, epoch: 3, exponent: 4, workerId: 0 });
    expect([...r.values.toInt32Array()]).toEqual([3, 3, 3, 3]);
    expect(sw.readSlot(1, 0, 0)).toMatchObject({ remaining: 0, exponent: 4, values: Int32Array.of(3, 3, 3, 3) });
    expect(sw.counters.retransmittedResults).toBe(1);
  });

  test('a retransmission to an incomplete copy is dropped and changes nothing', () => {
    const sw = model();
    sw.process(update({ worker: 0, values: [1, 1, 1, 1] }));
    const before = sw.readSlot(1, 0, 0);
    expect(sw.process(update({ worker: 0, values: [50, 50, 50, 50] }))).toEqual({ action: 'drop', reason: 'incompleteRetransmission' });
    expect(sw.readSlot(1, 0, 0)).toEqual(before);
  });

  test('a late update of an earlier round is stale, in a complete copy and in a filling one', () => {
    const sw = model([0, 1]);
    sw.process(update({ worker: 0, set: 0, tsi: 0, values: [1, 0, 0, 0] }));
    sw.process(update({ worker: 1, set: 0, tsi: 0, values: [1, 0, 0, 0] }));
    sw.process(update({ worker: 0, set: 1, tsi: 4 }));
    sw.process(update({ worker: 1, set: 1, tsi: 4 }));
    sw.process(update({ worker: 0, set: 0, tsi: 8, values: [5, 0, 0, 0] }));
    // Set 0 is filling round 8: a delayed copy of round 0 must not be added into it.
    expect(sw.process(update({ worker: 1, set: 0, tsi: 0, values: [7, 0, 0, 0] }))).toEqual({ action: 'drop', reason: 'stale' });
    sw.process(update({ worker: 1, set: 0, tsi: 8, values: [5, 0, 0, 0] }));
    expect(sw.readSlot(1, 0, 0)).toMatchObject({ bitmap: 0b11, remaining: 0, roundTsi: 8, values: Int32Array.of(10, 0, 0, 0) });
    // Complete now: round 0 again is older (same epoch, smaller tsi), and so is an epoch behind.
    expect(sw.process(update({ worker: 0, set: 0, tsi: 0 }))).toEqual({ action: 'drop', reason: 'stale' });
    expect(sw.process(update({ worker: 0, set: 0, tsi: 9, epoch: 255 }))).toEqual({ action: 'drop', reason: 'stale' });
    // The next operation (epoch + 1) starts a round, whatever its tsi.
    expect(sw.process(update({ worker: 0, set: 0, tsi: 0, epoch: 1 })).action).toBe('aggregated');
    expect(sw.counters.stale).toBe(3);
  });

  test('a copy never used starts a round with any tsi and epoch', () => {
    const sw = model([0, 1]);
    expect(sw.process(update({ worker: 1, set: 1, tsi: 1234, epoch: 200 })).action).toBe('aggregated');
    expect(sw.readSlot(1, 0, 1)).toMatchObject({ bitmap: 0b10, remaining: 1, roundTsi: 1234, roundEpoch: 200 });
  });
});

describe('reference SwitchML switch: tables and drops', () => {
  const cases: [string, Buffer, string][] = [
    ['shorter than the header', update({ worker: 0 }).subarray(0, 13), 'malformed'],
    ['trailing bytes', Buffer.concat([update({ worker: 0 }), Buffer.alloc(2)]), 'badLength'],
    ['values cut short', update({ worker: 0 }).subarray(0, 20), 'malformed'],
    ['version 2', Buffer.from([0x21, ...update({ worker: 0 }).subarray(1)]), 'badVersion'],
    ['message type 0', Buffer.from([0x10, ...update({ worker: 0 }).subarray(1)]), 'notUpdate'],
    ['a RESULT', update({ worker: 0, type: SwitchMlMessageType.RESULT }), 'notUpdate'],
    ['a RETRANSMITTED_RESULT', update({ worker: 0, type: SwitchMlMessageType.RETRANSMITTED_RESULT }), 'notUpdate'],
    ['8 values instead of 4', update({ worker: 0, elements: 8, values: [] }), 'badElementCount'],
    ['an unknown job', update({ worker: 0, job: 2 }), 'unknownJob'],
    ['slot = pool size', update({ worker: 0, slot: 4 }), 'slotOutOfRange'],
    ['an unknown worker', update({ worker: 5 }), 'unknownWorker'],
    ['worker id 40', Buffer.from([0x11, 40, ...update({ worker: 0 }).subarray(2)]), 'unknownWorker'],
  ];
  test.each(cases)('%s → drop %s, counted, no state touched', (_name, packet, reason) => {
    const sw = model();
    expect(sw.process(packet)).toEqual({ action: 'drop', reason });
    expect(sw.counters[reason as keyof typeof sw.counters]).toBe(1);
    expect(sw.registers.bitmap.every((b) => b === 0)).toBe(true);
    expect(sw.registers.values.every((v) => v === 0)).toBe(true);
  });

  test('a worker entry with a source: updates from another IPv4 source are dropped', () => {
    const sw = new ReferenceSwitchMl({ capacity: 16, elementsPerPacket: E });
    sw.addJob({ jobId: 1, slotBase: 0, poolSize: 2, workerIds: [0, 1], sources: [0x0a000001, 0x0a000002], sourcePorts: [40000, 40001] });
    expect(sw.process(update({ worker: 0 }), 0, undefined, { sourceIp: 0x0a000002, sourcePort: 40000 })).toEqual({ action: 'drop', reason: 'wrongSource' });
    expect(sw.process(update({ worker: 0 }), 0, undefined, { sourceIp: 0x0a000001, sourcePort: 40001 })).toEqual({ action: 'drop', reason: 'wrongSource' });
    expect(sw.process(update({ worker: 0 }))).toEqual({ action: 'drop', reason: 'wrongSource' });
    expect(sw.process(update({ worker: 0 }), 0, undefined, { sourceIp: 0x0a000001, sourcePort: 40000 }).action).toBe('aggregated');
    expect(() => sw.addJob({ jobId: 2, slotBase: 4, poolSize: 1, workerIds: [0], sources: [0x0a000001] })).toThrow(/UDP source port/);
  });

  test('takeovers: a newer round or a RECOVERY_UPDATE restarts a copy filling another round; exact sums after', () => {
    const RECOVERY = SwitchMlMessageType.RECOVERY_UPDATE;
    // A stray round older than the job's: the first real update takes the copy over.
    let sw = model([0, 1]);
    expect(sw.process(update({ worker: 1, tsi: 0, epoch: 200 })).action).toBe('aggregated');
    expect(sw.process(update({ worker: 0, tsi: 0, epoch: 0 })).action).toBe('aggregated');
    expect(sw.counters.takeovers).toBe(1);
    expect(packetOf(sw.process(update({ worker: 1, tsi: 0, epoch: 0 }))).values.toInt32Array()[0]).toBe(3);
    // A stray round newer than the job's: stale for UPDATEs, taken over by a RECOVERY_UPDATE.
    sw = model([0, 1]);
    expect(sw.process(update({ worker: 0, tsi: 0x7fff0000 })).action).toBe('aggregated');
    expect(sw.process(update({ worker: 1, tsi: 0 }))).toEqual({ action: 'drop', reason: 'stale' });
    expect(sw.process(update({ worker: 1, tsi: 0, type: RECOVERY })).action).toBe('aggregated');
    expect(sw.counters.takeovers).toBe(1);
    // A RECOVERY_UPDATE of the copy's own round is an ordinary update: a duplicate is still a duplicate.
    expect(sw.process(update({ worker: 1, tsi: 0, type: RECOVERY }))).toEqual({ action: 'drop', reason: 'incompleteRetransmission' });
    const result = sw.process(update({ worker: 0, tsi: 0, type: RECOVERY }));
    expect(result.action).toBe('multicast');
    expect([...packetOf(result).values.toInt32Array()]).toEqual([3, 30, -2, 0]);
    expect(packetOf(result).messageType).toBe(SwitchMlMessageType.RESULT);
    // A newer round after a complete one is an ordinary new round, not a takeover.
    expect(sw.process(update({ worker: 0, tsi: 0x7fff0000, type: RECOVERY })).action).toBe('aggregated');
    expect(sw.counters.takeovers).toBe(1);
    // A complete copy is not taken over by an older RECOVERY_UPDATE when the job has two workers...
    sw = model([0, 1]);
    sw.process(update({ worker: 0, tsi: 8 }));
    sw.process(update({ worker: 1, tsi: 8 }));
    expect(sw.process(update({ worker: 0, tsi: 4, type: RECOVERY }))).toEqual({ action: 'drop', reason: 'stale' });
    // ...but is for a job of one worker, where nobody else can need its result.
    sw = model([0]);
    expect(sw.process(update({ worker: 0, tsi: 0x7fff0000 })).action).toBe('multicast');
    expect(sw.process(update({ worker: 0, tsi: 0 }))).toEqual({ action: 'drop', reason: 'stale' });
    expect(sw.process(update({ worker: 0, tsi: 0, type: RECOVERY })).action).toBe('multicast');
    expect(sw.counters.takeovers).toBe(1);
  });

  test('a packet inside a larger buffer is read from its offset and length', () => {
    const sw = model([0]);
    const packet = update({ worker: 0, values: [4, 3, 2, 1] });
    const framed = Buffer.concat([Buffer.alloc(42, 0xee), packet, Buffer.alloc(3, 0xee)]);
    const v = sw.process(framed, 42, packet.length);
    expect([...packetOf(v).values.toInt32Array()]).toEqual([4, 3, 2, 1]);
  });

  test('two jobs use their own register ranges: slot 0 of each is a different register', () => {
    const sw = new ReferenceSwitchMl({ capacity: 16, elementsPerPacket: E });
    sw.addJob({ jobId: 1, slotBase: 0, poolSize: 4, workerIds: [0, 1] });
    sw.addJob({ jobId: 2, slotBase: 4, poolSize: 4, workerIds: [0, 1] });
    sw.process(update({ job: 1, worker: 0, values: [1, 1, 1, 1] }));
    sw.process(update({ job: 2, worker: 0, values: [5, 5, 5, 5] }));
    expect(packetOf(sw.process(update({ job: 1, worker: 1, values: [1, 1, 1, 1] }))).values.get(0)).toBe(2);
    expect(packetOf(sw.process(update({ job: 2, worker: 1, values: [5, 5, 5, 5] }))).values.get(0)).toBe(10);
    expect(sw.registers.read(0).values[0]).toBe(2);
    expect(sw.registers.read(8).values[0]).toBe(10);
  });

  test('job configuration is checked: overlap, range past the registers, duplicate workers, too many workers', () => {
    const sw = new ReferenceSwitchMl({ capacity: 16, elementsPerPacket: E });
    sw.addJob({ jobId: 1, slotBase: 4, poolSize: 4, workerIds: [0] });
    expect(() => sw.addJob({ jobId: 2, slotBase: 7, poolSize: 2, workerIds: [0] })).toThrow(/overlap job 1/);
    expect(() => sw.addJob({ jobId: 2, slotBase: 14, poolSize: 4, workerIds: [0] })).toThrow(RangeError);
    expect(() => sw.addJob({ jobId: 2, slotBase: 0, poolSize: 4, workerIds: [1, 1] })).toThrow(/twice/);
    expect(() => sw.addJob({ jobId: 2, slotBase: 0, poolSize: 4, workerIds: Array.from({ length: 33 }, (_, i) => i) })).toThrow(RangeError);
    expect(() => sw.addJob({ jobId: 1, slotBase: 8, poolSize: 4, workerIds: [0] })).toThrow(/already installed/);
    sw.addJob({ jobId: 2, slotBase: 0, poolSize: 4, workerIds: [31] });
    expect(sw.process(update({ job: 2, worker: 31 })).action).toBe('multicast');
  });

  test('resetJob zeroes the job’s range only; removeJob makes its packets unknown', () => {
    const sw = new ReferenceSwitchMl({ capacity: 16, elementsPerPacket: E });
    sw.addJob({ jobId: 1, slotBase: 0, poolSize: 2, workerIds: [0, 1] });
    sw.addJob({ jobId: 2, slotBase: 2, poolSize: 2, workerIds: [0, 1] });
    sw.process(update({ job: 1, worker: 0, slot: 1, set: 1 }));
    sw.process(update({ job: 2, worker: 0 }));
    sw.resetJob(1);
    expect(sw.readSlot(1, 1, 1)).toEqual({ bitmap: 0, remaining: 0, roundTsi: 0, roundEpoch: 0, exponent: 0, values: new Int32Array(E) });
    expect(sw.readSlot(2, 0, 0).bitmap).toBe(1);
    expect(sw.removeJob(2)).toBe(true);
    expect(sw.process(update({ job: 2, worker: 1 }))).toEqual({ action: 'drop', reason: 'unknownJob' });
  });
});

describe('reference SwitchML switch: frames', () => {
  const SWITCH = { mac: 0x0200000000fe, ip: 0x0a0000fe };
  const worker = (id: number) => ({ jobId: 1, workerId: id, port: id + 1, mac: 0x020000000001 + id, ip: 0x0a000001 + id, udpPort: 40000 + id });
  function frameFrom(id: number, payload: Buffer, dstIp = SWITCH.ip, dstPort = 0xbee3): Buffer {
    const w = worker(id);
    const buf = Buffer.alloc(42 + payload.length);
    buildUdpFrame(buf, 0, { srcMac: w.mac, dstMac: SWITCH.mac, srcIp: w.ip, dstIp, srcPort: w.udpPort + 7, dstPort }, payload);
    return buf;
  }
  function harness(): ReferenceSwitchFrames {
    return new ReferenceSwitchFrames(model([0, 1], 4, 0), SWITCH, [worker(0), worker(1)]);
  }

  test('a RESULT leaves once per worker, addressed by its entry, from the switch, TTL 64, UDP checksum 0', () => {
    const sw = harness();
    expect(sw.process(frameFrom(0, update({ worker: 0 })), 1)).toMatchObject({ verdict: { action: 'aggregated' }, out: [] });
    const done = sw.process(frameFrom(1, update({ worker: 1 })), 2)!;
    expect(done.out.map((o) => o.port)).toEqual([1, 2]);
    for (const [i, { frame }] of done.out.entries()) {
      const f = parseUdpFrame(frame);
      if (!f.ok) throw new Error(f.message);
      expect(f.ethernet).toMatchObject({ dstMac: worker(i).mac, srcMac: SWITCH.mac });
      expect(f.ipv4).toMatchObject({ srcIp: SWITCH.ip, dstIp: worker(i).ip, ttl: 64 });
      expect(f.udp).toMatchObject({ srcPort: 0xbee3, dstPort: worker(i).udpPort, checksum: 0 });
      const p = decodeSwitchMl(frame, f.payloadOffset);
      expect(p).toMatchObject({ ok: true, messageType: SwitchMlMessageType.RESULT, workerId: 1 });
    }
  });

  test('a RETRANSMITTED_RESULT goes back out of the ingress port to the sender’s addresses and source port', () => {
    const sw = harness();
    sw.process(frameFrom(0, update({ worker: 0 })), 1);
    sw.process(frameFrom(1, update({ worker: 1 })), 2);
    const again = sw.process(frameFrom(1, update({ worker: 1 })), 2)!;
    expect(again.out).toHaveLength(1);
    const f = parseUdpFrame(again.out[0]!.frame);
    if (!f.ok) throw new Error(f.message);
    expect(again.out[0]!.port).toBe(2);
    expect(f.ethernet).toMatchObject({ dstMac: worker(1).mac, srcMac: SWITCH.mac });
    expect(f.ipv4).toMatchObject({ srcIp: SWITCH.ip, dstIp: worker(1).ip });
    expect(f.udp).toMatchObject({ srcPort: 0xbee3, dstPort: worker(1).udpPort + 7, checksum: 0 });
  });

  test('frames the program would forward are outside the model', () => {
    const sw = harness();
    expect(sw.process(frameFrom(0, update({ worker: 0 }), 0x0a000002), 1)).toBeUndefined();
    expect(sw.process(frameFrom(0, update({ worker: 0 }), SWITCH.ip, 53), 1)).toBeUndefined();
    const badChecksum = frameFrom(0, update({ worker: 0 }));
    badChecksum[24] ^= 0xff;
    expect(sw.process(badChecksum, 1)).toBeUndefined();
    expect(sw.model.counters.aggregated).toBe(0);
  });
});
