import { describe, expect, test } from 'vitest';
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtp, type AtpHeaderFields } from '../../../src/wire/index.js';
import { ReferenceAtpSwitch, type AtpSwitchVerdict } from './reference/reference-atp-switch.js';

const V = 2;

function pkt(fields: Partial<AtpHeaderFields>, values: number[] = [1, 2]): Buffer {
  const h: AtpHeaderFields = {
    bitmap0: 1,
    bitmap1: 1,
    fanInDegree0: 2,
    fanInDegree1: 2,
    overflow: false,
    resend: false,
    collision: false,
    ecn: false,
    edgeSwitchIdentifier: 0,
    isAck: false,
    aggregatorIndex: 3,
    jobId: 1,
    sequenceNumber: 10,
    elementCount: V,
    ...fields,
  };
  const buf = Buffer.alloc(ATP_HEADER_LENGTH + 4 * h.elementCount);
  encodeAtp(buf, 0, { ...h, values });
  return buf;
}

function read(buf: Buffer) {
  const p = decodeAtp(buf);
  if (!p.ok) throw new Error('malformed');
  return { ...p, values: Array.from(p.values.toInt32Array()) };
}

/** The rule a verdict names (a multicast names none). */
function rule(v: AtpSwitchVerdict): string {
  return v.action === 'multicast' ? 'multicast' : v.rule;
}

function level0(): ReferenceAtpSwitch {
  const sw = new ReferenceAtpSwitch('tor', 8, V);
  sw.addJob(1, { level: 0 });
  sw.addJob(2, { level: 0 });
  return sw;
}

describe('the reference ATP switch follows docs/atp.md', () => {
  test('rules 4–6: two contributions complete the aggregate, which goes on as a level-1 contribution', () => {
    const sw = level0();
    expect(sw.process(pkt({ bitmap0: 1 }, [1, 2]))).toEqual({ action: 'consume', rule: '6 partial' });
    expect(sw.process(pkt({ bitmap0: 1 }, [1, 2]))).toEqual({ action: 'drop', rule: '4 duplicate' });
    const last = pkt({ bitmap0: 2, ecn: true }, [10, -20]);
    expect(rule(sw.process(last))).toBe('5 complete');
    expect(read(last)).toMatchObject({ bitmap0: 3, edgeSwitchIdentifier: 1, ecn: true, values: [11, -18] });
    // The aggregator stays owned until the ACK.
    expect(sw.ownerOf(3)).toBe((1 << 16) | 10);
  });

  test('rule 2: another tag collides and goes on unchanged but for the collision bit', () => {
    const sw = level0();
    sw.process(pkt({ bitmap0: 1 }));
    const other = pkt({ jobId: 2, bitmap0: 1 }, [5, 5]);
    expect(rule(sw.process(other))).toBe('2 collision');
    expect(read(other)).toMatchObject({ collision: true, jobId: 2, values: [5, 5], edgeSwitchIdentifier: 0 });
  });

  test('rule 3: a resend flushes the merged partial and frees the aggregator; at a free one it goes alone', () => {
    const sw = level0();
    sw.process(pkt({ bitmap0: 1 }, [1, 1]));
    const resend = pkt({ bitmap0: 2, resend: true }, [4, 4]);
    expect(rule(sw.process(resend))).toBe('3 flush');
    expect(read(resend)).toMatchObject({ bitmap0: 3, resend: true, values: [5, 5], edgeSwitchIdentifier: 0 });
    expect(sw.ownerOf(3)).toBe(0);
    const alone = pkt({ bitmap0: 2, resend: true }, [4, 4]);
    expect(rule(sw.process(alone))).toBe('3 resend, aggregator free');
    expect(read(alone)).toMatchObject({ bitmap0: 2, values: [4, 4] });
    // A resend whose bit is already in (its first copy was consumed) is not added twice.
    sw.process(pkt({ bitmap0: 1 }, [1, 1]));
    const again = pkt({ bitmap0: 1, resend: true }, [1, 1]);
    sw.process(again);
    expect(read(again).values).toEqual([1, 1]);
  });

  test('rule 1: overflow, wrong value counts and malformed bits pass through; other levels and jobs without an entry too', () => {
    const sw = level0();
    expect(rule(sw.process(pkt({ overflow: true })))).toBe('1 overflow or length');
    expect(rule(sw.process(pkt({ elementCount: 3 }, [1, 2, 3])))).toBe('1 overflow or length');
    expect(rule(sw.process(pkt({ edgeSwitchIdentifier: 1 })))).toBe('another level');
    expect(rule(sw.process(pkt({ jobId: 9 })))).toBe('no entry');
    // Malformed: not exactly one bit at this level, fan-in 0, an index past the pool.
    expect(rule(sw.process(pkt({ bitmap0: 0b11 })))).toBe('1 overflow or length');
    expect(rule(sw.process(pkt({ bitmap0: 0 })))).toBe('1 overflow or length');
    expect(rule(sw.process(pkt({ fanInDegree0: 0 })))).toBe('1 overflow or length');
    expect(rule(sw.process(pkt({ aggregatorIndex: 8 })))).toBe('1 overflow or length');
    expect(sw.owned).toBe(0);
    // A bit beyond the fan-in after completion goes on; the sum has left already.
    sw.process(pkt({ bitmap0: 1 }));
    sw.process(pkt({ bitmap0: 2 }));
    expect(rule(sw.process(pkt({ bitmap0: 4 })))).toBe('4 past the fan-in');
  });

  test('ACKs free only a matching tag; a level-0 switch multicasts them, a level-1 switch forwards them', () => {
    const sw = level0();
    sw.process(pkt({ bitmap0: 1 }));
    expect(sw.process(pkt({ isAck: true, sequenceNumber: 11 }))).toEqual({ action: 'multicast', jobId: 1 });
    expect(sw.ownerOf(3)).not.toBe(0);
    sw.process(pkt({ isAck: true }));
    expect(sw.ownerOf(3)).toBe(0);
    const l1 = new ReferenceAtpSwitch('core', 8, V);
    l1.addJob(1, { level: 1 });
    l1.process(pkt({ edgeSwitchIdentifier: 1, bitmap1: 1 }));
    expect(l1.owned).toBe(1);
    expect(l1.process(pkt({ isAck: true }))).toEqual({ action: 'forward', rule: 'ack' });
    expect(l1.owned).toBe(0);
  });
});
