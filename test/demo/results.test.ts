import { describe, expect, test } from 'vitest';
import { failedRun, parseWorkerReport, rowIsExact, summariseRun, type WorkerOutcome } from '../../src/report/demo-results.js';
import { formatBytes, formatResultsJson, formatResultsTable } from '../../src/report/results-table.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

/** A report shaped as `p4ina agent switchml --json --check` prints it. */
function switchMlReportLine(rank: number, sha: string, elapsedMs: number, retransmissions: number, maxAbsError: number): string {
  return JSON.stringify({
    algorithm: 'switchml',
    rank,
    worldSize: 2,
    jobId: 1,
    length: 16384,
    iterations: [{ algorithm: 'switchml', bytes: 65536, elapsedMs, messagesSent: 300, messagesReceived: 290, retransmissions, epoch: 0, chunks: 256, bytesSent: 90_000 }],
    resultSha256: sha,
    transport: { sent: 1 },
    check: { maxAbsError, boundViolations: 0 },
  });
}

const outcome = (rank: number, sha: string, elapsedMs: number, retransmissions: number, maxAbsError: number, boundViolations = 0, bytesSent = 90_000): WorkerOutcome => ({
  rank,
  resultSha256: sha,
  bytes: 65536,
  elapsedMs,
  retransmissions,
  bytesSent,
  maxAbsError,
  boundViolations,
});

describe('parseWorkerReport', () => {
  test('reads the last JSON line of a worker’s stdout', () => {
    const stdout = `some banner\n${switchMlReportLine(1, SHA_A, 12.5, 3, 1.5e-5)}\n`;
    expect(parseWorkerReport(stdout)).toEqual(outcome(1, SHA_A, 12.5, 3, 1.5e-5));
  });

  test('bytes sent: the call’s bytesSent, else the TCP baselines’ wireBytesSent, else unknown', () => {
    const report = (call: Record<string, number>): string =>
      JSON.stringify({ rank: 0, iterations: [{ bytes: 16, elapsedMs: 2, retransmissions: 0, ...call }], resultSha256: SHA_A, check: { maxAbsError: 0, boundViolations: 0 } });
    expect(parseWorkerReport(report({ bytesSent: 120, wireBytesSent: 99 })).bytesSent).toBe(120);
    expect(parseWorkerReport(report({ wireBytesSent: 99 })).bytesSent).toBe(99);
    expect(parseWorkerReport(report({})).bytesSent).toBeUndefined();
    expect(() => parseWorkerReport(JSON.stringify({ rank: 0, iterations: [{ bytes: 16, elapsedMs: 2, retransmissions: 0, bytesSent: 'x' }], resultSha256: SHA_A, check: { maxAbsError: 0, boundViolations: 0 } }))).toThrow(/bytesSent/);
  });

  test('reads the ring worker’s report (no transport counters)', () => {
    const line = JSON.stringify({
      algorithm: 'ring',
      rank: 0,
      worldSize: 2,
      jobId: 'job',
      length: 4,
      iterations: [{ bytes: 16, elapsedMs: 2, messagesSent: 2, messagesReceived: 2, retransmissions: 0 }],
      resultSha256: SHA_B,
      check: { maxAbsError: 0, boundViolations: 0 },
    });
    expect(parseWorkerReport(line)).toEqual({ rank: 0, resultSha256: SHA_B, bytes: 16, elapsedMs: 2, retransmissions: 0, bytesSent: undefined, maxAbsError: 0, boundViolations: 0 });
  });

  test.each([
    ['', /no JSON report/],
    ['{not json', /not valid JSON/],
    ['{"rank":0}', /no iterations/],
    ['{"rank":0,"iterations":[{"bytes":1,"elapsedMs":1,"retransmissions":0}]}', /no check/],
    ['{"rank":0,"iterations":[{"bytes":1,"elapsedMs":1,"retransmissions":0}],"check":{"maxAbsError":0,"boundViolations":0},"resultSha256":"xyz"}', /no resultSha256/],
    [`{"iterations":[{"bytes":1,"elapsedMs":1,"retransmissions":0}],"check":{"maxAbsError":0,"boundViolations":0},"resultSha256":"${SHA_A}"}`, /"rank"/],
  ])('%s is refused: %s', (stdout, message) => {
    expect(() => parseWorkerReport(stdout)).toThrow(message);
  });
});

