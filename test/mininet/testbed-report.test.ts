// The runner's results document → the demo's rows, table and JSON
// (`p4ina testbed format`). Pure: no root, no Mininet.
import { describe, expect, test } from 'vitest';
import { formatTestbedJson, formatTestbedText, parseTestbedDocument, testbedOk, testbedRows } from '../../src/testbed/testbed-report.js';

const sha = (c: string): string => c.repeat(64);
const report = (rank: number, elapsedMs: number, hash = sha('a')): string =>
  `some log line\n${JSON.stringify({ rank, resultSha256: hash, iterations: [{ bytes: 1024, elapsedMs, retransmissions: rank }], check: { maxAbsError: 1e-6, boundViolations: 0 } })}\n`;

const base = {
  topology: 'single,hosts=2',
  tensorBytes: 1024,
  loss: 0,
  packetsLost: 0,
  seed: '1',
  runs: [
    { algorithm: 'switchml', hosts: ['h1', 'h2'], reports: [report(0, 10), report(1, 20)], failure: null },
    { algorithm: 'ring', hosts: ['h1', 'h2'], reports: [], failure: 'h2 (rank 1) exited with code 1: boom' },
  ],
  traffic: { ping: { sent: 2, received: 2, failed: [] }, tcp: [{ from: 'h1', to: 'h2', bytes: 10, ok: true }] },
  pids: [1, 2],
};

describe('testbed results document', () => {
  test('rows as the demo makes them: slowest worker, summed retransmissions, a failed run stays a row', () => {
    const doc = parseTestbedDocument(JSON.stringify(base));
    const rows = testbedRows(doc);
    expect(rows.map((r) => [r.algorithm, r.workers, r.timeMs, r.retransmissions, r.identical, r.failure])).toEqual([
      ['switchml', 2, 20, 1, true, undefined],
      ['ring', 2, undefined, undefined, undefined, 'h2 (rank 1) exited with code 1: boom'],
    ]);
    expect(testbedOk(doc, rows)).toBe(false);
    expect(testbedOk(doc, rows.slice(0, 1))).toBe(true);
  });

  test('different results on two workers, a report without JSON, or a lost ping make the run not ok', () => {
    const differ = parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...base.runs[0], reports: [report(0, 1), report(1, 1, sha('b'))] }] }));
    expect(testbedRows(differ)[0]!.identical).toBe(false);
    expect(testbedOk(differ, testbedRows(differ))).toBe(false);
    const noJson = parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...base.runs[0], reports: ['crashed\n', report(1, 1)] }] }));
    expect(testbedRows(noJson)[0]!.failure).toBe('the worker printed no JSON report');
    const lostPing = parseTestbedDocument(JSON.stringify({ ...base, runs: [base.runs[0]], traffic: { ...base.traffic, ping: { sent: 2, received: 1, failed: ['h1->h2'] } } }));
    expect(testbedOk(lostPing, testbedRows(lostPing))).toBe(false);
  });

  test('the table has the demo columns, the hosts of each run and the traffic; JSON keeps the demo keys', () => {
    const doc = parseTestbedDocument(JSON.stringify({ ...base, loss: 0.01, packetsLost: 5 }));
    const rows = testbedRows(doc);
    const text = formatTestbedText(doc, rows);
    expect(text).toContain('testbed single,hosts=2, loss 0.01 on every host link each way (5 packets dropped)');
    expect(text).toContain('  switchml: h1, h2');
    expect(text).toMatch(/algorithm\s+workers\s+bytes\s+time \(ms\)/);
    expect(text).toContain('ring failed: h2 (rank 1) exited with code 1: boom');
    expect(text).toContain('ping: 2/2 host pairs reach each other');
    expect(text).toContain('tcp h1 → h2: 10 bytes, intact');
    const json = JSON.parse(formatTestbedJson(doc, rows)) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['topology', 'workers', 'tensorBytes', 'loss', 'seed', 'framesLost', 'runs', 'hosts', 'traffic', 'pids', 'ok']);
    expect(json.framesLost).toBe(5);
    expect(json.ok).toBe(false);
  });

  test('a malformed document is a TESTBED_BAD_REPORT that says what is wrong', () => {
    expect(() => parseTestbedDocument('nope')).toThrow(expect.objectContaining({ code: 'TESTBED_BAD_REPORT', message: "the testbed's results document is not JSON" }));
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ algorithm: 'atp', hosts: [], reports: [], failure: null }] }))).toThrow(/run 0 names no algorithm/);
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, traffic: { ping: { sent: 1 }, tcp: [] } }))).toThrow(/traffic.ping/);
  });
});
