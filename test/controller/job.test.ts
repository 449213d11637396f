import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_TIMEOUTS, defineJob, loadJobSpec, maxElementsPerPacket, parseJobSpec, placeJob } from '../../src/controller/index.js';
import { ipv4FromText, macFromText } from '../../src/wire/index.js';
import { errorOf, fixture, problemsOf } from './helpers.js';

const jsonJob = (): Record<string, unknown> => ({
  id: 7,
  name: 'resnet',
  algorithm: 'switchml',
  workers: [
    { rank: 1, host: 'h2', udp_port: 48864 },
    { rank: 0, ip: '10.0.1.1', mac: '08:00:00:00:01:01', udp_port: 48864 },
  ],
  pool_size: 128,
  elements_per_packet: 64,
  timeouts: { timeout_ms: 50, max_timeout_ms: 2000 },
});

describe('job specs', () => {
  test('JSON (snake_case): workers sorted by rank, defaults filled in', () => {
    const job = parseJobSpec(jsonJob());
    expect(job).toEqual({
      id: 7,
      name: 'resnet',
      algorithm: 'switchml',
      workers: [
        { rank: 0, host: undefined, ip: ipv4FromText('10.0.1.1'), mac: macFromText('08:00:00:00:01:01'), udpPort: 48864, index: 1 },
        { rank: 1, host: 'h2', ip: undefined, mac: undefined, udpPort: 48864, index: 0 },
      ],
      poolSize: 128,
      elementsPerPacket: 64,
      timeouts: { ...DEFAULT_TIMEOUTS, timeoutMs: 50, maxTimeoutMs: 2000 },
      fallback: 'ring',
      parameterServer: undefined,
    });
  });

  test('TypeScript (camelCase) gives the same spec', () => {
    const job = defineJob({
      id: 7,
      name: 'resnet',
      algorithm: 'switchml',
      workers: [
        { rank: 1, host: 'h2', udpPort: 48864 },
        { rank: 0, ip: '10.0.1.1', mac: '08:00:00:00:01:01', udpPort: 48864 },
      ],
      poolSize: 128,
      elementsPerPacket: 64,
      timeouts: { timeoutMs: 50, maxTimeoutMs: 2000 },
    });
    expect(job).toEqual(parseJobSpec(jsonJob()));
  });

  test('the smallest spec', () => {
    const job = defineJob({ id: 0, algorithm: 'ring', workers: [{ rank: 0, host: 'h1', udpPort: 9000 }] });
    expect(job).toMatchObject({ poolSize: 256, elementsPerPacket: 64, timeouts: DEFAULT_TIMEOUTS, fallback: 'ring', name: undefined });
  });

  test('a parameter server for ps, atp, omnireduce and a ps fallback', () => {
    const ps = { host: 'h4', udp_port: 48880 };
    for (const algorithm of ['ps', 'omnireduce']) {
      expect(parseJobSpec({ ...jsonJob(), algorithm, parameter_server: ps }).parameterServer).toEqual({ host: 'h4', ip: undefined, udpPort: 48880 });
      expect(problemsOf(() => parseJobSpec({ ...jsonJob(), algorithm }))).toEqual([['JOB_NEEDS_PARAMETER_SERVER', '$.parameter_server']]);
    }
    // ATP's ports are in its block (test/controller/atp-job.test.ts has the rest).
    const atpJob = { ...jsonJob(), algorithm: 'atp', workers: [{ rank: 0, host: 'h1', udp_port: 0xbf00 }] };
    expect(parseJobSpec({ ...atpJob, parameter_server: { host: 'h4', udp_port: 0xbf00 } }).parameterServer).toEqual({ host: 'h4', ip: undefined, udpPort: 0xbf00 });
    expect(problemsOf(() => parseJobSpec(atpJob))).toEqual([['JOB_NEEDS_PARAMETER_SERVER', '$.parameter_server']]);
    expect(problemsOf(() => parseJobSpec({ ...jsonJob(), fallback: 'ps' }))).toEqual([['JOB_NEEDS_PARAMETER_SERVER', '$.parameter_server']]);
    expect(parseJobSpec({ ...jsonJob(), algorithm: 'ring', fallback: 'ps' }).fallback).toBe('ps');
  });

  test('elements per packet are bounded by each header within a 1500-byte MTU', () => {
    expect(maxElementsPerPacket('switchml')).toBe(364);
    expect(maxElementsPerPacket('rina')).toBe(363);
    expect(parseJobSpec({ ...jsonJob(), elements_per_packet: 364 }).elementsPerPacket).toBe(364);
    expect(problemsOf(() => parseJobSpec({ ...jsonJob(), elements_per_packet: 365 }))).toEqual([['JOB_BAD_VALUE', '$.elements_per_packet']]);
  });
});