describe('summariseRun', () => {
  test('the slowest worker’s time, summed retransmissions, the largest error, identical digests', () => {
    const row = summariseRun('switchml', 65536, [outcome(0, SHA_A, 100, 2, 1e-5, 0, 80_000), outcome(1, SHA_A, 200, 5, 3e-5, 0, 100_000)]);
    expect(row).toEqual({
      algorithm: 'switchml',
      workers: 2,
      bytes: 65536,
      timeMs: 200,
      goodputGbps: (65536 * 8) / (200 * 1e6),
      sentPerWorker: 90_000,
      retransmissions: 7,
      maxAbsError: 3e-5,
      boundViolations: 0,
      identical: true,
      failure: undefined,
    });
    expect(rowIsExact(row)).toBe(true);
    // One worker that did not report its bytes makes the mean unknown, not wrong.
    expect(summariseRun('switchml', 65536, [outcome(0, SHA_A, 1, 0, 0), { ...outcome(1, SHA_A, 1, 0, 0), bytesSent: undefined }]).sentPerWorker).toBeUndefined();
  });

  test('different digests are not identical, and a row over the bound is not exact', () => {
    expect(summariseRun('ring', 16, [outcome(0, SHA_A, 1, 0, 0), outcome(1, SHA_B, 1, 0, 0)]).identical).toBe(false);
    expect(rowIsExact(summariseRun('ring', 16, [outcome(0, SHA_A, 1, 0, 0), outcome(1, SHA_B, 1, 0, 0)]))).toBe(false);
    expect(rowIsExact(summariseRun('ring', 16, [outcome(0, SHA_A, 1, 0, 1, 3)]))).toBe(false);
    expect(rowIsExact(failedRun('ring', 2, 16, 'worker 1 exited with status 1'))).toBe(false);
  });
});

describe('formatting', () => {
  test('formatBytes writes sizes as the user would', () => {
    expect([formatBytes(16 * 1024 * 1024), formatBytes(65536), formatBytes(100_000), formatBytes(1000), formatBytes(1024 ** 3)]).toEqual(['16 MiB', '64 KiB', '97.66 KiB', '1000 B', '1 GiB']);
  });

  test('the table: one row per algorithm, failures named under it', () => {
    const rows = [
      summariseRun('switchml', 65536, [outcome(0, SHA_A, 125.25, 2, 1.5e-5), outcome(1, SHA_A, 100, 1, 1e-5)]),
      failedRun('ring', 2, 65536, 'ring: worker 1 exited with status 1'),
    ];
    expect(formatResultsTable(rows)).toBe(
      [
        'algorithm  workers   bytes  time (ms)  goodput (Mbit/s)  sent/worker  retransmissions  max error  identical',
        '---------  -------  ------  ---------  ----------------  -----------  ---------------  ---------  ---------',
        'switchml         2  64 KiB      125.3               4.2    87.89 KiB                3    1.50e-5  yes',
        'ring             2  64 KiB          -                 -            -                -          -  failed',
        'ring failed: ring: worker 1 exited with status 1',
        '',
      ].join('\n'),
    );
  });

  test('bound violations show next to the error, and different results say no', () => {
    const table = formatResultsTable([summariseRun('ring', 16, [outcome(0, SHA_A, 1, 0, 0.5, 2), outcome(1, SHA_B, 1, 0, 0.25)])]);
    expect(table).toContain('5.00e-1 (2 over bound)');
    expect(table.trimEnd().endsWith('no')).toBe(true);
  });

  test('JSON: every field present, undefined as null', () => {
    const json = formatResultsJson({ workers: 2, tensorBytes: 16, loss: 0, seed: 1, framesLost: 0, runs: [failedRun('switchml', 2, 16, 'x')] });
    expect(JSON.parse(json)).toEqual({
      workers: 2,
      tensorBytes: 16,
      loss: 0,
      seed: 1,
      framesLost: 0,
      runs: [{ algorithm: 'switchml', workers: 2, bytes: 16, timeMs: null, goodputGbps: null, sentPerWorker: null, retransmissions: null, maxAbsError: null, boundViolations: null, identical: null, failure: 'x' }],
    });
  });
});
