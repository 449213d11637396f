// The testbed's results document with OmniReduce runs and block-sparse
// tensors (`p4ina testbed format`): one row per variant, where each
// aggregated, the bytes each worker sent beside the goodput, and the
// sparsity every algorithm's workers were given. Pure: no root, no Mininet.
import { describe, expect, test } from 'vitest';
import { formatTestbedJson, formatTestbedText, parseTestbedDocument, testbedOk, testbedRows } from '../../src/testbed/testbed-report.js';

const sha = 'd'.repeat(64);
/** A worker's JSON line as every worker kind prints it; TCP baselines count `wireBytesSent` instead of `bytesSent`. */
const report = (rank: number, elapsedMs: number, sent: Record<string, number>): string =>
  `${JSON.stringify({ rank, resultSha256: sha, iterations: [{ bytes: 4096, elapsedMs, retransmissions: 0, ...sent }], check: { maxAbsError: 1e-6, boundViolations: 0 } })}\n`;

const doc = {
  topology: 'single,hosts=2',
  tensorBytes: 4096,
  loss: 0,
  packetsLost: 0,
  seed: '1',
  sparsity: { sparsity: 0.9, pattern: 'random', block: 256 },
  runs: [
    { algorithm: 'omnireduce', hosts: ['h1', 'h2'], reports: [report(0, 10, { bytesSent: 1000 }), report(1, 12, { bytesSent: 3000 })], failure: null, omnireduce: { aggregator: 'ps1', blockSize: 256, slots: 32 } },
    { algorithm: 'omnireduce-switch', hosts: ['h1', 'h2'], reports: [report(0, 8, { bytesSent: 1500 }), report(1, 9, { bytesSent: 1500 })], failure: null, omnireduce: { aggregator: 's1', blockSize: 128, slots: 32 } },
    { algorithm: 'switchml', hosts: ['h1', 'h2'], reports: [report(0, 40, { bytesSent: 5000 }), report(1, 41, { bytesSent: 5000 })], failure: null },
    { algorithm: 'ring', hosts: ['h1', 'h2'], reports: [report(0, 20, { wireBytesSent: 4200 }), report(1, 20, { wireBytesSent: 4400 })], failure: null },
  ],
  traffic: null,
  pids: [1],
};

describe('testbed results document with OmniReduce and sparse tensors', () => {
  test('a row per variant; sent/worker is the mean of what each worker sent (bytesSent, or TCP\'s wireBytesSent)', () => {
    const parsed = parseTestbedDocument(JSON.stringify(doc));
    const rows = testbedRows(parsed);
    expect(rows.map((r) => [r.algorithm, r.workers, r.timeMs, r.sentPerWorker, r.identical])).toEqual([
      ['omnireduce', 2, 12, 2000, true],
      ['omnireduce-switch', 2, 9, 1500, true],
      ['switchml', 2, 41, 5000, true],
      ['ring', 2, 20, 4300, true],
    ]);
    expect(testbedOk(parsed, rows)).toBe(true);
  });

  test('the table names the sparsity and where each OmniReduce run aggregated, and has the sent/worker column', () => {
    const parsed = parseTestbedDocument(JSON.stringify(doc));
    const text = formatTestbedText(parsed, testbedRows(parsed));
    expect(text).toContain('testbed single,hosts=2, sparsity 0.9 (random, blocks of 256)\n');
    expect(text).toContain('  omnireduce: h1, h2; aggregator ps1, blocks of 256, 32 slots\n');
    expect(text).toContain('  omnireduce-switch: h1, h2; aggregator s1, blocks of 128, 32 slots\n');
    expect(text).toContain('  switchml: h1, h2\n');
    expect(text).toMatch(/goodput \(Mbit\/s\)\s+sent\/worker/);
    // 2000 bytes and 4300 bytes as the demo's table writes sizes.
    expect(text).toMatch(/\nomnireduce .* 1\.95 KiB /);
    expect(text).toMatch(/\nring .* 4\.2 KiB /);
  });

  test('JSON: the sparsity, and every row with the same keys (omnireduce null where it does not apply)', () => {
    const parsed = parseTestbedDocument(JSON.stringify(doc));
    const json = JSON.parse(formatTestbedJson(parsed, testbedRows(parsed))) as { sparsity: unknown; runs: { algorithm: string; sentPerWorker: number; omnireduce: unknown }[] };
    expect(json.sparsity).toEqual({ sparsity: 0.9, pattern: 'random', block: 256 });
    expect(json.runs.map((r) => [r.algorithm, r.sentPerWorker, r.omnireduce])).toEqual([
      ['omnireduce', 2000, { aggregator: 'ps1', blockSize: 256, slots: 32 }],
      ['omnireduce-switch', 1500, { aggregator: 's1', blockSize: 128, slots: 32 }],
      ['switchml', 5000, null],
      ['ring', 4300, null],
    ]);
    const dense = parseTestbedDocument(JSON.stringify({ ...doc, sparsity: undefined }));
    expect(dense.sparsity).toBeNull();
    expect(formatTestbedText(dense, testbedRows(dense))).toContain('testbed single,hosts=2\n');
  });

  test('an OmniReduce run that failed before the controller planned it has no aggregator and stays a failed row', () => {
    const failed = { algorithm: 'omnireduce-switch', hosts: ['h1', 'h2'], reports: [], failure: 'no switch can aggregate OmniReduce' };
    const parsed = parseTestbedDocument(JSON.stringify({ ...doc, runs: [failed] }));
    const rows = testbedRows(parsed);
    expect(rows.map((r) => [r.algorithm, r.failure])).toEqual([['omnireduce-switch', 'no switch can aggregate OmniReduce']]);
    expect(formatTestbedText(parsed, rows)).toContain('  omnireduce-switch: h1, h2\n');
    expect(testbedOk(parsed, rows)).toBe(false);
  });

  test('a malformed "omnireduce" or "sparsity" is a TESTBED_BAD_REPORT that says what it wants', () => {
    const withInfo = (omnireduce: unknown): string => JSON.stringify({ ...doc, runs: [{ ...doc.runs[0], omnireduce }] });
    expect(() => parseTestbedDocument(withInfo({ aggregator: 'ps1', blockSize: 0, slots: 32 }))).toThrow(
      expect.objectContaining({ code: 'TESTBED_BAD_REPORT', message: 'the testbed\'s results document has a malformed "omnireduce" in run 0 (want {aggregator, blockSize, slots})' }),
    );
    expect(() => parseTestbedDocument(withInfo('ps1'))).toThrow(/malformed "omnireduce" in run 0/);
    expect(() => parseTestbedDocument(JSON.stringify({ ...doc, sparsity: { sparsity: 1.5, pattern: 'random', block: 256 } }))).toThrow(/malformed "sparsity"/);
    expect(() => parseTestbedDocument(JSON.stringify({ ...doc, sparsity: { sparsity: 0.5, pattern: 'random' } }))).toThrow(/malformed "sparsity"/);
  });
});