describe('job spec errors name the path, in the style the spec was written', () => {
  const cases: [string, (j: Record<string, unknown>) => void, [string, string][]][] = [
    ['missing id, algorithm and workers', (j) => { delete j['id']; delete j['algorithm']; delete j['workers']; },
      [['JOB_MISSING_FIELD', '$.id'], ['JOB_MISSING_FIELD', '$.algorithm'], ['JOB_MISSING_FIELD', '$.workers']]],
    ['an id beyond 16 bits, an unknown algorithm', (j) => { j['id'] = 70000; j['algorithm'] = 'allreduce'; },
      [['JOB_BAD_VALUE', '$.id'], ['JOB_BAD_VALUE', '$.algorithm']]],
    ['an unknown field', (j) => { j['pool'] = 4; }, [['JOB_UNKNOWN_FIELD', '$.pool']]],
    ['no workers', (j) => { j['workers'] = []; }, [['JOB_BAD_VALUE', '$.workers']]],
    ['a worker without host or ip, or port', (j) => { j['workers'] = [{ rank: 0 }]; },
      [['JOB_MISSING_FIELD', '$.workers[0]'], ['JOB_MISSING_FIELD', '$.workers[0].udp_port']]],
    ['bad addresses', (j) => { j['workers'] = [{ rank: 0, ip: '10.0.0.256', mac: 'xx', udp_port: 1 }]; },
      [['JOB_BAD_ADDRESS', '$.workers[0].ip'], ['JOB_BAD_ADDRESS', '$.workers[0].mac']]],
    ['a rank out of range', (j) => { (j['workers'] as Record<string, unknown>[])[0]!['rank'] = 2; }, [['JOB_BAD_VALUE', '$.workers[0].rank']]],
    ['a rank twice', (j) => { (j['workers'] as Record<string, unknown>[])[0]!['rank'] = 0; }, [['JOB_BAD_RANKS', '$.workers[1].rank']]],
    ['two workers on one address and port', (j) => { j['workers'] = [{ rank: 0, host: 'h1', udp_port: 5 }, { rank: 1, host: 'h1', udp_port: 5 }]; },
      [['JOB_DUPLICATE_WORKER', '$.workers[1]']]],
    ['a pool beyond the 15-bit slot index', (j) => { j['pool_size'] = 40000; }, [['JOB_BAD_VALUE', '$.pool_size']]],
    ['timeouts out of order', (j) => { j['timeouts'] = { timeout_ms: 100, max_timeout_ms: 10 }; }, [['JOB_BAD_VALUE', '$.timeouts.max_timeout_ms']]],
    ['a timeout floor above the ceiling', (j) => { j['timeouts'] = { timeout_ms: 5, min_timeout_ms: 50, max_timeout_ms: 10 }; }, [['JOB_BAD_VALUE', '$.timeouts.max_timeout_ms']]],
    ['a timeout field the agent no longer has', (j) => { j['timeouts'] = { backoff_every_timeouts: 100 }; }, [['JOB_UNKNOWN_FIELD', '$.timeouts.backoff_every_timeouts']]],
    ['a timeout of the wrong type', (j) => { j['timeouts'] = { backoff_factor: '2' }; }, [['JOB_WRONG_TYPE', '$.timeouts.backoff_factor']]],
  ];

  test.each(cases)('%s', (_, mutate, expected) => {
    const json = jsonJob();
    mutate(json);
    expect(problemsOf(() => parseJobSpec(json))).toEqual(expected);
  });

  test('camelCase keys in TypeScript specs, in paths and unknown fields alike', () => {
    expect(problemsOf(() => defineJob({ id: 1, algorithm: 'ring', workers: [{ rank: 0, host: 'h1', udpPort: 0 }], poolSize: 0 }))).toEqual([
      ['JOB_BAD_VALUE', '$.workers[0].udpPort'],
      ['JOB_BAD_VALUE', '$.poolSize'],
    ]);
    const snake = { id: 1, algorithm: 'ring', workers: [{ rank: 0, host: 'h1', udpPort: 1 }], pool_size: 4 };
    expect(errorOf(() => defineJob(snake as never)).message).toContain('did you mean "poolSize"?');
  });

  test('junk never crashes', () => {
    for (const junk of [null, 'job', 3, [], { workers: 'all' }]) expect(() => parseJobSpec(junk)).toThrow(/\$/);
  });
});

describe('placing a job on a topology', () => {
  const topo = fixture('leaf-spine-1.json');

  test('workers named by host or found by address get their ToR, port and rack', () => {
    const placed = placeJob(topo, parseJobSpec(jsonJob()));
    expect(placed.workers.map((w) => [w.rank, w.host, w.tor, w.torPort, w.rack, w.mac])).toEqual([
      [0, 'h1', 's1', 1, 'r1', macFromText('08:00:00:00:01:01')],
      [1, 'h2', 's1', 2, 'r1', macFromText('08:00:00:00:01:02')],
    ]);
  });

  test('hosts the topology lacks, and addresses that disagree with it', () => {
    const json = jsonJob();
    json['workers'] = [
      { rank: 0, host: 'h9', udp_port: 1 },
      { rank: 1, ip: '10.9.9.9', udp_port: 1 },
      { rank: 2, host: 'h3', ip: '10.0.2.2', udp_port: 1 },
      { rank: 3, host: 'h4', mac: '08:00:00:00:02:01', udp_port: 1 },
    ];
    json['algorithm'] = 'ps';
    json['parameter_server'] = { host: 'h7', udp_port: 2 };
    expect(problemsOf(() => placeJob(topo, parseJobSpec(json)))).toEqual([
      ['JOB_UNKNOWN_HOST', '$.workers[0].host'],
      ['JOB_UNKNOWN_HOST', '$.workers[1].ip'],
      ['JOB_HOST_MISMATCH', '$.workers[2].ip'],
      ['JOB_HOST_MISMATCH', '$.workers[3].mac'],
      ['JOB_UNKNOWN_HOST', '$.parameter_server.host'],
    ]);
  });
});

describe('job files', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'p4ina-job-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('loadJobSpec reads JSON; unreadable and non-JSON files have their own codes', async () => {
    await writeFile(join(dir, 'job.json'), JSON.stringify(jsonJob()));
    await writeFile(join(dir, 'bad.json'), '{ "id": ');
    expect((await loadJobSpec(join(dir, 'job.json'))).id).toBe(7);
    await expect(loadJobSpec(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'JOB_BAD_JSON' });
    await expect(loadJobSpec(join(dir, 'missing.json'))).rejects.toMatchObject({ code: 'JOB_FILE_UNREADABLE' });
  });
});
