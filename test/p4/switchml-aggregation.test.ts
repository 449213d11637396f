// switchml.p4 packet by packet on the IR oracle, against the table
// "What an update does" of docs/p4-programs.md: rounds, results and their
// addresses, retransmissions, duplicates, stale packets, drop reasons,
// several jobs side by side.
import { describe, expect, it } from 'vitest';
import { ipv4FromText } from '../../src/wire/index.js';
import { SWITCHML_P4 } from './helpers.js';
import { decodeResult, installJob, startSwitch, SWITCH_IP, SWITCH_MAC, updateFrame, worker, type UpdateSpec } from './support/fixture.js';
import type { IrOracle } from './support/ir-oracle.js';

const N = 8;
const DROPS = 'ingress.switchml.switchml_drops';
const OUTCOMES = 'ingress.switchml.switchml_outcomes';
const Drop = { BAD_VERSION: 1, BAD_MESSAGE_TYPE: 2, BAD_ELEMENT_COUNT: 3, TRUNCATED: 4, BAD_LENGTH: 5, UNKNOWN_JOB: 6, SLOT_OUT_OF_RANGE: 7, UNKNOWN_WORKER: 9, WRONG_SOURCE: 10, DUPLICATE: 11, STALE: 12 };
const Outcome = { AGGREGATED: 1, RESULT: 2, RETRANSMITTED: 3 };

function threeWorkerSwitch(): IrOracle {
  const sw = startSwitch(SWITCHML_P4, [`SWITCHML_ELEMENTS=${N}`]);
  installJob(sw, { jobId: 7, slotBase: 10, poolSize: 4, workers: [0, 1, 2], group: 5 });
  return sw;
}
const send = (sw: IrOracle, spec: UpdateSpec) => sw.process(updateFrame(spec, N), worker(spec.worker).switchPort);
const same = (v: number): number[] => new Array<number>(N).fill(v);

describe('one round of three workers', () => {
  const sw = threeWorkerSwitch();
  const first = send(sw, { worker: 0, tsi: 1, slot: 1, exponent: -3, values: [-5, 2147483647, 0, 0, 0, 0, 0, 1] });
  const second = send(sw, { worker: 1, tsi: 1, slot: 1, exponent: 4, values: [1, 1, 0, 0, 0, 0, 0, 2] });
  const duplicate = send(sw, { worker: 1, tsi: 1, slot: 1, exponent: 4 });
  const last = send(sw, { worker: 2, tsi: 1, slot: 1, exponent: 1, values: [1, 0, 0, 0, 0, 0, 0, 3] });
  const sums = [-3, -2147483648, 0, 0, 0, 0, 0, 6]; // int32 addition wraps

  it('consumes all but the last contribution, and drops a duplicate while the round fills', () => {
    expect([first, second, duplicate]).toEqual([[], [], []]);
    expect(last.map((p) => p.port)).toEqual([1, 2, 3]);
    expect(sw.counter(DROPS)[Drop.DUPLICATE]).toBe(1);
  });

  it.each([0, 1, 2])('multicasts a RESULT addressed to worker %i, from the switch', (w) => {
    const { frame, switchMl, values } = decodeResult(last[w]!);
    expect([frame.ethernet.dstMac, frame.ipv4.dstIp, frame.udp.dstPort]).toEqual([worker(w).mac, worker(w).ip, worker(w).udpPort]);
    expect([frame.ethernet.srcMac, frame.ipv4.srcIp, frame.udp.srcPort]).toEqual([SWITCH_MAC, SWITCH_IP, 0xbee3]);
    expect([frame.ipv4.ttl, frame.udp.checksum]).toEqual([64, 0]);
    expect(switchMl).toMatchObject({ messageType: 2, exponent: 4, tsi: 1, slot: 1, set: 0, jobId: 7, epoch: 0, elementCount: N });
    expect(values).toEqual(sums);
  });

  it('answers a retransmission for the complete round with the stored result, by unicast', () => {
    const out = send(sw, { worker: 0, tsi: 1, slot: 1, exponent: -3, values: same(99) });
    expect(out.map((p) => p.port)).toEqual([1]);
    const { frame, switchMl, values } = decodeResult(out[0]!);
    expect([frame.ethernet.dstMac, frame.ipv4.dstIp, frame.udp.dstPort]).toEqual([worker(0).mac, worker(0).ip, worker(0).udpPort]);
    expect([frame.ethernet.srcMac, frame.ipv4.srcIp, frame.udp.srcPort, frame.udp.checksum]).toEqual([SWITCH_MAC, SWITCH_IP, 0xbee3, 0]);
    expect(switchMl).toMatchObject({ messageType: 3, exponent: 4, workerId: 0 });
    expect(values).toEqual(sums);
    const outcomes = sw.counter(OUTCOMES);
    expect([outcomes[Outcome.AGGREGATED], outcomes[Outcome.RESULT], outcomes[Outcome.RETRANSMITTED]]).toEqual([2, 1, 1]);
  });

  it('keeps the state in the cell 2 × (slot_base + slot) + set', () => {
    const cell = 2 * (10 + 1) + 0;
    expect(sw.register('ingress.switchml.seen')[cell]).toBe(0b111n);
    expect(sw.register('ingress.switchml.remaining')[cell]).toBe(0n);
    expect(sw.register('ingress.switchml.exponent_max')[cell]).toBe(4n);
    expect(sw.register('ingress.switchml.values').slice(cell * N, cell * N + 2)).toEqual([0xfffffffdn, 0x80000000n]);
  });
});

