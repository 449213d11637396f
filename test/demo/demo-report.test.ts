import { describe, expect, test } from 'vitest';
import { parseAtpServerReport, switchShare } from '../../src/demo/atp-server-report.js';
import { DEFAULT_DEMO_OPTIONS } from '../../src/demo/demo-options.js';
import { formatDemoJson, formatDemoTable } from '../../src/demo/demo-report.js';
import { failedRun, summariseRun, type WorkerOutcome } from '../../src/report/demo-results.js';
import { formatResultsTable } from '../../src/report/results-table.js';

const SHA = 'c'.repeat(64);
const outcome = (rank: number, elapsedMs: number): WorkerOutcome => ({ rank, resultSha256: SHA, bytes: 65536, elapsedMs, retransmissions: 1, bytesSent: 70_000, maxAbsError: 1e-5, boundViolations: 0 });
const rows = [summariseRun('atp', 65536, [outcome(0, 100), outcome(1, 120)]), summariseRun('ring', 65536, [outcome(0, 10), outcome(1, 11)])];

/** A line as `p4ina agent atp-ps --json` prints it when stopped (only the fields read here matter). */
const psReport = (stats: Record<string, number>): string =>
  `{"listening":"10.0.0.200:48896"}\n${JSON.stringify({ jobId: 1, listen: '10.0.0.200:48896', stats: { datagrams: 9, ...stats }, transport: {} })}\n`;
const STATS = { completed: 256, completedByOnePiece: 240, completedInSoftware: 16, piecesSummed: 32, collisionPieces: 2, resendPieces: 30 };

describe("ATP's parameter server report", () => {
  test('where each result packet was aggregated, read from the last JSON line', () => {
    const summary = parseAtpServerReport(psReport(STATS));
    expect(summary).toEqual({ sequences: 256, bySwitch: 240, byServer: 16, piecesSummed: 32, collisionPieces: 2, resendPieces: 30 });
    expect(switchShare(summary)).toBe(240 / 256);
    expect(switchShare({ ...summary, sequences: 0, bySwitch: 0 })).toBeUndefined();
  });

  test.each([
    ['', /no JSON report/],
    ['atp ps listening on 10.0.0.200:48896', /no JSON report/],
    ['{"stats": 1', /not valid JSON/],
    ['{"jobId":1}', /no "stats"/],
    [psReport({ ...STATS, completed: -1 }), /"completed"/],
  ])('%j is refused: %s', (stdout, message) => {
    expect(() => parseAtpServerReport(stdout)).toThrow(message);
  });
});

describe('the demo’s table and JSON', () => {
  test('without ATP: the results table as it always was', () => {
    expect(formatDemoTable({ rows, framesLost: 0 })).toBe(formatResultsTable(rows));
  });

  test('with ATP: a "by switch" column for its row, and what the PS summed under the table', () => {
    const atp = parseAtpServerReport(psReport(STATS));
    const table = formatDemoTable({ rows: [...rows, failedRun('ps', 2, 65536, 'ps: worker 1 exited with status 1')], framesLost: 0, atp });
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/identical {2}by switch$/);
    expect(lines[2]).toMatch(/^atp .* yes +93\.7%$/);
    expect(lines[3]).toMatch(/^ring .* yes +-$/);
    expect(lines[4]).toMatch(/^ps .* failed +-$/);
    expect(lines.slice(5)).toEqual([
      'ps failed: ps: worker 1 exited with status 1',
      '',
      'atp: 256 result packets: 240 aggregated whole by the switch, 16 summed by the parameter server from 32 pieces (2 collided, 30 resent)',
      '',
    ]);
  });

  test('the share is truncated: 100.0% means every packet; counts have thousands separators', () => {
    const atp = parseAtpServerReport(psReport({ ...STATS, completed: 65536, completedByOnePiece: 65512, completedInSoftware: 24, piecesSummed: 1234 }));
    const table = formatDemoTable({ rows, framesLost: 0, atp });
    expect(table.split('\n')[2]).toMatch(/ 99\.9%$/);
    expect(table).toContain('atp: 65,536 result packets: 65,512 aggregated whole by the switch, 24 summed by the parameter server from 1,234 pieces');
  });

  test('JSON: the results document, and "atp" with the share (null without ATP)', () => {
    const atp = parseAtpServerReport(psReport(STATS));
    const options = { ...DEFAULT_DEMO_OPTIONS, workers: 2, tensorBytes: 65536 };
    const doc = JSON.parse(formatDemoJson(options, { rows, framesLost: 3, atp })) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['workers', 'tensorBytes', 'loss', 'seed', 'framesLost', 'runs', 'sparsity', 'switchmlElements', 'atp', 'hierarchical']);
    // The demo's default run has SwitchML with 256 values per packet; without SwitchML there is no count.
    expect(doc.switchmlElements).toBe(256);
    expect(JSON.parse(formatDemoJson({ ...options, algorithms: ['atp', 'ring'] }, { rows, framesLost: 0 }))).toMatchObject({ switchmlElements: null });
    expect(JSON.parse(formatDemoJson({ ...options, switchMlElements: 64 }, { rows, framesLost: 0 }))).toMatchObject({ switchmlElements: 64 });
    expect(doc).toMatchObject({ workers: 2, framesLost: 3, atp: { sequences: 256, bySwitch: 240, switchShare: 240 / 256 } });
    expect((doc.runs as { algorithm: string }[]).map((r) => r.algorithm)).toEqual(['atp', 'ring']);
    expect(JSON.parse(formatDemoJson(options, { rows, framesLost: 0 }))).toMatchObject({ sparsity: null, atp: null, hierarchical: null });
    const sparsity = { sparsity: 0.9, pattern: 'random', blockElements: 256 } as const;
    expect(JSON.parse(formatDemoJson({ ...options, sparsity }, { rows, framesLost: 0 }))).toMatchObject({ sparsity });
  });

  test('hierarchical: a line under the table names its racks and says they are only groups of processes; the JSON has them', () => {
    const hierarchicalRows = [summariseRun('hierarchical', 65536, [outcome(0, 12), outcome(1, 13), outcome(2, 11)]), rows[1]!];
    const racks = [['h1', 'h2'], ['h3']];
    const table = formatDemoTable({ rows: hierarchicalRows, framesLost: 0, hierarchical: { racks } });
    expect(table).toBe(
      `${formatResultsTable(hierarchicalRows)}\nhierarchical: racks h1 h2 | h3, each led by its first host; ` +
        'all on this machine over loopback TCP, so a rack only groups processes: links inside and between racks are alike\n',
    );
    expect(table.split('\n')[2]).toMatch(/^hierarchical +3 +64 KiB +13\.0 /);
    const withAtp = formatDemoTable({ rows: [rows[0]!, ...hierarchicalRows], framesLost: 0, atp: parseAtpServerReport(psReport(STATS)), hierarchical: { racks } });
    expect(withAtp.trimEnd().split('\n').slice(-2)[0]).toMatch(/^atp: 256 result packets/);
    expect(withAtp.trimEnd().split('\n').at(-1)).toMatch(/^hierarchical: racks h1 h2 \| h3,/);
    const doc = JSON.parse(formatDemoJson({ ...DEFAULT_DEMO_OPTIONS, workers: 3 }, { rows: hierarchicalRows, framesLost: 0, hierarchical: { racks } })) as Record<string, unknown>;
    expect(doc.hierarchical).toEqual({ racks });
  });
});
