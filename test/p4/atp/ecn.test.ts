// ECN in atp.p4 (docs/atp.md, "ECN"): a contribution's mark (the ATP ecn bit,
// or CE in its IPv4 header) is ORed into the aggregate; egress marks packets
// whose queue was at or over the controller's threshold — the ATP bit, and
// CE on ECN-capable IPv4: over a real egress queue (a port rate, on a virtual
// clock), and over unlimited ports, where enq_qdepth is 0 (threshold 0 marks
// everything, threshold 1 nothing).
import { afterEach, describe, expect, it } from 'vitest';
import { buildUdpFrame, parseUdpFrame } from '../../../src/wire/index.js';
import { VirtualClock } from '../../switch/queues/virtual-clock.js';
import { AtpRig } from './support/atp-rig.js';
import { PS, atpFrame, bits, contribution, decodeAtpFrame, worker, type AtpFrameSpec } from './support/atp-network.js';

const N = 8;
const DEFINES = [`ATP_VALUES=${N}`, 'ATP_AGGREGATORS=64'];
const ECT0 = 2;
const ECT1 = 1;
const CE = 3;

let rig: AtpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function start(threshold: number | undefined): Promise<AtpRig> {
  rig = await AtpRig.start(DEFINES);
  if (threshold !== undefined) await rig.settings(threshold, 0);
  await rig.addLevel0Job({ jobId: 1, group: 1, workers: [worker(0), worker(1), worker(2)] });
  return rig;
}

const part = (w: number, seq: number, extra: Partial<AtpFrameSpec> = {}): AtpFrameSpec => ({
  from: worker(w), to: PS, jobId: 1, sequenceNumber: seq, aggregatorIndex: seq, bitmap0: bits(w), bitmap1: 1, fanInDegree0: 3, fanInDegree1: 1,
  values: contribution(w, seq, N), ...extra,
});

/** Three contributions to `seq` with the given marks; the aggregate that leaves. */
function aggregate(r: AtpRig, seq: number, marks: readonly Partial<AtpFrameSpec>[]): ReturnType<typeof decodeAtpFrame> {
  let out: ReturnType<AtpRig['send']> = [];
  marks.forEach((m, w) => { out = r.send(worker(w).switchPort, atpFrame(part(w, seq, m))); });
  expect(out.map((f) => f.port)).toEqual([PS.switchPort]);
  return decodeAtpFrame(out[0]!.frame);
}

describe('the mark of a contribution is ORed into the aggregate', () => {
  it.each([
    ['none', [{}, {}, {}], false],
    ['the first, by its ATP bit', [{ ecn: true }, {}, {}], true],
    ['a middle one, by IPv4 CE', [{}, { ipEcn: CE }, {}], true],
    ['the last', [{}, {}, { ecn: true }], true],
    ['ECT without CE is no mark', [{ ipEcn: ECT0 }, { ipEcn: ECT1 }, {}], false],
  ] as const)('%s', async (_name, marks, marked) => {
    const r = await start(1000);
    const { atp, frame } = aggregate(r, 2, marks);
    expect(atp.ecn).toBe(marked);
    expect(frame.ipv4.ecn).toBe((marks[2] as Partial<AtpFrameSpec>).ipEcn ?? 0);
    expect(await r.counter('egress.ecn_marks')).toEqual([0, 0]);
  });

  it('and into a flushed partial aggregate', async () => {
    const r = await start(1000);
    r.send(1, atpFrame(part(0, 5, { ipEcn: CE })));
    const [out] = r.send(2, atpFrame(part(1, 5, { resend: true })));
    expect(decodeAtpFrame(out!.frame).atp).toMatchObject({ ecn: true, resend: true, bitmap0: bits(0, 1) });
  });
});

