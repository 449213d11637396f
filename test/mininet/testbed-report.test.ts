// The runner's results document → the demo's rows, table and JSON
// (`p4ina testbed format`). Pure: no root, no Mininet.
import { describe, expect, test } from 'vitest';
import { formatTestbedJson, formatTestbedText, parseTestbedDocument, testbedOk, testbedProblems, testbedRows } from '../../src/testbed/testbed-report.js';

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

  test('testbedProblems says, one line each, what made the document not ok (stderr beside --json)', () => {
    const doc = parseTestbedDocument(JSON.stringify(base));
    expect(testbedProblems(doc, testbedRows(doc))).toEqual(['ring failed: h2 (rank 1) exited with code 1: boom']);
    const differ = parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...base.runs[0], reports: [report(0, 1), report(1, 1, sha('b'))] }] }));
    expect(testbedProblems(differ, testbedRows(differ))).toEqual(["switchml: the workers' results differ"]);
    const traffic = { ping: { sent: 2, received: 1, failed: ['h1->h2'] }, tcp: [{ from: 'h1', to: 'h2', bytes: 10, ok: false }] };
    const lost = parseTestbedDocument(JSON.stringify({ ...base, runs: [base.runs[0]], traffic }));
    expect(testbedProblems(lost, testbedRows(lost))).toEqual(['ping: 1/2 host pairs answered (no answer: h1->h2)', 'tcp h1 → h2 failed']);
    const good = parseTestbedDocument(JSON.stringify({ ...base, runs: [base.runs[0]] }));
    expect(testbedProblems(good, testbedRows(good))).toEqual([]);
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
    expect(Object.keys(json)).toEqual(['topology', 'sparsity', 'switchmlElements', 'workers', 'tensorBytes', 'loss', 'seed', 'framesLost', 'runs', 'hosts', 'traffic', 'ecn', 'pids', 'ok']);
    expect(json.framesLost).toBe(5);
    expect(json.ok).toBe(false);
  });

  test('the parameter-server baseline is a run like ring: its own row, named ps, between ATP and ring in the table', () => {
    const psRun = { algorithm: 'ps', hosts: ['h1', 'h2'], server: 'ps1', reports: [report(0, 40), report(1, 30)], failure: null };
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, runs: [base.runs[0], psRun] }));
    const rows = testbedRows(doc);
    expect(rows.map((r) => [r.algorithm, r.workers, r.timeMs, r.identical, r.failure])).toEqual([
      ['switchml', 2, 20, true, undefined],
      ['ps', 2, 40, true, undefined],
    ]);
    expect(formatTestbedText(doc, rows)).toContain('  ps: h1, h2');
    const json = JSON.parse(formatTestbedJson(doc, rows)) as { runs: { algorithm: string; atp: unknown }[]; hosts: Record<string, string[]>; ok: boolean };
    expect(json.runs.map((r) => [r.algorithm, r.atp])).toEqual([
      ['switchml', null],
      ['ps', null],
    ]);
    expect(json.hosts.ps).toEqual(['h1', 'h2']);
    expect(json.ok).toBe(true);
  });

  test('Rina and hierarchical runs are rows of their own; a Rina row names the ToRs that aggregated its racks', () => {
    const rina = { algorithm: 'rina', hosts: ['h1', 'h2'], inaRacks: ['t1'], reports: [report(0, 50), report(1, 60)], failure: null };
    const plain = { algorithm: 'rina', hosts: ['h1', 'h2'], inaRacks: [], reports: [report(0, 5), report(1, 6)], failure: null };
    const hierarchical = { algorithm: 'hierarchical', hosts: ['h1', 'h2'], reports: [report(0, 7), report(1, 8)], failure: null };
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, runs: [rina, plain, hierarchical] }));
    const rows = testbedRows(doc);
    expect(rows.map((r) => [r.algorithm, r.timeMs, r.identical])).toEqual([
      ['rina', 60, true],
      ['rina', 6, true],
      ['hierarchical', 8, true],
    ]);
    const text = formatTestbedText(doc, rows);
    expect(text).toContain('  rina: h1, h2; INA racks: t1\n');
    expect(text).toContain('  rina: h1, h2; INA racks: none (a plain ring)\n');
    expect(text).toContain('  hierarchical: h1, h2\n');
    const json = JSON.parse(formatTestbedJson(doc, rows)) as { runs: { algorithm: string; inaRacks: unknown; atp: unknown }[] };
    expect(json.runs.map((r) => [r.algorithm, r.inaRacks, r.atp])).toEqual([
      ['rina', ['t1'], null],
      ['rina', [], null],
      ['hierarchical', null, null],
    ]);
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...rina, inaRacks: 't1' }] }))).toThrow(/run 0 has an "inaRacks" that is not a list of switch names/);
  });

  test('the SwitchML run\'s values per packet: on its line of the text, as `switchmlElements` in JSON (the demo\'s key); null without SwitchML', () => {
    const switchml = { ...base.runs[0], elements: 256 };
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, runs: [switchml, base.runs[1]] }));
    const rows = testbedRows(doc);
    const text = formatTestbedText(doc, rows);
    expect(text).toContain('  switchml: h1, h2; 256 values per packet\n');
    expect(text).toContain('  ring: h1, h2\n');
    expect((JSON.parse(formatTestbedJson(doc, rows)) as { switchmlElements: unknown }).switchmlElements).toBe(256);
    const ringOnly = parseTestbedDocument(JSON.stringify({ ...base, runs: [base.runs[1]] }));
    expect((JSON.parse(formatTestbedJson(ringOnly, testbedRows(ringOnly))) as { switchmlElements: unknown }).switchmlElements).toBeNull();
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...switchml, elements: 0 }] }))).toThrow(/run 0 has an "elements" that is not a positive whole number/);
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...switchml, elements: '256' }] }))).toThrow(/run 0 has an "elements"/);
  });

  test('each run\'s CPU: the switches\' while it ran and the workers\' own (when they report it), on its line and in JSON', () => {
    const withCpu = (r: string, cpuMs: number): string => r.replace('"retransmissions"', `"cpuMs":${cpuMs},"retransmissions"`);
    const switchCpu = [{ switch: 'p4is1', userMs: 1800, systemMs: 300 }];
    const switchml = { ...base.runs[0], reports: [withCpu(report(0, 10), 500), withCpu(report(1, 20), 740)], switchCpu };
    const ring = { algorithm: 'ring', hosts: ['h1', 'h2'], reports: [report(0, 5), report(1, 6)], failure: null, switchCpu: [{ switch: 'p4is1', userMs: 0, systemMs: 10 }] };
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, runs: [switchml, ring, base.runs[1]] }));
    const rows = testbedRows(doc);
    const text = formatTestbedText(doc, rows);
    expect(text).toContain('  switchml: h1, h2; CPU: p4is1 2.10 s (user 1.80, system 0.30), workers 1.24 s\n');
    // Ring's workers do not report their CPU; a run measured on no switch (older documents, failed runs) says nothing.
    expect(text).toContain('  ring: h1, h2; CPU: p4is1 0.01 s (user 0.00, system 0.01)\n');
    expect(text).toContain('  ring: h1, h2\n');
    const json = JSON.parse(formatTestbedJson(doc, rows)) as { runs: { cpu: unknown }[] };
    expect(json.runs.map((r) => r.cpu)).toEqual([
      { switches: switchCpu, workersMs: 1240 },
      { switches: ring.switchCpu, workersMs: null },
      { switches: [], workersMs: null },
    ]);
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...switchml, switchCpu: [{ switch: 'p4is1', userMs: -1, systemMs: 0 }] }] }))).toThrow(
      expect.objectContaining({ code: 'TESTBED_BAD_REPORT', message: expect.stringMatching(/malformed "switchCpu" in run 0/) }),
    );
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ ...switchml, switchCpu: 'p4is1' }] }))).toThrow(/malformed "switchCpu"/);
  });

  test('a malformed document is a TESTBED_BAD_REPORT that says what is wrong', () => {
    expect(() => parseTestbedDocument('nope')).toThrow(expect.objectContaining({ code: 'TESTBED_BAD_REPORT', message: "the testbed's results document is not JSON" }));
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ algorithm: 'allgather', hosts: [], reports: [], failure: null }] }))).toThrow(
      /run 0 names no algorithm \(switchml, atp, rina, omnireduce, omnireduce-switch, ps, ring, hierarchical\)/,
    );
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, runs: [{ algorithm: 'atp', hosts: [], reports: [], failure: null }] }))).toThrow(/ATP run 0 lacks "job" or "ps"/);
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, ecn: { threshold: 8 } }))).toThrow(/malformed "ecn"/);
    expect(() => parseTestbedDocument(JSON.stringify({ ...base, traffic: { ping: { sent: 1 }, tcp: [] } }))).toThrow(/traffic.ping/);
  });
});