describe('rounds after the first', () => {
  it('writes instead of adding at the start of each round, whatever the copy held', () => {
    const sw = threeWorkerSwitch();
    for (const [tsi, epoch, v] of [[1, 0, 5], [9, 0, 1], [1, 1, 2]] as const) {
      send(sw, { worker: 0, tsi, epoch, slot: 1, values: same(v) });
      send(sw, { worker: 1, tsi, epoch, slot: 1, values: same(v) });
      const [result] = send(sw, { worker: 2, tsi, epoch, slot: 1, values: same(v) });
      expect(decodeResult(result!).values).toEqual(same(3 * v));
      expect(decodeResult(result!).switchMl.epoch).toBe(epoch);
    }
  });

  it('keeps the larger int8 exponent, negative ones included', () => {
    const sw = threeWorkerSwitch();
    send(sw, { worker: 0, tsi: 0, exponent: -128 });
    send(sw, { worker: 1, tsi: 0, exponent: -7 });
    const [result] = send(sw, { worker: 2, tsi: 0, exponent: -100 });
    expect(decodeResult(result!).switchMl.exponent).toBe(-7);
  });

  it('drops late packets of earlier rounds instead of opening a round with them', () => {
    const sw = threeWorkerSwitch();
    const round = (tsi: number, epoch: number): void => { for (const w of [0, 1, 2]) send(sw, { worker: w, tsi, epoch }); };
    round(0, 0);
    round(8, 0);
    expect(send(sw, { worker: 2, tsi: 0, epoch: 0 })).toEqual([]); // same epoch, older tsi, copy complete
    send(sw, { worker: 0, tsi: 16, epoch: 0 });
    expect(send(sw, { worker: 1, tsi: 8, epoch: 0 })).toEqual([]); // copy filling another round
    send(sw, { worker: 1, tsi: 16, epoch: 0 });
    send(sw, { worker: 2, tsi: 16, epoch: 0 });
    round(0, 1);
    expect(send(sw, { worker: 0, tsi: 24, epoch: 0 })).toEqual([]); // previous epoch, larger tsi
    expect(sw.counter(DROPS)[Drop.STALE]).toBe(3);
    expect(sw.register('ingress.switchml.round_epoch')[20]).toBe(1n);
    expect(send(sw, { worker: 0, tsi: 0, epoch: 1 }).length).toBe(1); // still answers retransmissions
  });

  it('completes at once for a single worker, in both sets', () => {
    const sw = startSwitch(SWITCHML_P4, [`SWITCHML_ELEMENTS=${N}`]);
    installJob(sw, { jobId: 7, slotBase: 0, poolSize: 1, workers: [3], group: 9 });
    for (const [tsi, set] of [[0, 0], [1, 1], [2, 0]] as const) {
      const out = send(sw, { worker: 3, tsi, set, values: same(tsi) });
      expect(out.map((p) => p.port)).toEqual([4]);
      expect(decodeResult(out[0]!).values).toEqual(same(tsi));
    }
  });
});

