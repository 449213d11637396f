import { afterEach, describe, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import { ATP_HEADER_LENGTH, encodeAtp, type AtpHeaderFields } from '../../../src/wire/index.js';
import { AtpMemoryNetwork, type AtpNetJob } from './helpers/atp-network.js';
import { atpTensors, checkAtp } from './helpers/numbers.js';
import { allreduceJobs, closeJobs, startJob, type RunningJob } from './helpers/run-virtual.js';
import { VirtualTime } from './helpers/virtual-time.js';

const running: RunningJob[] = [];
afterEach(async () => {
  await closeJobs(running.splice(0));
});

const JOB = 61;

function packet(fields: Partial<AtpHeaderFields>, values = 64, fill = 0x0bad_f00d): Buffer {
  const h: AtpHeaderFields = {
    bitmap0: 1,
    bitmap1: 1,
    fanInDegree0: 2,
    fanInDegree1: 3,
    overflow: false,
    resend: false,
    collision: false,
    ecn: false,
    edgeSwitchIdentifier: 0,
    isAck: false,
    aggregatorIndex: 3,
    jobId: JOB,
    sequenceNumber: 0,
    elementCount: values,
    ...fields,
  };
  const buf = Buffer.alloc(ATP_HEADER_LENGTH + 4 * h.elementCount);
  encodeAtp(buf, 0, { ...h, values: new Array<number>(h.elementCount).fill(fill) });
  return buf;
}

/**
 * Every kind of packet a PS of job 61 can tell is not one of its pieces, for sequence numbers around `seq`:
 * malformed, another job, an ACK, another value count, bits outside the job, edge-0 pieces no rack
 * can send, sequences outside the window, and late copies (with garbage values) of completed ones.
 */
function strayForPs(seq: number, completed: number | undefined): Buffer[] {
  const out = [
    Buffer.alloc(7),
    Buffer.concat([packet({ sequenceNumber: seq }), Buffer.alloc(3)]),
    packet({ jobId: JOB + 1, sequenceNumber: seq }),
    packet({ isAck: true, sequenceNumber: seq }),
    packet({ sequenceNumber: seq }, 32),
    packet({ bitmap1: 0, sequenceNumber: seq }),
    packet({ bitmap1: 1 << 20, edgeSwitchIdentifier: 1, sequenceNumber: seq }),
    packet({ bitmap1: 0b11, edgeSwitchIdentifier: 0, sequenceNumber: seq }),
    packet({ bitmap0: 1 << 9, bitmap1: 1, sequenceNumber: seq }),
    // Contributor 1 is the legacy rack's worker: it never sends edge 0.
    packet({ bitmap0: 1, bitmap1: 0b10, sequenceNumber: seq }),
    packet({ sequenceNumber: (seq + 5000) & 0xffff, edgeSwitchIdentifier: 1, bitmap1: 0b11 }),
    packet({ sequenceNumber: (seq + 40000) & 0xffff, collision: true, aggregatorIndex: 60000 }),
  ];
  if (completed !== undefined) {
    out.push(packet({ sequenceNumber: completed, edgeSwitchIdentifier: 1, bitmap1: 0b11, resend: true }));
    out.push(packet({ sequenceNumber: completed, bitmap0: 0b10, bitmap1: 0b1, collision: true }));
  }
  return out;
}

/** What a worker can tell is not an ACK it waits for: malformed, a contribution, another job or size, sequences not outstanding. */
function strayForWorker(seq: number, completed: number | undefined): Buffer[] {
  const out = [
    Buffer.alloc(3),
    Buffer.concat([packet({ isAck: true, sequenceNumber: seq }), Buffer.alloc(2)]),
    packet({ sequenceNumber: seq }),
    packet({ isAck: true, jobId: JOB + 1, sequenceNumber: seq }),
    packet({ isAck: true, sequenceNumber: seq }, 16),
    packet({ isAck: true, sequenceNumber: (seq + 1000) & 0xffff, bitmap0: 7 }),
  ];
  if (completed !== undefined) out.push(packet({ isAck: true, sequenceNumber: completed, bitmap0: 9, overflow: true }));
  return out;
}

function injectAll(net: AtpMemoryNetwork, job: AtpNetJob, seq: number, completed: number | undefined): number {
  let n = 0;
  for (const p of strayForPs(seq, completed)) {
    net.inject(job.psAddress, p);
    n++;
  }
  for (const address of job.workerAddresses) {
    for (const p of strayForWorker(seq, completed)) {
      net.inject(address, p);
      n++;
    }
  }
  return n;
}

describe('stray and forged ATP packets sent to the workers and the PS', () => {
  test('before, during and between calls: every job result exact, every stray packet counted, nothing stalls', async () => {
    let tapped = 0;
    const midCall: { inject?: () => void } = {};
    const net = new AtpMemoryNetwork({
      racks: 2,
      tap: () => {
        // Mid-call: after the PS has had 20 packets of the first call.
        if (++tapped === 20) midCall.inject?.();
      },
    });
    const time = new VirtualTime();
    const spec = net.addJob({
      jobId: JOB,
      racks: [
        { tor: 0, workers: 2, aggregating: true },
        { tor: 1, workers: 1, aggregating: false },
      ],
      coreAggregates: false,
    });
    const job = startJob(spec, time, { maxWindow: 8 });
    running.push(job);
    let injected = injectAll(net, spec, 0, undefined);
    midCall.inject = () => {
      // Clean links: sequences complete in order, so the newest completed one is completed − 1.
      const newest = job.ps.jobStats(JOB)!.completed - 1;
      injected += injectAll(net, spec, newest + 1, newest);
    };
    const first = atpTensors(3, 64 * 40, 'stray-1');
    const [a] = await allreduceJobs(net, time, [job], [first]);
    injected += injectAll(net, spec, 40, 39);
    const second = atpTensors(3, 64 * 10 + 5, 'stray-2');
    const [b] = await allreduceJobs(net, time, [job], [second]);
    for (const [outcome, tensors] of [
      [a!, first],
      [b!, second],
    ] as const) {
      for (const r of outcome.results) expect(sameBits(r, outcome.results[0]!)).toBe(true);
      expect(checkAtp(outcome.results[0]!, tensors, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
    }
    expect(tapped).toBeGreaterThan(20);
    const ps = job.ps.stats;
    // Per batch: 12 stray for the PS (3 of them malformed or of another job), and 2 late copies in the later batches.
    expect(ps.strayDrops).toBe(3 * 10);
    expect(ps.outOfWindowDrops).toBe(3 * 2);
    expect(ps.latePieces).toBe(2 * 2);
    expect(ps.completed).toBe(40 + 11);
    // Each worker: the stray sent to it during a call were ignored or taken as duplicate ACKs.
    const during = a!.stats.map((s) => s.ignored + s.duplicateAcks);
    for (const n of during) expect(n).toBeGreaterThanOrEqual(7);
    expect(injected).toBeGreaterThan(0);
  });

  test('stray contributions holding every aggregator of the ToR before the job starts: the PS does the work, exactly', async () => {
    const net = new AtpMemoryNetwork({ racks: 1, poolSize: 16 });
    const time = new VirtualTime();
    const spec = net.addJob({ jobId: JOB, racks: [{ tor: 0, workers: 3, aggregating: true }], coreAggregates: false });
    // Partial aggregates of this job at sequences it will not reach in this test, one per aggregator.
    for (let index = 0; index < 16; index++) {
      net.injectAtTor(0, spec.psAddress, packet({ bitmap0: 1, bitmap1: 1, fanInDegree0: 3, fanInDegree1: 1, aggregatorIndex: index, sequenceNumber: 30_000 + index }));
    }
    expect(net.tors[0]!.owned).toBe(16);
    const job = startJob(spec, time, { maxWindow: 8 }, 16);
    running.push(job);
    const tensors = atpTensors(3, 64 * 30, 'stale-tor');
    const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
    for (const r of outcome!.results) expect(sameBits(r, outcome!.results[0]!)).toBe(true);
    expect(checkAtp(outcome!.results[0]!, tensors, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
    expect(job.ps.stats).toMatchObject({ completed: 30, completedInSoftware: 30, collisionPieces: 90 });
  });
});