// An ATP worker's report: the demo's fields plus the ATP call's ECN counters (src/agent/atp/atp-stats.ts).
const atpReport = (rank: number, ecnMarks: number, windowMin: number): string =>
  `${JSON.stringify({ algorithm: 'atp', rank, resultSha256: sha('c'), iterations: [{ bytes: 1024, elapsedMs: 30 + rank, retransmissions: 1, ecnMarks, ipCeMarks: 2 * ecnMarks + 1, windowHalvings: ecnMarks > 0 ? 1 : 0, windowMin }], check: { maxAbsError: 2e-6, boundViolations: 0 } })}\n`;
// The PS's stdout: its listening line, then its report (src/agent/atp/ps-main.ts).
const psReport = (inSoftware: number, collided: number): string =>
  `{"listening":"10.0.1.5:48896"}\n${JSON.stringify({ jobId: 1, listen: '10.0.1.5:48896', stats: { completed: 16, completedByOnePiece: 16 - inSoftware, completedInSoftware: inSoftware, piecesSummed: 2 * inSoftware, collisionPieces: collided, resendPieces: 0, overflowPieces: 3, level1Aggregates: 0 } })}\n`;
const atpRun = (job: number, inSoftware: number, collided: number) => ({
  algorithm: 'atp',
  job,
  hosts: ['h1', 'h2'],
  reports: [atpReport(0, job, 8), atpReport(1, 0, 16)],
  failure: null,
  ps: { host: `ps${job}`, report: psReport(inSoftware, collided) },
  level0: ['s1'],
  level1: null,
});