describe('egress marking', () => {
  it('threshold 0 (every queue is at it): the ATP bit with UDP checksum 0, and CE on ECN-capable IPv4 only', async () => {
    const r = await start(0);
    const cases = [[0, 0], [ECT0, CE], [ECT1, CE], [CE, CE]] as const;
    for (const [sent, received] of cases) {
      const spec = { ...part(0, 9, { ipEcn: sent, overflow: true }) };
      const [out] = r.send(1, atpFrame(spec));
      const { atp, frame, values } = decodeAtpFrame(out!.frame);
      expect([atp.ecn, frame.ipv4.ecn, frame.udp.checksum]).toEqual([true, received, 0]);
      expect(values).toEqual(spec.values);
    }
    // Ordinary ECN-capable traffic is marked too; a non-INA UDP checksum stays valid (it does not cover the TOS byte).
    const buf = Buffer.alloc(100);
    const n = buildUdpFrame(buf, 0, { srcMac: worker(1).mac, dstMac: worker(2).mac, srcIp: worker(1).ip, dstIp: worker(2).ip, srcPort: 1, dstPort: 2, ecn: ECT0 }, Buffer.from('plain'));
    const [plain] = r.send(2, Buffer.from(buf.subarray(0, n)));
    const parsed = parseUdpFrame(plain!.frame);
    if (!parsed.ok) throw new Error(parsed.message);
    expect([parsed.ipv4.ecn, parsed.udp.checksum !== 0]).toEqual([CE, true]);
    // Four ATP packets; three ECN-capable packets turned CE (one was CE already).
    expect(await r.counter('egress.ecn_marks')).toEqual([4, 3]);
  });

  it('marks every copy of a multicast ACK', async () => {
    const r = await start(0);
    const out = r.send(PS.switchPort, atpFrame({ from: PS, to: worker(0), isAck: true, jobId: 1, sequenceNumber: 1, values: contribution(0, 1, N), ipEcn: ECT0 }));
    expect(out.map((f) => [decodeAtpFrame(f.frame).atp.ecn, decodeAtpFrame(f.frame).frame.ipv4.ecn])).toEqual([[true, CE], [true, CE], [true, CE]]);
  });

  it.each([['threshold 1 over empty queues', 1], ['the default settings (marking off)', undefined]] as const)('%s: nothing is marked', async (_name, threshold) => {
    const r = await start(threshold);
    const { atp, frame } = aggregate(r, 3, [{ ipEcn: ECT0 }, { ipEcn: ECT0 }, { ipEcn: ECT1 }]);
    expect([atp.ecn, frame.ipv4.ecn]).toEqual([false, ECT1]);
    expect(await r.counter('egress.ecn_marks')).toEqual([0, 0]);
  });
});

describe('egress marking over a real queue', () => {
  it('marks exactly the packets that found the PS port\'s queue at or over the threshold', async () => {
    const clock = new VirtualClock(1_000_000);
    rig = await AtpRig.start(DEFINES, undefined, { clock, queues: [{ port: PS.switchPort, rate: { unit: 'pps', value: 1000 } }] });
    await rig.settings(2, 0);
    // A burst of six at one instant into a port that sends one per millisecond: the first leaves at
    // once, and the others find 0, 1, 2, 3, 4 packets ahead of them.
    const out = [];
    for (let k = 0; k < 6; k++) out.push(...rig.send(1, atpFrame(part(0, k, { overflow: true, ipEcn: ECT0 }))));
    clock.advance(10_000);
    out.push(...rig.take());
    expect(out.map((f) => f.port)).toEqual(new Array<number>(6).fill(PS.switchPort));
    const seen = out.map((f) => decodeAtpFrame(f.frame)).map((d) => [d.atp.sequenceNumber, d.atp.ecn, d.frame.ipv4.ecn]);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5].map((k) => [k, k >= 3, k >= 3 ? CE : ECT0]));
    expect(await rig.counter('egress.ecn_marks')).toEqual([3, 3]);
  });

  it('a mark picked up in one switch\'s queue is ORed into the next switch\'s aggregate', async () => {
    const clock = new VirtualClock(1_000_000);
    const upstream = await AtpRig.start(DEFINES, undefined, { clock, queues: [{ port: PS.switchPort, rate: { unit: 'pps', value: 1000 } }] });
    try {
      await upstream.settings(1, 0);
      rig = await start(1000);
      // Upstream, worker 2's packet waits behind two others and leaves marked; the aggregating switch adds it.
      const through = [0, 1, 2].flatMap((w) => upstream.send(worker(w).switchPort, atpFrame(part(w, 7, { jobId: 9 }))));
      clock.advance(10_000);
      through.push(...upstream.take());
      const marked = through.map((f) => decodeAtpFrame(f.frame).atp.ecn);
      expect(marked).toEqual([false, false, true]);
      let aggregate: ReturnType<AtpRig['send']> = [];
      through.forEach((f, w) => {
        const bytes = Buffer.from(f.frame);
        bytes.writeUInt16BE(1, 14 + 20 + 8 + 12); // the job id: 9 upstream (no entry there), 1 here
        aggregate = rig!.send(worker(w).switchPort, bytes);
      });
      const { atp, values } = decodeAtpFrame(aggregate[0]!.frame);
      expect(atp.ecn).toBe(true);
      expect(values).toEqual([0, 1, 2].map((w) => contribution(w, 7, N)).reduce((a, b) => a.map((x, i) => (x + b[i]!) | 0)));
    } finally {
      await upstream.close();
    }
  });
});