describe('drops, by reason', () => {
  const sw = threeWorkerSwitch();
  installJob(sw, { jobId: 8, slotBase: 0, poolSize: 2, workers: [1, 2], group: 6, checkSource: true });

  it.each([
    ['bad version', Drop.BAD_VERSION, (f: Buffer) => { f[42] = 0x21; }],
    ['a RESULT sent to the switch', Drop.BAD_MESSAGE_TYPE, (f: Buffer) => { f[42] = 0x12; }],
    ['trailing bytes', Drop.BAD_LENGTH, null],
  ] as const)('%s', (_name, reason, corrupt) => {
    let frame = updateFrame({ worker: 0, tsi: 0 }, N);
    if (corrupt) corrupt(frame);
    else frame = lengthen(frame, 4);
    expect(sw.process(frame, 1)).toEqual([]);
    expect(sw.counter(DROPS)[reason]).toBe(1);
  });

  it.each([
    ['another element count', Drop.BAD_ELEMENT_COUNT, { worker: 0, tsi: 0, elements: N / 2 }],
    ['an unknown job', Drop.UNKNOWN_JOB, { worker: 0, tsi: 0, jobId: 99 }],
    ['a slot past the pool', Drop.SLOT_OUT_OF_RANGE, { worker: 0, tsi: 0, slot: 4 }],
    ['an unknown worker', Drop.UNKNOWN_WORKER, { worker: 5, tsi: 0 }],
    ['a worker of another job', Drop.UNKNOWN_WORKER, { worker: 0, tsi: 0, jobId: 8 }],
    ['a checked worker from another address', Drop.WRONG_SOURCE, { worker: 1, tsi: 0, jobId: 8, srcIp: ipv4FromText('10.9.9.9') }],
  ] as const)('%s', (_name, reason, spec) => {
    const before = sw.counter(DROPS)[reason]!;
    expect(send(sw, spec)).toEqual([]);
    expect(sw.counter(DROPS)[reason]).toBe(before + 1);
  });

  it('a truncated packet', () => {
    const frame = updateFrame({ worker: 0, tsi: 0 }, N);
    expect(sw.process(shorten(frame, 4), 1)).toEqual([]);
    expect(sw.counter(DROPS)[Drop.TRUNCATED]).toBe(1);
  });

  it('touched no slot state on the way', () => {
    const seen = sw.register('ingress.switchml.seen');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((c) => c === 0n)).toBe(true);
  });
});

describe('two jobs on one switch', () => {
  it('aggregate in their own slots and reach their own workers', () => {
    const sw = startSwitch(SWITCHML_P4, [`SWITCHML_ELEMENTS=${N}`]);
    installJob(sw, { jobId: 1, slotBase: 0, poolSize: 2, workers: [0, 1], group: 1 });
    installJob(sw, { jobId: 2, slotBase: 2, poolSize: 2, workers: [2, 3, 4], group: 2 });
    for (const w of [0, 2, 3]) send(sw, { worker: w, jobId: w === 0 ? 1 : 2, tsi: 0, values: same(w + 1) });
    const one = send(sw, { worker: 1, jobId: 1, tsi: 0, values: same(10) });
    const two = send(sw, { worker: 4, jobId: 2, tsi: 0, values: same(20) });
    expect(one.map((p) => p.port)).toEqual([1, 2]);
    expect(two.map((p) => p.port)).toEqual([3, 4, 5]);
    expect(decodeResult(one[0]!).values).toEqual(same(1 + 10));
    expect(decodeResult(two[2]!).values).toEqual(same(3 + 4 + 20));
    expect(decodeResult(two[2]!).frame.ipv4.dstIp).toBe(worker(4).ip);
  });
});

it('aggregates the default 64 values', () => {
  const sw = startSwitch(SWITCHML_P4);
  installJob(sw, { jobId: 7, slotBase: 0, poolSize: 2, workers: [0, 1], group: 5 });
  const values = (w: number): number[] => Array.from({ length: 64 }, (_, i) => (w + 1) * (i - 32));
  sw.process(updateFrame({ worker: 0, tsi: 3, slot: 1, set: 1, values: values(0) }, 64), 1);
  const out = sw.process(updateFrame({ worker: 1, tsi: 3, slot: 1, set: 1, values: values(1) }, 64), 2);
  expect(decodeResult(out[1]!).values).toEqual(Array.from({ length: 64 }, (_, i) => 3 * (i - 32)));
});

/** The frame with `extra` zero bytes more UDP payload, lengths and checksums kept right. */
function lengthen(frame: Buffer, extra: number): Buffer {
  const longer = Buffer.concat([frame, Buffer.alloc(extra)]);
  longer.writeUInt16BE(longer.readUInt16BE(16) + extra, 16);
  longer.writeUInt16BE(longer.readUInt16BE(38) + extra, 38);
  longer.writeUInt16BE(0, 40);
  fixIpv4Checksum(longer);
  return longer;
}

/** The frame cut `missing` bytes short, lengths and checksums kept right. */
function shorten(frame: Buffer, missing: number): Buffer {
  const shorter = Buffer.from(frame.subarray(0, frame.length - missing));
  shorter.writeUInt16BE(shorter.readUInt16BE(16) - missing, 16);
  shorter.writeUInt16BE(shorter.readUInt16BE(38) - missing, 38);
  shorter.writeUInt16BE(0, 40);
  fixIpv4Checksum(shorter);
  return shorter;
}

function fixIpv4Checksum(frame: Buffer): void {
  frame.writeUInt16BE(0, 24);
  let sum = 0;
  for (let i = 14; i < 34; i += 2) sum += frame.readUInt16BE(i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  frame.writeUInt16BE(~sum & 0xffff, 24);
}