describe('testbed results document with ATP jobs', () => {
  test('one row per job, named by job, with the sequences the PS summed itself (of all it completed) and collisions', () => {
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, runs: [atpRun(1, 4, 5), atpRun(2, 0, 0), { ...atpRun(3, 0, 0), reports: [], failure: 'ps3: boom' }] }));
    const rows = testbedRows(doc);
    expect(rows.map((r) => [r.algorithm, r.workers, r.timeMs, r.retransmissions, r.identical])).toEqual([
      ['atp', 2, 31, 2, true],
      ['atp', 2, 31, 2, true],
      ['atp', 2, undefined, undefined, undefined],
    ]);
    const text = formatTestbedText(doc, rows);
    expect(text).toContain('  atp 1: h1, h2; PS ps1; level 0: s1; level 1: none');
    expect(text).toMatch(/identical\s+PS summed\s+collisions\n/);
    expect(text).toMatch(/\natp 1 .* yes\s+4\/16\s+5\n/);
    expect(text).toMatch(/\natp 2 .* yes\s+0\/16\s+0\n/);
    expect(text).toContain('atp 3 failed: ps3: boom');
    expect(text).not.toContain('ECN marks');
    const json = JSON.parse(formatTestbedJson(doc, rows)) as { runs: { atp: { job: number; ps: Record<string, number> | null } }[]; ok: boolean };
    expect(json.runs.map((r) => [r.atp.job, r.atp.ps?.completedInSoftware, r.atp.ps?.overflowPieces])).toEqual([
      [1, 4, 3],
      [2, 0, 3],
      [3, 0, 3],
    ]);
    expect(json.ok).toBe(false);
    expect(testbedOk(doc, rows.slice(0, 2))).toBe(true);
  });

  test('a single ATP job is just "atp"; with --ecn the table adds the marks and the smallest window, the header the setting', () => {
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, ecn: { threshold: 8, kernelRed: false, bandwidthMbps: 10 }, runs: [atpRun(3, 1, 0)] }));
    const rows = testbedRows(doc);
    const text = formatTestbedText(doc, rows);
    expect(text).toContain('  atp: h1, h2; PS ps3');
    expect(text).toContain('ECN: switches mark at 8 packets of egress queue, ports at 10 Mbit/s; no RED in this kernel, so only the switches mark');
    expect(text).toMatch(/PS summed\s+collisions\s+ECN marks\s+IP CE marks\s+window min\n/);
    // Marks summed over the workers (3 + 0; IPv4 CE 7 + 1), the smallest window of any worker (8).
    expect(text).toMatch(/\natp .* 1\/16\s+0\s+3\s+8\s+8\n/);
    const json = JSON.parse(formatTestbedJson(doc, rows)) as { runs: { atp: { ecnMarks: number; windowHalvings: number; windowMin: number } }[]; ecn: unknown };
    expect(json.runs[0]!.atp).toMatchObject({ ecnMarks: 3, ipCeMarks: 8, windowHalvings: 1, windowMin: 8 });
    expect(json.ecn).toEqual({ threshold: 8, kernelRed: false, bandwidthMbps: 10 });
  });

  test('a PS report that cannot be read leaves its numbers out, not the row', () => {
    const doc = parseTestbedDocument(JSON.stringify({ ...base, traffic: null, runs: [{ ...atpRun(1, 0, 0), ps: { host: 'ps1', report: 'killed\n' } }] }));
    const rows = testbedRows(doc);
    expect(rows[0]!.identical).toBe(true);
    expect(formatTestbedText(doc, rows)).toMatch(/\natp .* yes\s+-\s+-\n/);
  });
});
